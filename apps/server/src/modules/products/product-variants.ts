import {
  priceProblem,
  sizeFromOption,
  skuFor,
  type TCatalogProductDetail,
  type TVariant,
  type TVariantChoice,
  variantLabel,
} from '@podforge/contract';
import { badRequest } from '../../lib/errors';
import type { NewVariant } from './products.repository';

/**
 * The rules that turn what a seller (or an older client) sends into a product's variants: catalogue colour x size
 * variants with their base cost, a deterministic SKU, and a price that cannot lose money by accident.
 */

type CatalogVariant = TCatalogProductDetail['variants'][number];

const money = (n: number) => n.toFixed(2);

const hexToRgb = (hex: string) => {
  const n = Number.parseInt(hex.replace('#', '').slice(0, 6), 16);
  return Number.isFinite(n) ? [(n >> 16) & 255, (n >> 8) & 255, n & 255] : [0, 0, 0];
};

/**
 * The catalogue colour a mockup shows: the same name, else a name that contains the other ('Forest Green' and
 * 'Forest'), else the nearest hex (only when close: another colour is not this one).
 */
export function matchCatalogColour(
  mockupColour: { name: string; hex: string },
  catalogColours: { name: string; hex: string }[],
): string | null {
  const name = mockupColour.name.trim().toLowerCase();
  const exact = catalogColours.find((c) => c.name.toLowerCase() === name);
  if (exact) return exact.name;
  const partial = catalogColours.find((c) => {
    const other = c.name.toLowerCase();
    return other.includes(name) || name.includes(other);
  });
  if (partial) return partial.name;
  const [r, g, b] = hexToRgb(mockupColour.hex);
  let best: { name: string; d: number } | null = null;
  for (const c of catalogColours) {
    const [r2, g2, b2] = hexToRgb(c.hex);
    const d = Math.hypot((r ?? 0) - (r2 ?? 0), (g ?? 0) - (g2 ?? 0), (b ?? 0) - (b2 ?? 0));
    if (!best || d < best.d) best = { name: c.name, d };
  }
  return best && best.d <= 60 ? best.name : null;
}

export function catalogColours(detail: TCatalogProductDetail): { name: string; hex: string }[] {
  const seen = new Map<string, string>();
  for (const v of detail.variants) if (!seen.has(v.color)) seen.set(v.color, v.colorHex);
  return [...seen].map(([name, hex]) => ({ name, hex }));
}

const catalogVariantRow = (productId: string, v: CatalogVariant, price: number): NewVariant => ({
  option: variantLabel(v.color, v.size),
  catalogVariantId: v.id,
  color: v.color,
  colorHex: v.colorHex,
  size: v.size,
  price: money(price),
  sku: skuFor(productId, v.id),
  baseCost: money(v.baseCost),
});

/** 400 naming the variant whose price is 0 or below its base cost. */
export function assertPrices(variants: { option: string; price: string; baseCost?: string | null | undefined }[]) {
  const problems = variants.flatMap((v) => {
    const problem = priceProblem(Number(v.price), v.baseCost == null ? null : Number(v.baseCost));
    return problem ? [`${v.option}: price ${v.price} ${problem}`] : [];
  });
  if (problems.length) throw badRequest(`variants: ${problems.join('; ')}`);
}

/** The seller's catalogue choices: every id must be a variant of this catalogue product, each at most once. */
export function variantsFromChoices(
  productId: string,
  detail: TCatalogProductDetail,
  choices: TVariantChoice[],
): NewVariant[] {
  const byId = new Map(detail.variants.map((v) => [v.id, v]));
  const seen = new Set<number>();
  const rows = choices.map((choice) => {
    const v = byId.get(choice.catalogVariantId);
    if (!v) throw badRequest(`variants: ${choice.catalogVariantId} is not a variant of ${detail.name}`);
    if (seen.has(v.id)) throw badRequest(`variants: ${variantLabel(v.color, v.size)} is listed twice`);
    seen.add(v.id);
    return catalogVariantRow(productId, v, choice.price);
  });
  return sortVariants(detail, rows);
}

/** Catalogue order: colour as the catalogue lists them, then size. */
function sortVariants(detail: TCatalogProductDetail, rows: NewVariant[]): NewVariant[] {
  const order = new Map(detail.variants.map((v, i) => [v.id, i]));
  return [...rows].sort(
    (a, b) => (order.get(a.catalogVariantId ?? 0) ?? 0) - (order.get(b.catalogVariantId ?? 0) ?? 0),
  );
}

/**
 * What an older client sends (the spec's free-text `{ option, price, sku }`, or nothing and one price), made into
 * catalogue variants: the sizes its options name ('Small' is S) in the given colours, each at its option's price.
 * Options that name no size of this product (a mug has no 'Small') are not invented: then every size of the
 * product is offered at the one price, larger sizes adding what they cost more. The colours are those the
 * product's mockups show, else the catalogue's first.
 */
export function variantsFromLegacy(
  productId: string,
  detail: TCatalogProductDetail,
  legacy: TVariant[],
  price: number | undefined,
  colours: string[],
): NewVariant[] {
  const sizes = [...new Set(detail.variants.map((v) => v.size))];
  const chosenColours = colours.length ? colours : detail.variants[0] ? [detail.variants[0].color] : [];
  const priced = new Map<string, number>();
  for (const v of legacy) {
    const size = sizes.find((s) => s.toUpperCase() === sizeFromOption(v.option));
    if (size && !priced.has(size)) priced.set(size, v.price);
  }
  const minCost = Math.min(...detail.variants.map((v) => v.baseCost));
  const base = price && price > 0 ? price : legacy.find((v) => v.price > 0)?.price || 25;
  const rows: NewVariant[] = [];
  for (const v of detail.variants) {
    if (!chosenColours.includes(v.color)) continue;
    if (priced.size > 0) {
      const p = priced.get(v.size);
      if (p !== undefined) rows.push(catalogVariantRow(productId, v, p));
    } else {
      rows.push(catalogVariantRow(productId, v, Math.max(base, 0) + Math.max(v.baseCost - minCost, 0)));
    }
  }
  return rows;
}

/** The spec's free-text variants, for a product with no catalogue product. */
export function freeTextVariants(legacy: TVariant[]): NewVariant[] {
  return legacy.map((v) => ({
    option: v.option,
    catalogVariantId: null,
    color: null,
    colorHex: null,
    size: null,
    price: money(v.price),
    sku: v.sku || null,
    baseCost: null,
  }));
}

/**
 * A new price for every variant from the one price a seller edits: the cheapest variant gets it, the others keep
 * what they cost more to make.
 */
export function repriceFromOne(variants: NewVariant[], price: number): NewVariant[] {
  const costs = variants.map((v) => (v.baseCost == null ? 0 : Number(v.baseCost)));
  const minCost = Math.min(...costs);
  return variants.map((v, i) => ({ ...v, price: money(price + Math.max((costs[i] ?? 0) - minCost, 0)) }));
}
