import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useSandboxProducts } from '../api/shopify';

/** `/integrations/shopify-sandbox`: what this workspace pushed to the built-in Shopify sandbox. */
export function ShopifySandboxScreen() {
  const { data, isPending, isError } = useSandboxProducts();

  return (
    <div className="space-y-6">
      <div>
        <Link to="/integrations" className="text-sm text-brand-600 hover:underline">
          &larr; Back to Integrations
        </Link>
        <h1 className="mt-2 text-2xl font-bold tracking-tight">Shopify Sandbox</h1>
        <p className="text-slate-500">
          Products pushed to your sandbox store. The sandbox is a local practice shop; nothing here is on a real store.
        </p>
      </div>
      {isPending ? (
        <Skeleton className="h-32" />
      ) : isError ? (
        <p role="alert" className="text-sm text-red-600">
          Could not read the sandbox store. Please try again.
        </p>
      ) : !data.sandbox ? (
        <p className="text-sm text-slate-600">This server is connected to real Shopify stores; there is no sandbox.</p>
      ) : data.stores.length === 0 ? (
        <p className="text-sm text-slate-600">No sandbox store is connected. Connect one on the Integrations page.</p>
      ) : (
        data.stores.map((store) => (
          <section key={store.integrationId} aria-label={store.name} className="space-y-3">
            <h2 className="text-lg font-semibold">
              {store.name} <span className="text-sm font-normal text-slate-500">{store.shop}</span>
            </h2>
            {store.products.length === 0 ? (
              <p className="text-sm text-slate-600">Nothing was pushed to this store yet.</p>
            ) : (
              <ul className="grid gap-3 md:grid-cols-2">
                {store.products.map((product) => (
                  <li key={product.id} id={product.id}>
                    <Card className="space-y-2 p-4" data-testid="sandbox-product">
                      <div className="flex items-center justify-between gap-2">
                        <h3 className="font-semibold">{product.title}</h3>
                        <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs text-green-800">
                          {product.status}
                        </span>
                      </div>
                      <p className="text-xs text-slate-500">
                        {product.productType} · handle {product.handle} · {product.images} image
                        {product.images === 1 ? '' : 's'}
                      </p>
                      {product.tags.length > 0 && <p className="text-xs text-slate-600">{product.tags.join(', ')}</p>}
                      <table className="w-full text-left text-sm">
                        <thead>
                          <tr className="text-slate-500">
                            <th className="font-medium">Variant</th>
                            <th className="font-medium">Price</th>
                            <th className="font-medium">SKU</th>
                          </tr>
                        </thead>
                        <tbody>
                          {product.variants.map((v) => (
                            <tr key={`${v.title}-${v.sku ?? ''}`}>
                              <td>{v.title}</td>
                              <td>{v.price}</td>
                              <td>{v.sku ?? '-'}</td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </Card>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
    </div>
  );
}
