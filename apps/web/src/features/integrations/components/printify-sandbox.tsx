import { Card } from '@/components/ui/card';
import { usePrintifySandboxOrders } from '../api/printify';
import { SandboxLoadState, SandboxPageHeader } from './sandbox-page';

/** `/integrations/printify-sandbox`: the orders the built-in Printify Sandbox received for this workspace. */
export function PrintifySandboxScreen() {
  const { data, isPending, isError } = usePrintifySandboxOrders();
  return (
    <div className="space-y-6">
      <SandboxPageHeader title="Printify Sandbox">
        Orders of your Printify products that went to the built-in Printify Sandbox, in Printify's own words. Nothing is
        printed or charged; a test parcel ships with tracking.
      </SandboxPageHeader>
      {isPending || isError ? (
        <SandboxLoadState isPending={isPending} what="the Printify Sandbox" />
      ) : data.orders.length === 0 ? (
        <p className="text-sm text-slate-600">
          The sandbox has received no order yet. Orders of Printify products arrive here when you chose 'Use the
          Printify Sandbox' under Printify on the Integrations page.
        </p>
      ) : (
        <ul className="space-y-3">
          {[...data.orders].reverse().map((order) => (
            <li key={order.id}>
              <Card className="space-y-2 p-4" data-testid="printify-sandbox-order">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-mono text-sm font-semibold">{order.id}</h2>
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{order.status}</span>
                </div>
                <p className="text-xs text-slate-500">Our order: {order.externalId}</p>
                <ul className="text-sm text-slate-700">
                  {order.lines.map((l) => (
                    <li key={`${l.variantId}-${l.quantity}`}>
                      {l.quantity} × variant {l.variantId} (blueprint {l.blueprintId ?? '-'}, print provider{' '}
                      {l.printProviderId})
                    </li>
                  ))}
                </ul>
                {order.shipments.map((s) => (
                  <p key={s.trackingNumber} className="text-sm">
                    Shipped with {s.carrier.toUpperCase()}:{' '}
                    <a href={s.trackingUrl} className="text-brand-600 hover:underline" target="_blank" rel="noreferrer">
                      {s.trackingNumber}
                    </a>
                    {s.deliveredAt ? ' · delivered' : ''}
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
