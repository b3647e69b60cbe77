import type { TIntegration } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/integrations`: the workspace's stores and fulfilment services, with `isConnected`. */
export const integrationsQueryOptions = () =>
  queryOptions({
    queryKey: ['integrations', 'list'],
    queryFn: ({ signal }) => api.get<TIntegration[]>('/api/integrations', signal),
  });

export const useIntegrations = () => useQuery(integrationsQueryOptions());

/** The stores a product can go to now: connected store integrations (the create flows and scheduling list them). */
export function useConnectedStores() {
  const integrations = useIntegrations();
  const stores = (integrations.data ?? []).filter((i) => i.kind === 'store' && i.isConnected);
  return { ...integrations, stores };
}

/** One platform's stores as its Integrations card lists them: every one not disconnected. */
export function usePlatformStores(platform: TIntegration['platform']) {
  const integrations = useIntegrations();
  const stores = (integrations.data ?? []).filter(
    (i) => i.kind === 'store' && i.platform === platform && i.status !== 'disconnected',
  );
  return { ...integrations, stores };
}
