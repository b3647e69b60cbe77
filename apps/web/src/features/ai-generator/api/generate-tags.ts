import type { TGeneratedTags, TGenerateTagsRequest } from '@podforge/contract';
import { api } from '@/lib/api-client';
import { useAiMutation } from './use-ai-mutation';

/** `POST /api/ai/generate-tags`: one credit. */
export const generateTags = (input: TGenerateTagsRequest) => api.post<TGeneratedTags>('/api/ai/generate-tags', input);

export const useGenerateTags = () => useAiMutation(generateTags);
