import type { TCatalogProductDetail } from '@podforge/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { VariantMatrix } from '@/components/pricing/variant-matrix';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { choicesFor } from '@/lib/variant-pricing';
import type { WizardUpdate } from '../use-wizard-state';
import type { WizardState } from '../wizard-state';

type Props = {
  state: WizardState;
  update: WizardUpdate;
  catalog: UseQueryResult<TCatalogProductDetail>;
  /** The price a newly enabled variant starts at. */
  price: (baseCost: number) => number;
  hint?: string;
};

/** The template's catalogue colours x sizes the product offers (the wizard's Mockups and Pricing steps). */
export function VariantsCard({ state, update, catalog, price, hint }: Props) {
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h3" className="text-base">
          Colours and sizes
        </CardTitle>
        {catalog.data && (
          <p className="text-sm text-slate-500">
            {catalog.data.name}
            {hint ? ` · ${hint}` : ''}
          </p>
        )}
      </CardHeader>
      <CardContent>
        {catalog.isPending ? (
          <Loader2 className="h-5 w-5 animate-spin text-slate-400" aria-label="Loading the catalogue product" />
        ) : catalog.isError ? (
          <div className="space-y-2" role="alert">
            <p className="text-sm text-red-600">
              The catalogue product's colours and sizes could not be loaded: {catalog.error.message}
            </p>
            <Button variant="outline" onClick={() => catalog.refetch()}>
              Retry
            </Button>
          </div>
        ) : (
          <VariantMatrix
            variants={catalog.data.variants}
            enabledIds={state.pricing.variants.map((v) => v.catalogVariantId)}
            onChange={(ids) =>
              update((s) => ({
                pricing: {
                  catalogProductId: catalog.data.id,
                  variants: choicesFor(ids, s.pricing.variants, catalog.data.variants, price),
                },
              }))
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
