import type { TAiStatus } from '@podforge/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';

/** `GET /api/ai/status`: the AI models the server uses and the warnings about them (a shutdown soon, a model gone). */
export const aiStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['ai', 'status'],
    queryFn: ({ signal }) => api.get<TAiStatus>('/api/ai/status', signal),
    // The server checks daily; a page open for hours asks again now and then.
    staleTime: 5 * 60_000,
  });

export const useAiStatus = (enabled = true) => useQuery({ ...aiStatusQueryOptions(), enabled });

/** An AI call's onError: a model the provider retired since the last check is shown at once (the server knows now). */
export const refreshAiStatusWhenRetired = (queryClient: QueryClient) => (error: unknown) => {
  if (error instanceof ApiError && error.body?.errorType === 'MODEL_RETIRED') {
    void queryClient.invalidateQueries({ queryKey: aiStatusQueryOptions().queryKey });
  }
};
