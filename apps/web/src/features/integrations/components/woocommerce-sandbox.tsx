import { Card } from '@/components/ui/card';
import { useWooSandbox } from '../api/stores';
import {
  SandboxLoadState,
  SandboxPageHeader,
  SandboxProductTitle,
  SandboxStore,
  SandboxVariantTable,
} from './sandbox-page';
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
          <SandboxStore
            key={store.integrationId}
            name={store.name}
            empty={store.products.length === 0}
            order={
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
            }
          >
            {store.products.map((product) => (
              <li key={product.id} id={String(product.id)}>
                <Card className="space-y-3 p-4" data-testid="woo-sandbox-product">
                  <SandboxProductTitle
                    title={product.name}
                    state={product.status === 'publish' ? 'published' : product.status}
                  />
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
                  <SandboxVariantTable columns={['Variation', 'Price', 'SKU']}>
                    {product.variations.map((v) => (
                      <tr key={v.id} data-testid="woo-sandbox-variation">
                        <td>{v.attributes.map((a) => a.option).join(' / ')}</td>
                        <td>{v.regular_price}</td>
                        <td>{v.sku || '-'}</td>
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
