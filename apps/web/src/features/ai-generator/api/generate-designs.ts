import type { TAiDesignRequest, TAiDesignResponse } from '@podforge/contract';
import { api } from '@/lib/api-client';
import { useAiMutation } from './use-ai-mutation';

/** `POST /api/ai/designs`: each image becomes a stored design (source 'ai'); one credit an image. */
export const generateDesigns = (input: TAiDesignRequest) => api.post<TAiDesignResponse>('/api/ai/designs', input);

export const useGenerateDesigns = () => useAiMutation(generateDesigns);
