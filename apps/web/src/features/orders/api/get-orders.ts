import type { TOrderPage, TOrderStatus } from '@podforge/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Statuses the printer or the queue still moves on by itself: the list is read again soon while one is shown. */
const MOVING: readonly TOrderStatus[] = ['received', 'sent', 'in_production'];
export const ORDERS_REFRESH_MS = 3000;
/** New orders arrive from the stores at any time: an open Orders tab looks again this often. */
export const ORDERS_IDLE_REFRESH_MS = 10_000;

/** `GET /api/orders?page=[&status=]`: a page of the workspace's store orders, newest first. */
export const ordersQueryOptions = (status: TOrderStatus | null, page: number) =>
  queryOptions({
    queryKey: ['orders', status ?? 'all', page],
    queryFn: ({ signal }) =>
      api.get<TOrderPage>(
        `/api/orders?${new URLSearchParams({ page: String(page), ...(status ? { status } : {}) })}`,
        signal,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.items.some((o) => MOVING.includes(o.status) || (o.status === 'shipped' && !o.trackingUrl))
        ? ORDERS_REFRESH_MS
        : ORDERS_IDLE_REFRESH_MS,
  });

export const useOrders = (status: TOrderStatus | null, page: number) => useQuery(ordersQueryOptions(status, page));
