import type { TGenerateDescriptionRequest, TGeneratedDescription } from '@podforge/contract';
import { api } from '@/lib/api-client';
import { useAiMutation } from './use-ai-mutation';

/** `POST /api/ai/generate-description`: one credit. */
export const generateDescription = (input: TGenerateDescriptionRequest) =>
  api.post<TGeneratedDescription>('/api/ai/generate-description', input);

export const useGenerateDescription = () => useAiMutation(generateDescription);
