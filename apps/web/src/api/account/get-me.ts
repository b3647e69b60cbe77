import type { TMe } from '@podforge/contract';
import { ErrorCode } from '@podforge/contract/plain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '@/lib/api-client';

/** `GET /api/auth/me`: this browser's member, role and workspace. */
export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'me'], // lib/query-client.ts names it too (a lost session reads it again)
    queryFn: ({ signal }) => api.get<TMe>('/api/auth/me', signal),
  });

export const useMe = (enabled = true) => useQuery({ ...meQueryOptions(), enabled });

/** The server's answer for a browser that has had a workspace and lost its session. */
export const isNoSession = (error: unknown) => error instanceof ApiError && error.body?.code === ErrorCode.NoSession;
