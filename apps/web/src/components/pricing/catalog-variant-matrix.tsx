import type { TCatalogProductDetail } from '@podforge/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { VariantMatrix } from './variant-matrix';

/**
 * A catalogue product's colours x sizes while it loads, fails (with Retry) or is there: the wizard's Colours and
 * sizes card and Edit Product's. `named` shows the product's name above the matrix.
 */
export function CatalogVariantMatrix({
  catalog,
  enabledIds,
  onChange,
  named = false,
}: {
  catalog: UseQueryResult<TCatalogProductDetail>;
  enabledIds: readonly number[];
  onChange: (enabledIds: number[], product: TCatalogProductDetail) => void;
  named?: boolean;
}) {
  if (catalog.isPending)
    return <Loader2 className="h-5 w-5 animate-spin text-slate-400" aria-label="Loading the catalogue product" />;
  if (catalog.isError)
    return (
      <div className="space-y-2" role="alert">
        <p className="text-sm text-red-600">
          The catalogue product's colours and sizes could not be loaded: {catalog.error.message}
        </p>
        <Button variant="outline" onClick={() => catalog.refetch()}>
          Retry
        </Button>
      </div>
    );
  const product = catalog.data;
  return (
    <>
      {named && <p className="text-sm text-slate-500">{product.name}</p>}
      <VariantMatrix variants={product.variants} enabledIds={enabledIds} onChange={(ids) => onChange(ids, product)} />
    </>
  );
}
