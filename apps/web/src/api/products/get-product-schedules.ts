import type { TSchedule } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/products/:id/schedules`: the product's scheduled uploads (cancelled ones are gone), soonest first. */
export const productSchedulesQueryOptions = (productId: string) =>
  queryOptions({
    queryKey: ['products', 'detail', productId, 'schedules'],
    queryFn: ({ signal }) => api.get<TSchedule[]>(`/api/products/${encodeURIComponent(productId)}/schedules`, signal),
  });

export const useProductSchedules = (productId: string) => useQuery(productSchedulesQueryOptions(productId));
