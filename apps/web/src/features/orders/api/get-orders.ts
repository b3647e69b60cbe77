import type { TOrder, TOrderStatus } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** Statuses the printer or the queue still moves on by itself: the list is read again soon while one is shown. */
const MOVING: readonly TOrderStatus[] = ['received', 'sent', 'in_production'];
export const ORDERS_REFRESH_MS = 3000;
/** New orders arrive from the stores at any time: an open Orders tab looks again this often. */
export const ORDERS_IDLE_REFRESH_MS = 10_000;

/** `GET /api/orders[?status=]`: the workspace's store orders, newest first. */
export const ordersQueryOptions = (status: TOrderStatus | null) =>
  queryOptions({
    queryKey: ['orders', status ?? 'all'],
    queryFn: ({ signal }) => api.get<TOrder[]>(status ? `/api/orders?status=${status}` : '/api/orders', signal),
    refetchInterval: (query) =>
      query.state.data?.some((o) => MOVING.includes(o.status) || (o.status === 'shipped' && !o.trackingUrl))
        ? ORDERS_REFRESH_MS
        : ORDERS_IDLE_REFRESH_MS,
  });

export const useOrders = (status: TOrderStatus | null) => useQuery(ordersQueryOptions(status));
