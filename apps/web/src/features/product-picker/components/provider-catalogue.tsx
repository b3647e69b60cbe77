import type { TFulfilmentNetwork } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { useState } from 'react';
import { useProviderProduct, useProviderProducts } from '@/api/printers/get-provider-products';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';

const SOURCE_LABELS: Record<string, string> = {
  printify: 'Your Printify shop’s catalogue',
  'printify-sandbox': 'Printify catalogue of the built-in Printify Sandbox',
};

/** One product's details: its variants (colour, size, base cost) and where it prints (pixel size and DPI). */
function ProductDetails({ provider, id }: { provider: TFulfilmentNetwork; id: string }) {
  const { data, isPending, isError, error } = useProviderProduct(provider, id);
  if (isPending) return <Skeleton className="h-24" />;
  if (isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        {error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Could not load the product.'}
      </p>
    );
  }
  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-600">
        {data.brand} {data.model} · {data.variants.length} variants
      </p>
      <table className="w-full text-left">
        <thead>
          <tr className="text-slate-500">
            <th className="font-medium">Colour</th>
            <th className="font-medium">Size</th>
            <th className="font-medium">Base cost</th>
          </tr>
        </thead>
        <tbody>
          {data.variants.map((v) => (
            <tr key={v.id} data-testid="provider-variant">
              <td>
                {v.colorHex && (
                  <span
                    className="mr-1 inline-block h-3 w-3 rounded-full border border-slate-300 align-middle"
                    style={{ backgroundColor: v.colorHex }}
                    aria-hidden="true"
                  />
                )}
                {v.color}
              </td>
              <td>{v.size}</td>
              <td>
                {v.baseCost} {data.currency}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-slate-600">
        Prints at:{' '}
        {data.placements.map((p) => `${p.placement} ${p.widthPx}×${p.heightPx} px at ${p.dpi} DPI`).join(', ')}
      </p>
    </div>
  );
}

/** Another printer's catalogue in the picker: search, the products, each one's variants and placements. */
export function ProviderCatalogue({ provider, search }: { provider: TFulfilmentNetwork; search: string }) {
  const { data, isPending, isError, error } = useProviderProducts(provider, search, true);
  const [open, setOpen] = useState<string | null>(null);
  if (isPending) return <Skeleton className="h-40" aria-label="Loading products" />;
  if (isError) {
    return (
      <Card className="p-10 text-center" role="alert">
        <p className="font-medium">Could not load products.</p>
        <p className="text-sm text-slate-500">
          {error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.'}
        </p>
      </Card>
    );
  }
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-500" data-testid="provider-catalog-source">
        {SOURCE_LABELS[data.source] ?? `${platformLabel(provider)} catalogue`}
      </p>
      {data.products.length === 0 ? (
        <Card className="p-10 text-center">
          <p className="font-medium">No products found.</p>
          <p className="text-sm text-slate-500">Try adjusting your search.</p>
        </Card>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {data.products.map((p) => (
            <li key={p.id}>
              <Card className="space-y-2 p-4" data-testid="provider-product">
                <h3 className="font-semibold">{p.name}</h3>
                <p className="text-sm text-slate-500">{p.description}</p>
                <Button variant="outline" size="sm" onClick={() => setOpen(open === p.id ? null : p.id)}>
                  {open === p.id ? 'Hide details' : 'Variants and print areas'}
                </Button>
                {open === p.id && <ProductDetails provider={provider} id={p.id} />}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
