import type { TMe, TSession } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/auth/sessions`: the browsers the member is signed in on. */
export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) => api.get<TSession[]>('/api/auth/sessions', signal),
  });

export const useSessions = (enabled = true) => useQuery({ ...sessionsQueryOptions(), enabled });

/**
 * Signs a browser out. `force` confirms signing out the workspace's last way in (the server answers 409 without
 * it). Signing out this browser drops every cached answer, so the app asks how to go on.
 */
export function useSignOutSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, force }: { id: string; force?: boolean; current: boolean }) =>
      api.delete<void>(`/api/auth/sessions/${id}${force ? '?force=true' : ''}`),
    onSuccess: (_data, { current }) =>
      current ? queryClient.resetQueries() : queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
}

/** 'Start a new workspace' for a browser without a session. */
export function useStartWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<TMe>('/api/auth/new-workspace', {}),
    onSuccess: () => queryClient.resetQueries(),
  });
}
