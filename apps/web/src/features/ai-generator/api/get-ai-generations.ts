import type { TAiGenerationsResponse } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/ai/generations`: the workspace's recent AI generations, newest first. */
export const aiGenerationsQueryOptions = (limit = 8) =>
  queryOptions({
    queryKey: ['ai', 'generations', { limit }],
    queryFn: ({ signal }) => api.get<TAiGenerationsResponse>(`/api/ai/generations?limit=${limit}`, signal),
  });

export const useAiGenerations = (limit?: number) => useQuery(aiGenerationsQueryOptions(limit));
