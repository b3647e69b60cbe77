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
