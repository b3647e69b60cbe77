import type { TPrintfulStatus } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const printfulStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['printful', 'status'],
    queryFn: ({ signal }) => api.get<TPrintfulStatus>('/api/printful/status', signal),
  });

export const usePrintfulStatus = () => useQuery(printfulStatusQueryOptions());
