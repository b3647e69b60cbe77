import type { TOrder, TOrderShipment } from '@podforge/contract';
import {
  canApproveOrder,
  canCancelOrder,
  canRetryOrder,
  ORDER_STATUS_LABELS,
  printerLabel,
} from '@podforge/contract/plain';
import { ExternalLink, ImageOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import type { OrderAction } from '../api/order-actions';
import { formatMoney, STATUS_STYLES } from './order-format';

type Props = { order: TOrder; busy: boolean; onAction: (action: OrderAction) => void };

/** One store order: status, lines with their mockups, money, what the seller can do, and each parcel's tracking. */
export function OrderCard({ order, busy, onAction }: Props) {
  const money = (amount: string) => formatMoney(amount, order.currency);
  return (
    <Card className="space-y-4 p-5" data-testid="order">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-semibold">
            Order {order.name} <span className="text-sm font-normal text-slate-500">· {order.storeName}</span>
          </h3>
          <p className="text-xs text-slate-500">
            {new Date(order.orderedAt).toLocaleString()}
            {order.fulfillmentProvider && <> · Printed by {printerLabel(order.fulfillmentProvider)}</>}
          </p>
          {order.printerReason && (
            <p className="text-xs text-slate-500" data-testid="order-printer-reason">
              Why this printer: {order.printerReason}
            </p>
          )}
        </div>
        <span
          className={cn('rounded-full px-2.5 py-0.5 text-xs font-medium', STATUS_STYLES[order.status])}
          data-testid="order-status"
        >
          {ORDER_STATUS_LABELS[order.status]}
        </span>
      </div>

      <ul className="space-y-2">
        {order.lines.map((line) => (
          <li key={line.id} className="flex items-center gap-3">
            {line.mockupUrl ? (
              <img src={line.mockupUrl} alt={line.title} className="h-14 w-14 rounded-md border object-cover" />
            ) : (
              <div className="flex h-14 w-14 items-center justify-center rounded-md border bg-slate-50 text-slate-400">
                <ImageOff aria-hidden />
              </div>
            )}
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">{line.title}</p>
              <p className="text-xs text-slate-500">
                {line.quantity} × {money(line.price)}
                {line.sku && <> · {line.sku}</>}
                {!line.fromPodforge && <span className="ml-2 rounded bg-slate-100 px-1.5">Not from Podforge</span>}
              </p>
            </div>
          </li>
        ))}
      </ul>

      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-slate-500">Revenue</dt>
          <dd className="font-medium">{money(order.revenue)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Printer cost</dt>
          <dd className="font-medium">
            {order.cost === null ? '—' : formatMoney(order.cost, order.costCurrency ?? order.currency)}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Store fee</dt>
          <dd className="font-medium">{money(order.storeFee)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Profit</dt>
          <dd className="font-medium">
            {order.profit !== null
              ? money(order.profit)
              : order.cost !== null
                ? `— (cost in ${order.costCurrency}, sale in ${order.currency})`
                : '—'}
          </dd>
        </div>
      </dl>

      {order.failureReason && (
        <p role="alert" className="rounded-md bg-red-50 p-2 text-sm text-red-700">
          {order.failureReason}
        </p>
      )}
      {order.status === 'waiting_approval' && (
        <p className="text-sm text-amber-700">
          {order.confirmAt
            ? `Sent to the printer by itself at ${new Date(order.confirmAt).toLocaleString()} unless you cancel it. Nothing is charged until then.`
            : 'Waiting for your approval. Nothing is charged until you approve.'}
        </p>
      )}
      {order.addressErased && order.status !== 'external' && (
        <p className="text-xs text-slate-500">The shipping address was erased at the store’s request.</p>
      )}

      <div className="flex flex-wrap items-center gap-2">
        {canApproveOrder(order.status) && (
          <Button size="sm" disabled={busy} onClick={() => onAction('approve')}>
            Approve
          </Button>
        )}
        {canRetryOrder(order.status) && (
          <Button size="sm" disabled={busy} onClick={() => onAction('retry')}>
            Retry
          </Button>
        )}
        {canCancelOrder(order.status) && (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => onAction('cancel')}>
            Cancel order
          </Button>
        )}
      </div>

      {order.shipments.length > 0 && <Parcels shipments={order.shipments} />}
    </Card>
  );
}

/**
 * Each parcel the printer shipped: where it is (delivered or in transit, as the printer says), carrier and tracking
 * number (linked when it has a page), its lines, the store.
 */
function Parcels({ shipments }: { shipments: TOrderShipment[] }) {
  return (
    <section aria-label="Parcels" className="space-y-2">
      <h4 className="text-sm font-medium">{shipments.length === 1 ? 'Parcel' : `${shipments.length} parcels`}</h4>
      <ul className="space-y-2">
        {shipments.map((s, n) => {
          const label = [s.carrier, s.trackingNumber].filter(Boolean).join(' ') || 'No tracking number';
          const where = s.delivered ? 'delivered' : 'in transit';
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: parcels carry no id of their own here
              key={n}
              className="min-w-0 rounded-md border p-2 text-sm"
              data-testid="order-shipment"
            >
              <p className="mb-1 text-xs font-medium text-slate-700" data-testid="order-shipment-delivery">
                {shipments.length > 1 && `Parcel ${n + 1} of ${shipments.length} — `}
                <span className={cn('rounded-full px-2 py-0.5', STATUS_STYLES[s.delivered ? 'delivered' : 'shipped'])}>
                  {shipments.length > 1 ? where : s.delivered ? 'Delivered' : 'In transit'}
                </span>
              </p>
              <div className="flex flex-wrap items-center justify-between gap-2">
                {s.trackingUrl ? (
                  <a
                    href={s.trackingUrl}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex min-w-0 items-center gap-1 break-all text-brand-600 hover:underline"
                  >
                    Track {label}
                    <ExternalLink className="size-3.5 shrink-0" aria-hidden />
                  </a>
                ) : (
                  <span className="min-w-0 break-all">{label}</span>
                )}
                <span
                  className={cn(
                    'rounded-full px-2 py-0.5 text-xs',
                    s.sentToStore ? 'bg-green-50 text-green-700' : 'bg-amber-50 text-amber-700',
                  )}
                >
                  {s.sentToStore ? 'Sent to the store' : 'Tracking not sent to the store'}
                </span>
              </div>
              <p className="mt-1 break-words text-xs text-slate-500">
                {s.lines
                  ? s.lines.map((l) => `${l.quantity} × ${l.title}`).join(', ')
                  : 'The printer does not say which items it holds'}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
