import type { TDesign } from '@podforge/contract';
import { useMutation } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';

/** Spec section 9 'AI design options'. */
export const AI_DESIGN_SIZES = ['512x512', '768x768', '1024x1024'] as const;
export const AI_DESIGN_STYLES = ['vector-clean', 'line-art', 'vintage-crest', 'photo'] as const;

export type AiDesignRequest = {
  prompt: string;
  size: (typeof AI_DESIGN_SIZES)[number];
  n: number;
  style: (typeof AI_DESIGN_STYLES)[number];
};

/** `POST /api/ai/designs` (spec section 3 'AI design request'): the images come back as stored designs. */
export const generateAiDesigns = (input: AiDesignRequest) => api.post<{ images: TDesign[] }>('/api/ai/designs', input);

export const useGenerateAiDesigns = () => useMutation({ mutationFn: generateAiDesigns });

/** Spec section 8 'AI design' messages, by status; the server's own message wins where the spec allows. */
export function aiDesignErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : 'AI generation failed';
  if (error.status === 401) return 'Invalid OpenAI API key. Please check your configuration.';
  if (error.status === 429) return 'OpenAI rate limit exceeded. Please try again later.';
  if (error.status === 400) return error.serverMessage ?? 'Invalid prompt or parameters';
  return error.serverMessage ?? 'AI generation failed';
}
