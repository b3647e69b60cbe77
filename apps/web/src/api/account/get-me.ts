import type { TMe } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/auth/me`: this browser's member, role and workspace. */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'me'], // lib/query-client.ts names it too (a lost session reads it again)
    queryFn: ({ signal }) => api.get<TMe>('/api/auth/me', signal),
  });

export const useMe = (enabled = true) => useQuery({ ...meQueryOptions(), enabled });

export { isNoSession } from '@/lib/query-client';
