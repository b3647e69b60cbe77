import { Card } from '@/components/ui/card';
import { useEtsySandbox } from '../api/stores';
import {
  SandboxLoadState,
  SandboxPageHeader,
  SandboxProductTitle,
  SandboxStore,
  SandboxVariantTable,
} from './sandbox-page';
import { TestOrderForm } from './test-order-form';

/**
 * `/integrations/etsy-sandbox`: the listings this workspace pushed to the Etsy sandbox shop, as a buyer sees them,
 * and 'Place a test order' for what its active listings sell.
 */
export function EtsySandboxScreen() {
  const { data, isPending, isError } = useEtsySandbox();
  return (
    <div className="space-y-6">
      <SandboxPageHeader title="Etsy Sandbox">
        Listings pushed to your sandbox shop, as a buyer would see them. The sandbox is a local practice shop; nothing
        here is on Etsy.
      </SandboxPageHeader>
      {isPending || isError ? (
        <SandboxLoadState isPending={isPending} what="the sandbox shop" />
      ) : !data.sandbox ? (
        <p className="text-sm text-slate-600">This server is connected to Etsy itself; there is no sandbox.</p>
      ) : data.shops.length === 0 ? (
        <p className="text-sm text-slate-600">No sandbox shop is connected. Connect Etsy on the Integrations page.</p>
      ) : (
        data.shops.map((shop) => (
          <SandboxStore
            key={shop.integrationId}
            name={shop.name}
            empty={shop.listings.length === 0}
            noun="shop"
            order={
              <TestOrderForm
                integrationId={shop.integrationId}
                storeName={shop.name}
                platform="etsy"
                variants={shop.listings
                  .filter((listing) => listing.state === 'active')
                  .flatMap((listing) =>
                    listing.inventory.products
                      .filter((p) => p.sku)
                      .map((p) => ({
                        sku: p.sku,
                        label: `${listing.title} - ${p.property_values.map((v) => v.values.join(' ')).join(' / ')} (${p.offerings[0]?.price ?? '-'})`,
                      })),
                  )}
              />
            }
          >
            {shop.listings.map((listing) => {
              const colors = [
                ...new Set(
                  listing.inventory.products.flatMap((p) =>
                    p.property_values.filter((v) => v.property_name === 'Color').map((v) => v.values[0] ?? ''),
                  ),
                ),
              ];
              return (
                <li key={listing.listing_id} id={String(listing.listing_id)}>
                  <Card className="space-y-3 p-4" data-testid="etsy-sandbox-listing">
                    <SandboxProductTitle title={listing.title} state={listing.state} />
                    <p className="text-sm text-slate-700">From ${listing.price}</p>
                    {listing.images.length > 0 && (
                      <div className="flex gap-2 overflow-x-auto">
                        {listing.images.map((image) => {
                          const color = listing.variation_images.find((v) => v.image_id === image.listing_image_id);
                          return (
                            <figure key={image.listing_image_id} className="w-24 shrink-0">
                              <img
                                src={image.url_fullxfull}
                                alt={`${listing.title}${color ? `, ${color.value}` : `, view ${image.rank}`}`}
                                className="h-28 w-24 rounded border border-slate-200 object-cover"
                              />
                              <figcaption className="text-center text-xs text-slate-500">
                                {color?.value ?? `Picture ${image.rank}`}
                              </figcaption>
                            </figure>
                          );
                        })}
                      </div>
                    )}
                    {colors.length > 0 && <p className="text-xs text-slate-600">Colours: {colors.join(', ')}</p>}
                    {listing.tags.length > 0 && (
                      <p className="text-xs text-slate-600">Tags: {listing.tags.join(', ')}</p>
                    )}
                    <SandboxVariantTable columns={['Variation', 'Price', 'SKU']}>
                      {listing.inventory.products.map((p) => (
                        <tr key={p.sku} data-testid="etsy-sandbox-variation">
                          <td>{p.property_values.map((v) => v.values.join(' ')).join(' / ')}</td>
                          <td>{p.offerings[0]?.price ?? '-'}</td>
                          <td>{p.sku || '-'}</td>
                        </tr>
                      ))}
                    </SandboxVariantTable>
                  </Card>
                </li>
              );
            })}
          </SandboxStore>
        ))
      )}
    </div>
  );
}
