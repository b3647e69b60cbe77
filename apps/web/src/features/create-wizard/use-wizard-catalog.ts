import { platformLabel } from '@podforge/contract/plain';
import { useEffect } from 'react';
import { useCatalogProduct } from '@/api/catalog/get-catalog-product';
import { FALLBACK_SETTINGS, useWorkspaceSettings } from '@/api/settings/get-settings';
import { catalogColors, defaultChoices, storeFeeFor, suggestedPrice } from '@/lib/variant-pricing';
import type { WizardUpdate } from './use-wizard-state';
import { type WizardState, wizardPrinter } from './wizard-state';

/**
 * The template's catalogue product (its variants and placements) and the workspace's pricing settings, for the
 * steps that need them. The first time a catalogue product is seen, its default variants are enabled: its first
 * colour in every size at the target margin's price.
 */
export function useWizardCatalog(state: WizardState, update: WizardUpdate, enabled: boolean) {
  const { provider, productId } = wizardPrinter(state);
  const catalog = useCatalogProduct(enabled ? productId : null, provider);
  const settingsQuery = useWorkspaceSettings(enabled && productId !== null);
  const settings = settingsQuery.data ?? FALLBACK_SETTINGS;
  const fee = storeFeeFor(settings, state.platform);
  const price = (baseCost: number) => suggestedPrice(baseCost, settings, fee);

  const detail = catalog.data;
  const settingsKnown = !settingsQuery.isPending;
  const due = detail !== undefined && settingsKnown && state.pricing.catalogProductId !== detail.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when defaults become due; price reads settings.
  useEffect(() => {
    if (!due || !detail) return;
    update((s) =>
      wizardPrinter(s).productId === detail.id && s.pricing.catalogProductId !== detail.id
        ? { pricing: { catalogProductId: detail.id, variants: defaultChoices(detail.variants, price) } }
        : {},
    );
  }, [due, detail, update]);

  const enabledIds = new Set(state.pricing.variants.map((v) => v.catalogVariantId));
  const enabledColors = detail ? catalogColors(detail.variants.filter((v) => enabledIds.has(v.id))) : [];
  return {
    catalog,
    settings,
    settingsError: settingsQuery.isError ? settingsQuery.error : null,
    fee,
    feeLabel: platformLabel(state.platform ?? 'shopify'),
    price,
    enabledColors,
  };
}
