import type { TFulfilmentProviders } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/fulfillment/providers`: printful, printify and gelato with connection and sandbox state. */
export const fulfilmentProvidersQueryOptions = () =>
  queryOptions({
    queryKey: ['printers', 'providers'],
    queryFn: ({ signal }) => api.get<TFulfilmentProviders>('/api/fulfillment/providers', signal),
  });

export const useFulfilmentProviders = () => useQuery(fulfilmentProvidersQueryOptions());
