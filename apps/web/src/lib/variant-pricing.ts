import type { TCatalogProductDetail, TStoreFee, TVariantChoice, TWorkspaceSettings } from '@podforge/contract';
import { priceForMargin, priceProblem, variantLabel } from '@podforge/contract/plain';

/** Catalogue variants as the matrix and pricing editor use them. */
export type CatalogVariant = TCatalogProductDetail['variants'][number];
export type CatalogColor = { name: string; hex: string };

/** The catalogue product's colours, in catalogue order, each once. */
export function catalogColors(variants: readonly CatalogVariant[]): CatalogColor[] {
  const seen = new Map<string, CatalogColor>();
  for (const v of variants) if (!seen.has(v.color)) seen.set(v.color, { name: v.color, hex: v.colorHex });
  return [...seen.values()];
}

/** The catalogue product's sizes, in catalogue order, each once. */
export function catalogSizes(variants: readonly CatalogVariant[]): string[] {
  return [...new Set(variants.map((v) => v.size))];
}

/** The store fee a platform's sale pays, from the workspace settings (Shopify's for an unknown platform). */
export function storeFeeFor(settings: TWorkspaceSettings, platform: string | null | undefined): TStoreFee {
  const fees = settings.storeFees as Record<string, TStoreFee>;
  return fees[platform ?? 'shopify'] ?? settings.storeFees.shopify;
}

/** The price a newly enabled variant starts at: the workspace's target margin after the store fee, ending in .99. */
export function suggestedPrice(baseCost: number, settings: TWorkspaceSettings, fee: TStoreFee): number {
  try {
    return priceForMargin(baseCost, settings.targetMargin, fee);
  } catch {
    // A margin and fee that leave nothing: fall back to the base cost, which the editor then flags.
    return baseCost;
  }
}

/**
 * The variants a catalogue product starts with: its first colour in every size, at the suggested price (few enough
 * to render a mockup of and price at a glance; the seller enables more in the matrix).
 */
export function defaultChoices(variants: readonly CatalogVariant[], price: (baseCost: number) => number) {
  const first = variants[0]?.color;
  return variants.filter((v) => v.color === first).map((v) => ({ catalogVariantId: v.id, price: price(v.baseCost) }));
}

/**
 * The priced choices for a new set of enabled variants: those enabled before keep their price, new ones get the
 * suggested one; catalogue order.
 */
export function choicesFor(
  enabledIds: readonly number[],
  previous: readonly TVariantChoice[],
  variants: readonly CatalogVariant[],
  price: (baseCost: number) => number,
): TVariantChoice[] {
  const prices = new Map(previous.map((c) => [c.catalogVariantId, c.price]));
  const enabled = new Set(enabledIds);
  return variants
    .filter((v) => enabled.has(v.id))
    .map((v) => ({ catalogVariantId: v.id, price: prices.get(v.id) ?? price(v.baseCost) }));
}

/** The first price the server would refuse, as a sentence naming the variant; null when every price is fine. */
export function firstPriceProblem(rows: readonly { label: string; price: number; baseCost: number | null }[]) {
  for (const row of rows) {
    const problem = priceProblem(row.price, row.baseCost);
    if (problem) return `${row.label}: price ${problem}.`;
  }
  return null;
}

export const catalogVariantLabel = (v: CatalogVariant) => variantLabel(v.color, v.size);

/** Money with 2 decimals and a dollar sign ('-$1.50'). */
export const money = (n: number) => `${n < 0 ? '-' : ''}$${Math.abs(n).toFixed(2)}`;

/** A typed price: a number of at most 2 decimals, 0 when it is not one (spec section 5). */
export function parsePriceText(text: string): number {
  const value = Number.parseFloat(text);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) / 100 : 0;
}
