import { Card } from '@/components/ui/card';
import { useGelatoSandboxOrders } from '../api/gelato';
import { SandboxLoadState, SandboxPageHeader } from './sandbox-page';

/**
 * `/integrations/gelato-sandbox`: the orders the built-in Gelato sandbox received from this workspace, each Gelato
 * order (a split order shows as its parts, sharing our reference) with its status, cost and parcels.
 */
export function GelatoSandboxScreen() {
  const { data, isPending, isError } = useGelatoSandboxOrders();
  return (
    <div className="space-y-6">
      <SandboxPageHeader title="Gelato Sandbox">
        Orders sent to the built-in Gelato sandbox: a local stand-in for Gelato that prints and charges nothing, but
        moves each confirmed order through production to a parcel with tracking.
      </SandboxPageHeader>
      {isPending || isError ? (
        <SandboxLoadState isPending={isPending} what="the Gelato sandbox" />
      ) : data.orders.length === 0 ? (
        <p className="text-sm text-slate-600">No order has reached the Gelato sandbox yet.</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {data.orders.map((order) => (
            <li key={order.id}>
              <Card className="space-y-2 p-4" data-testid="gelato-sandbox-order">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="break-all font-semibold">Reference {order.externalId}</h2>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{order.status}</span>
                </div>
                <p className="break-all text-xs text-slate-500">Gelato order {order.id}</p>
                {order.connectedOrderIds.length > 0 && (
                  <p className="text-xs text-slate-600">
                    Split by Gelato: {order.connectedOrderIds.length + 1} orders share this reference.
                  </p>
                )}
                <ul className="text-sm text-slate-700">
                  {order.items.map((item) => (
                    <li key={item.productUid} className="break-all">
                      {item.quantity} × {item.productUid}
                    </li>
                  ))}
                </ul>
                {order.cost && (
                  <p className="text-sm">
                    Cost: {order.cost.total} {order.cost.currency}
                  </p>
                )}
                {order.shipments.map((s) => (
                  <p key={s.id} className="text-sm">
                    {s.carrier}:{' '}
                    <a href={s.trackingUrl} className="text-brand-600 hover:underline" target="_blank" rel="noreferrer">
                      {s.trackingNumber}
                    </a>
                  </p>
                ))}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
