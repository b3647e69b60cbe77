import type { TOrderStatus } from '@podforge/contract';
import { ETSY_ORDER_READ_MINUTES, ORDER_STATUS_LABELS, ORDER_STATUSES } from '@podforge/contract/plain';
import { PackageOpen } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useConnectedStores } from '@/api/integrations/get-integrations';
import { Card } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { Pager } from '@/components/ui/pager';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useOrders } from '../api/get-orders';
import { type OrderAction, useOrderAction } from '../api/order-actions';
import { ConfirmationSetting } from './confirmation-setting';
import { OrderCard } from './order-card';

const DONE: Record<OrderAction, string> = {
  approve: 'Order approved: it goes to the printer now.',
  cancel: 'Cancelling the order.',
  retry: 'Sending the order to the printer again.',
};

/**
 * Stores that cannot hand over their orders in full (e.g. Shopify has not approved the app for protected customer
 * data: no orders webhooks, no buyer address), with what to do; the same words as on the store's card.
 */
function StoreProblems() {
  const { stores } = useConnectedStores();
  const troubled = stores.filter((s) => s.problem);
  if (troubled.length === 0) return null;
  return (
    <ul className="space-y-2" data-testid="orders-store-problems">
      {troubled.map((s) => (
        <li
          key={s.id}
          role="alert"
          className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <span className="font-medium">{s.name}:</span> {s.problem}
        </li>
      ))}
    </ul>
  );
}

/** The Orders tab: the stores' sales on their way to a parcel. */
export function OrdersScreen() {
  const [status, setStatus] = useState<TOrderStatus | null>(null);
  const [page, setPage] = useState(1);
  const { data, isPending, isError } = useOrders(status, page);
  const lastPage = data?.totalPages ?? 0;
  // Orders that moved on (or a filter) can leave fewer pages than the one shown: show the last one instead.
  useEffect(() => {
    if (lastPage > 0 && page > lastPage) setPage(lastPage);
  }, [lastPage, page]);
  const action = useOrderAction();

  const run = (id: string, what: OrderAction) =>
    action.mutate(
      { id, action: what },
      {
        onSuccess: () => toast({ title: DONE[what], variant: 'success' }),
        onError: (error) =>
          toast({
            title: 'The order could not be changed',
            description: error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error),
            variant: 'destructive',
          }),
      },
    );

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Orders</h1>
        <p className="text-slate-500">
          Sales from your stores and their way to a parcel: printed by Printful, shipped, tracked.
        </p>
      </div>
      <StoreProblems />
      <Card className="p-4">
        <ConfirmationSetting />
      </Card>
      <label className="block max-w-xs text-sm">
        <span className="mb-1 block font-medium">Status</span>
        <NativeSelect
          value={status ?? ''}
          onChange={(e) => {
            setStatus(e.target.value ? (e.target.value as TOrderStatus) : null);
            setPage(1);
          }}
        >
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {ORDER_STATUS_LABELS[s]}
            </option>
          ))}
        </NativeSelect>
      </label>
      {isPending ? (
        <Skeleton className="h-40" />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-600">
          Your orders could not be loaded. Please try again.
        </p>
      ) : data.total === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center">
          <PackageOpen className="mx-auto size-10 text-slate-400" aria-hidden />
          <p className="mt-3 font-semibold">
            {status ? `No ${ORDER_STATUS_LABELS[status].toLowerCase()} orders` : 'No orders yet'}
          </p>
          <p className="text-sm text-slate-500">
            {status
              ? 'Choose another status to see the rest.'
              : `When a product you pushed to Shopify, Etsy or WooCommerce sells, the order shows up here and goes to the printer (Etsy’s within a few minutes: Podforge reads the shop’s orders every ${ETSY_ORDER_READ_MINUTES} minutes).`}
          </p>
        </div>
      ) : (
        <>
          <ul className="space-y-4">
            {data.items.map((order) => (
              <li key={order.id}>
                <OrderCard
                  order={order}
                  busy={action.isPending && action.variables?.id === order.id}
                  onAction={(what) => run(order.id, what)}
                />
              </li>
            ))}
          </ul>
          <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
            <p className="text-sm text-slate-500" data-testid="orders-range">
              {data.items.length === 0
                ? `No orders on page ${data.page} of ${data.totalPages}`
                : `Showing ${(data.page - 1) * data.pageSize + 1} to ${(data.page - 1) * data.pageSize + data.items.length} of ${data.total} orders`}
            </p>
            {data.totalPages > 1 && <Pager page={page} totalPages={data.totalPages} onPageChange={setPage} />}
          </div>
        </>
      )}
    </div>
  );
}
