import type { TAiDesignRequest, TAiDesignResponse } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { designsQueryOptions } from '@/api/designs/get-designs';
import { ApiError, api } from '@/lib/api-client';
import { refreshAiStatusWhenRetired } from './get-ai-status';

/** `POST /api/ai/designs`: each image becomes a stored design (source 'ai'); one credit an image. */
export const generateDesigns = (input: TAiDesignRequest) => api.post<TAiDesignResponse>('/api/ai/designs', input);

/** Used by the AI Generator and the wizard's Design step: new designs, fewer credits, one more generation. */
export function useGenerateDesigns() {
  const queryClient = useQueryClient();
  return useMutation({
    onError: refreshAiStatusWhenRetired(queryClient),
    mutationFn: generateDesigns,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
        queryClient.invalidateQueries({ queryKey: ['ai', 'generations'] }),
        queryClient.invalidateQueries({ queryKey: designsQueryOptions().queryKey }),
      ]),
  });
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** The message for a failed `POST /api/ai/designs` (spec section 8, 'AI design ...'). */
export function designErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return 'AI generation failed';
  const body = error.body;
  const server = text(body?.error) ?? text(body?.message);
  if (error.status === 401 || body?.errorType === 'INVALID_API_KEY') {
    return 'Invalid OpenAI API key. Please check your configuration.';
  }
  if (error.status === 429) return server ?? 'OpenAI rate limit exceeded. Please try again later.';
  if (error.status === 400) return server ?? 'Invalid prompt or parameters';
  return server ?? 'AI generation failed';
}
