import { ErrorCode } from '@podforge/contract/plain';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

const ME_KEY = ['account', 'me'];

/** The server's answer for a browser that has had a workspace and lost its session. */
export const isNoSession = (error: unknown) => error instanceof ApiError && error.body?.code === ErrorCode.NoSession;

/** Spec section 7: queries are not retried, not refetched on focus or interval, and never go stale. */
export function createQueryClient() {
  // A call answered 'no session' reads who this browser is again, so the app asks how to go on (AccountGate)
  // instead of showing each screen's error.
  // (The session is gone: signed out from another browser, or the member removed.)
  const onError = (error: unknown, queryKey?: readonly unknown[]) => {
    if (queryKey && queryKey.join('/') === ME_KEY.join('/')) return;
    if (isNoSession(error)) {
      void queryClient.invalidateQueries({ queryKey: ME_KEY, exact: true });
    }
  };
  const queryClient: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        retry: false,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        refetchOnReconnect: false,
        staleTime: Number.POSITIVE_INFINITY,
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}
