import type { TMe, TPasskey } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/auth/passkeys`: the member's own passkeys. */
export const passkeysQueryOptions = () =>
  queryOptions({
    queryKey: ['account', 'passkeys'],
    queryFn: ({ signal }) => api.get<TPasskey[]>('/api/auth/passkeys', signal),
  });

export const usePasskeys = (enabled = true) => useQuery({ ...passkeysQueryOptions(), enabled });

/** A browser's refusal (the person cancelled, no authenticator) in words; anything else as it came. */
export function passkeyErrorMessage(error: unknown): string {
  if (error instanceof Error && error.name === 'NotAllowedError') {
    return 'The passkey request was cancelled or timed out.';
  }
  return error instanceof Error ? error.message : String(error);
}

/** Options from the server, the browser's authenticator makes the passkey, the server checks and keeps it. */
export async function addPasskey(name: string): Promise<TPasskey> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const optionsJSON = await api.post<Parameters<typeof startRegistration>[0]['optionsJSON']>(
    '/api/auth/passkeys/registration-options',
    {},
  );
  const response = await startRegistration({ optionsJSON });
  return api.post<TPasskey>('/api/auth/passkeys/registration-verify', { name, response });
}

/** 'Sign in with a passkey': the authenticator offers this site's passkeys; the server signs this browser in. */
export async function signInWithPasskey(): Promise<TMe> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const optionsJSON = await api.post<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    '/api/auth/passkeys/login-options',
    {},
  );
  const response = await startAuthentication({ optionsJSON });
  return api.post<TMe>('/api/auth/passkeys/login', { response });
}

export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addPasskey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.patch<TPasskey>(`/api/auth/passkeys/${id}`, { name }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'passkeys'] }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(`/api/auth/passkeys/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account'] }),
  });
}

/**
 * Signing this browser in to another workspace (or back in to one): every answer cached for the old session is
 * dropped, so each screen reads the new workspace.
 */
export function useSignInWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithPasskey,
    onSuccess: () => queryClient.resetQueries(),
  });
}
