import type {
  TAcceptInvite,
  TCreatedInvite,
  TInvite,
  TInviteInfo,
  TMe,
  TMember,
  TMemberRole,
} from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/workspace/members`: everyone in the workspace, with role and last seen. */
export const membersQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'members'],
    queryFn: ({ signal }) => api.get<TMember[]>('/api/workspace/members', signal),
  });
export const useMembers = (enabled = true) => useQuery({ ...membersQueryOptions(), enabled });

/** `GET /api/workspace/invites`: links not yet used, revoked or expired (owners only). */
export const invitesQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'invites'],
    queryFn: ({ signal }) => api.get<TInvite[]>('/api/workspace/invites', signal),
  });
export const useInvites = (enabled = true) => useQuery({ ...invitesQueryOptions(), enabled });

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/workspace/members/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
}

export function useCreateInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: TMemberRole) => api.post<TCreatedInvite>('/api/workspace/invites', { role }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'invites'] }),
  });
}

export function useRevokeInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/workspace/invites/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'invites'] }),
  });
}

/** `GET /api/workspace/invites/:token`: what the invite page shows before its button. */
export const inviteInfoQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['invite', token],
    queryFn: ({ signal }) => api.get<TInviteInfo>(`/api/workspace/invites/${encodeURIComponent(token)}`, signal),
  });
export const useInviteInfo = (token: string) => useQuery(inviteInfoQueryOptions(token));

export function useAcceptInvite(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAcceptInvite) =>
      api.post<TMe>(`/api/workspace/invites/${encodeURIComponent(token)}/accept`, body),
    onSuccess: () => queryClient.resetQueries(),
  });
}
