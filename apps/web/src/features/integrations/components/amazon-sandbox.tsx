import type { TAmazonSandboxListing } from '@podforge/contract';
import { amazonMarketplace } from '@podforge/contract/plain';
import { Card } from '@/components/ui/card';
import { useAmazonSandbox, useAmazonSandboxOrders } from '../api/stores';
import { SandboxLoadState, SandboxPageHeader } from './sandbox-page';
import { TestOrderForm } from './test-order-form';

type Attrs = TAmazonSandboxListing['attributes'];
const first = (attrs: Attrs, name: string) => attrs[name]?.[0] as Record<string, unknown> | undefined;
const text = (attrs: Attrs, name: string) => {
  const v = first(attrs, name);
  return v ? String(v.value ?? v.size ?? v.name ?? '') : '';
};
const price = (attrs: Attrs) => {
  const offer = first(attrs, 'purchasable_offer') as
    | { currency?: string; our_price?: { schedule?: { value_with_tax?: number }[] }[] }
    | undefined;
  const value = offer?.our_price?.[0]?.schedule?.[0]?.value_with_tax;
  return value === undefined ? '-' : `${value.toFixed(2)} ${offer?.currency ?? ''}`;
};
const availability = (attrs: Attrs) =>
  first(attrs, 'fulfillment_availability') as { quantity?: number; lead_time_to_ship_max_days?: number } | undefined;

function StatusBadge({ listing }: { listing: TAmazonSandboxListing }) {
  const [label, tone] = listing.processing
    ? ['Processing', 'bg-slate-100 text-slate-700']
    : listing.status.includes('BUYABLE')
      ? ['Buyable', 'bg-green-100 text-green-800']
      : listing.status.includes('DISCOVERABLE')
        ? ['Discoverable', 'bg-blue-100 text-blue-800']
        : ['Suppressed', 'bg-red-100 text-red-800'];
  return <span className={`rounded-full px-2 py-0.5 text-xs ${tone}`}>{label}</span>;
}

/**
 * `/integrations/amazon-sandbox`: what this workspace's sandbox sellers hold, as Seller Central shows it (each parent
 * SKU with its children, their status and Amazon's issues), 'Place a test order' for buyable SKUs, and the orders with
 * the shipment Podforge confirmed.
 */
export function AmazonSandboxScreen() {
  const listings = useAmazonSandbox();
  const orders = useAmazonSandboxOrders();
  const data = listings.data;
  return (
    <div className="space-y-6">
      <SandboxPageHeader title="Amazon Sandbox">
        SKUs pushed to your sandbox seller and its orders. Amazon processes an accepted listing a few seconds later; the
        sandbox is a local practice seller, nothing here is on Amazon.
      </SandboxPageHeader>
      {listings.isPending || listings.isError || !data ? (
        <SandboxLoadState isPending={listings.isPending} what="the sandbox seller" />
      ) : !data.sandbox ? (
        <p className="text-sm text-slate-600">This server is connected to Amazon itself; there is no sandbox.</p>
      ) : data.sellers.length === 0 ? (
        <p className="text-sm text-slate-600">
          No sandbox seller is connected. Connect Amazon on the Integrations page.
        </p>
      ) : (
        data.sellers.map((seller) => {
          const parents = seller.listings.filter((l) => l.parentage !== 'child');
          const childrenOf = (sku: string) => seller.listings.filter((l) => l.parentSku === sku);
          const sellerOrders = (orders.data?.orders ?? []).filter((o) => o.integrationId === seller.integrationId);
          return (
            <section key={seller.integrationId} aria-label={seller.name} className="space-y-3">
              <h2 className="text-lg font-semibold">{seller.name}</h2>
              {parents.length === 0 ? (
                <p className="text-sm text-slate-600">Nothing was pushed to this seller yet.</p>
              ) : (
                <ul className="space-y-4">
                  {parents.map((parent) => {
                    const family = parent.parentage === 'parent' ? childrenOf(parent.sku) : [parent];
                    const main = first(parent.attributes, 'main_product_image_locator')?.media_location as
                      | string
                      | undefined;
                    return (
                      <li key={parent.sku} id={parent.sku}>
                        <Card className="space-y-3 p-4" data-testid="amazon-sandbox-listing">
                          <div className="flex flex-wrap items-start justify-between gap-2">
                            <div>
                              <h3 className="font-semibold">{text(parent.attributes, 'item_name')}</h3>
                              <p className="text-xs text-slate-500">
                                {parent.parentage === 'parent' ? 'Parent' : 'SKU'} {parent.sku} · {parent.productType}
                                {' · '}
                                {amazonMarketplace(parent.marketplaceId)?.name ?? parent.marketplaceId} · Brand{' '}
                                {text(parent.attributes, 'brand')}
                                {parent.parentage === 'parent' &&
                                  ` · Variation theme ${text(parent.attributes, 'variation_theme')}`}
                              </p>
                            </div>
                            <StatusBadge listing={parent} />
                          </div>
                          {main && (
                            <img
                              src={main.replace(/^https?:\/\/[^/]+/, '')}
                              alt={text(parent.attributes, 'item_name')}
                              className="h-28 w-24 rounded border border-slate-200 object-cover"
                            />
                          )}
                          <table className="w-full text-left text-sm">
                            <thead>
                              <tr className="text-slate-500">
                                <th className="font-medium">SKU</th>
                                <th className="font-medium">Colour</th>
                                <th className="font-medium">Size</th>
                                <th className="font-medium">Price</th>
                                <th className="font-medium">Stock / handling</th>
                                <th className="font-medium">Status</th>
                              </tr>
                            </thead>
                            <tbody>
                              {family.map((child) => {
                                const a = availability(child.attributes);
                                return (
                                  <tr key={child.sku} data-testid="amazon-sandbox-sku">
                                    <td>{child.sku}</td>
                                    <td>{text(child.attributes, 'color') || '-'}</td>
                                    <td>
                                      {text(child.attributes, 'shirt_size') || text(child.attributes, 'size') || '-'}
                                    </td>
                                    <td>{price(child.attributes)}</td>
                                    <td>
                                      {a ? `${a.quantity ?? 0} / ${a.lead_time_to_ship_max_days ?? '-'} days` : '-'}
                                    </td>
                                    <td>
                                      <StatusBadge listing={child} />
                                    </td>
                                  </tr>
                                );
                              })}
                            </tbody>
                          </table>
                          {[parent, ...family]
                            .flatMap((l) => l.issues.map((i) => ({ sku: l.sku, ...i })))
                            .slice(0, 10)
                            .map((i) => (
                              <p key={`${i.sku}-${i.code}`} role="alert" className="text-sm text-red-700">
                                {i.sku}: {i.message} ({i.code})
                              </p>
                            ))}
                        </Card>
                      </li>
                    );
                  })}
                </ul>
              )}
              <TestOrderForm
                integrationId={seller.integrationId}
                storeName={seller.name}
                platform="amazon"
                variants={seller.listings
                  .filter((l) => l.parentage !== 'parent' && l.status.includes('BUYABLE'))
                  .map((l) => ({
                    sku: l.sku,
                    label: `${text(l.attributes, 'item_name')} - ${[text(l.attributes, 'color'), text(l.attributes, 'shirt_size') || text(l.attributes, 'size')].filter(Boolean).join(' / ')} (${price(l.attributes)})`,
                  }))}
              />
              <h3 className="font-semibold">Orders</h3>
              {sellerOrders.length === 0 ? (
                <p className="text-sm text-slate-600">No orders yet.</p>
              ) : (
                <table className="w-full text-left text-sm" aria-label={`Orders of ${seller.name}`}>
                  <thead>
                    <tr className="text-slate-500">
                      <th className="font-medium">Order</th>
                      <th className="font-medium">Items</th>
                      <th className="font-medium">Status</th>
                      <th className="font-medium">Shipment confirmed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {sellerOrders.map((o) => (
                      <tr key={o.orderId} data-testid="amazon-sandbox-order">
                        <td>{o.orderId}</td>
                        <td>{o.lines.map((l) => `${l.quantity} × ${l.sku}`).join(', ')}</td>
                        <td>{o.status}</td>
                        <td>{o.shipmentConfirmed ? `${o.carrier ?? ''} ${o.tracking ?? ''}`.trim() : 'Not yet'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          );
        })
      )}
    </div>
  );
}
