import { Card } from '@/components/ui/card';
import { useSandboxProducts } from '../api/shopify';
import { SandboxLoadState, SandboxPageHeader, SandboxStore, SandboxVariantTable } from './sandbox-page';
import { TestOrderForm } from './test-order-form';

/** `/integrations/shopify-sandbox`: what this workspace pushed to the built-in Shopify sandbox. */
export function ShopifySandboxScreen() {
  const { data, isPending, isError } = useSandboxProducts();

  return (
    <div className="space-y-6">
      <SandboxPageHeader title="Shopify Sandbox">
        Products pushed to your sandbox store, as a buyer would see them. The sandbox is a local practice shop; nothing
        here is on a real store.
      </SandboxPageHeader>
      {isPending || isError ? (
        <SandboxLoadState isPending={isPending} what="the sandbox store" />
      ) : !data.sandbox ? (
        <p className="text-sm text-slate-600">This server is connected to real Shopify stores; there is no sandbox.</p>
      ) : data.stores.length === 0 ? (
        <p className="text-sm text-slate-600">No sandbox store is connected. Connect one on the Integrations page.</p>
      ) : (
        data.stores.map((store) => (
          <SandboxStore
            key={store.integrationId}
            name={store.name}
            heading={
              <>
                {store.name} <span className="text-sm font-normal text-slate-500">{store.shop}</span>
              </>
            }
            empty={store.products.length === 0}
            listClassName="grid gap-3 md:grid-cols-2"
            order={
              <TestOrderForm
                integrationId={store.integrationId}
                storeName={store.name}
                platform="shopify"
                variants={store.products.flatMap((p) =>
                  p.variants
                    .filter((v) => v.sku)
                    .map((v) => ({ sku: v.sku as string, label: `${p.title} - ${v.title} (${v.price})` })),
                )}
              />
            }
          >
            {store.products.map((product) => (
              <li key={product.id} id={product.id}>
                <Card className="space-y-3 p-4" data-testid="sandbox-product">
                  <div className="flex gap-3">
                    {product.imageUrls[0] ? (
                      <img
                        src={product.imageUrls[0]}
                        alt={`${product.title}, main`}
                        className="h-24 w-20 shrink-0 rounded-md border object-cover"
                      />
                    ) : (
                      <div className="flex h-24 w-20 shrink-0 items-center justify-center rounded-md border bg-slate-50 text-xs text-slate-400">
                        No picture
                      </div>
                    )}
                    <div className="min-w-0 flex-1 space-y-1">
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <h3 className="font-semibold">{product.title}</h3>
                        <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                          {product.status}
                        </span>
                      </div>
                      <p
                        className={
                          product.onlineStore
                            ? 'text-sm font-medium text-green-700'
                            : 'text-sm font-medium text-amber-700'
                        }
                        data-testid="online-store"
                      >
                        {product.onlineStore
                          ? 'On the Online Store: buyers can see it'
                          : 'Not on the Online Store: buyers cannot see it'}
                      </p>
                      <p className="text-xs text-slate-500">
                        {product.productType} · handle {product.handle} · {product.images} picture
                        {product.images === 1 ? '' : 's'}
                        {product.options.length > 0 && <> · options {product.options.join(', ')}</>}
                      </p>
                      {product.tags.length > 0 && <p className="text-xs text-slate-600">{product.tags.join(', ')}</p>}
                    </div>
                  </div>
                  {product.failedImages.map((f) => (
                    <p key={f.alt} role="alert" className="rounded-md bg-red-50 px-2 py-1 text-xs text-red-700">
                      Picture "{f.alt}" failed: {f.message}
                    </p>
                  ))}
                  <SandboxVariantTable columns={['Picture', 'Variant', 'Price', 'SKU', 'Availability']}>
                    {product.variants.map((v) => (
                      <tr key={`${v.title}-${v.sku ?? ''}`} data-testid="sandbox-variant">
                        <td>
                          {v.image ? (
                            <img src={v.image} alt={v.title} className="h-10 w-8 rounded object-cover" />
                          ) : (
                            <span className="text-xs text-slate-400">none</span>
                          )}
                        </td>
                        <td>{v.title}</td>
                        <td>{v.price}</td>
                        <td>{v.sku ?? '-'}</td>
                        <td className={v.availableForSale ? 'text-green-700' : 'text-red-700'}>
                          {v.availableForSale ? 'Available' : 'Sold out'}
                        </td>
                      </tr>
                    ))}
                  </SandboxVariantTable>
                </Card>
              </li>
            ))}
          </SandboxStore>
        ))
      )}
    </div>
  );
}
