import { Card } from '@/components/ui/card';
import { useWooSandbox } from '../api/stores';
import { SandboxLoadState, SandboxPageHeader } from './sandbox-page';
import { TestOrderForm } from './test-order-form';

/** `/integrations/woocommerce-sandbox`: the products this workspace pushed to its WooCommerce sandbox store. */
export function WooCommerceSandboxScreen() {
  const { data, isPending, isError } = useWooSandbox();
  return (
    <div className="space-y-6">
      <SandboxPageHeader title="WooCommerce Sandbox">
        Products pushed to your sandbox store, as a buyer would see them. The sandbox is a local practice store; nothing
        here is on a real website.
      </SandboxPageHeader>
      {isPending || isError ? (
        <SandboxLoadState isPending={isPending} what="the sandbox store" />
      ) : data.stores.length === 0 ? (
        <p className="text-sm text-slate-600">
          No sandbox store is connected. Choose 'Use the sandbox store' under WooCommerce on the Integrations page.
        </p>
      ) : (
        data.stores.map((store) => (
          <section key={store.integrationId} aria-label={store.name} className="space-y-3">
            <h2 className="text-lg font-semibold">{store.name}</h2>
            {store.products.length === 0 ? (
              <p className="text-sm text-slate-600">Nothing was pushed to this store yet.</p>
            ) : (
              <ul className="grid gap-4 lg:grid-cols-2">
                {store.products.map((product) => (
                  <li key={product.id} id={String(product.id)}>
                    <Card className="space-y-3 p-4" data-testid="woo-sandbox-product">
                      <div className="flex items-start justify-between gap-2">
                        <h3 className="font-semibold">{product.name}</h3>
                        <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs text-green-800">
                          {product.status === 'publish' ? 'published' : product.status}
                        </span>
                      </div>
                      {product.images.length > 0 && (
                        <div className="flex gap-2 overflow-x-auto">
                          {product.images.map((image, i) => (
                            <img
                              key={image.id}
                              src={image.src}
                              alt={`${product.name}, view ${i + 1}`}
                              className="h-28 w-24 shrink-0 rounded border border-slate-200 object-cover"
                            />
                          ))}
                        </div>
                      )}
                      {product.attributes.map((a) => (
                        <p key={a.name} className="text-xs text-slate-600">
                          {a.name}: {a.options.join(', ')}
                        </p>
                      ))}
                      <table className="w-full text-left text-sm">
                        <thead>
                          <tr className="text-slate-500">
                            <th className="font-medium">Variation</th>
                            <th className="font-medium">Price</th>
                            <th className="font-medium">SKU</th>
                          </tr>
                        </thead>
                        <tbody>
                          {product.variations.map((v) => (
                            <tr key={v.id} data-testid="woo-sandbox-variation">
                              <td>{v.attributes.map((a) => a.option).join(' / ')}</td>
                              <td>{v.regular_price}</td>
                              <td>{v.sku || '-'}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </Card>
                  </li>
                ))}
              </ul>
            )}
            <TestOrderForm
              integrationId={store.integrationId}
              storeName={store.name}
              platform="woocommerce"
              variants={store.products.flatMap((p) =>
                p.variations
                  .filter((v) => v.sku)
                  .map((v) => ({
                    sku: v.sku,
                    label: `${p.name} - ${v.attributes.map((a) => a.option).join(' / ')} (${v.regular_price})`,
                  })),
              )}
            />
          </section>
        ))
      )}
    </div>
  );
}
