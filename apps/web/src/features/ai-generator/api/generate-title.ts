import type { TGeneratedTitle, TGenerateTitleRequest } from '@podforge/contract';
import { api } from '@/lib/api-client';
import { useAiMutation } from './use-ai-mutation';

/** `POST /api/ai/generate-title`: one credit. */
export const generateTitle = (input: TGenerateTitleRequest) =>
  api.post<TGeneratedTitle>('/api/ai/generate-title', input);

export const useGenerateTitle = () => useAiMutation(generateTitle);
