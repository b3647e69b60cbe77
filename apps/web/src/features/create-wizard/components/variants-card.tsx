import type { TCatalogProductDetail } from '@podforge/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { CatalogVariantMatrix } from '@/components/pricing/catalog-variant-matrix';
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
        <CatalogVariantMatrix
          catalog={catalog}
          enabledIds={state.pricing.variants.map((v) => v.catalogVariantId)}
          onChange={(ids, product) =>
            update((s) => ({
              pricing: {
                catalogProductId: product.id,
                variants: choicesFor(ids, s.pricing.variants, product.variants, price),
              },
            }))
          }
        />
      </CardContent>
    </Card>
  );
}
