import type { TSchedule } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scheduleRefreshInterval } from '@/lib/schedules';

/**
 * `GET /api/products/:id/schedules`: the product's scheduled uploads (cancelled ones are gone), soonest first. Read
 * again while one is pending or running, so the list shows it complete or fail.
 */
export const productSchedulesQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['products', 'detail', productId, 'schedules'],
    queryFn: ({ signal }) => api.get<TSchedule[]>(`/api/products/${encodeURIComponent(productId)}/schedules`, signal),
    refetchInterval: (query) => scheduleRefreshInterval(query.state.data),
  });

export const useProductSchedules = (productId: string) => useQuery(productSchedulesQueryOptions(productId));
