import { DEFAULT_FULFILMENT_NETWORK } from '@podforge/contract';
import { resolveCategory } from '../catalog/catalog.service';
import type { FulfilmentProvider } from './fulfilment-provider';

/**
 * The same blank at another printer: a product made on one printer's catalogue (the first network's unless the product
 * says otherwise) is matched at another by product type, colour and size, so quotes compare like with like and an
 * order routed elsewhere prints on the same garment. Nothing is guessed: no match is a reason, not a substitute.
 */

/** One variant of ours as a blank: what it is, and its place in its own printer's catalogue. */
export type Blank = {
  productType: string;
  color: string | null;
  size: string | null;
  /** The printer network (family) whose catalogue the ids below belong to. */
  family: string;
  catalogProductId: number | null;
  catalogVariantId: number | null;
};

export type BlankMatch =
  | { ok: true; items: { catalogProductId: number; catalogVariantId: string }[] }
  | { ok: false; reason: string };

/** The catalogue family of a product: its printer's (a `provider` column), else the network products began with. */
export const productFamily = (product: object): string =>
  'provider' in product && typeof product.provider === 'string' && product.provider
    ? product.provider
    : DEFAULT_FULFILMENT_NETWORK;

export const familyOf = (printer: FulfilmentProvider) => printer.network ?? printer.id;

const norm = (s: string | null) => (s ?? '').trim().toLowerCase().replace(/\s+/g, ' ');

/** Listings scanned at most when the printer's catalogue has no category for the type. */
const MAX_SCANNED = 40;

/** Each blank's variant at this printer, in order; or why the printer cannot make them. */
export async function matchBlanks(
  printer: FulfilmentProvider,
  workspaceId: string,
  blanks: Blank[],
): Promise<BlankMatch> {
  const family = familyOf(printer);
  if (blanks.every((b) => b.family === family)) {
    const items = blanks.map((b) =>
      b.catalogProductId === null || b.catalogVariantId === null
        ? null
        : { catalogProductId: b.catalogProductId, catalogVariantId: String(b.catalogVariantId) },
    );
    if (items.some((i) => i === null))
      return { ok: false, reason: 'the product has a variant with no catalogue blank' };
    return { ok: true, items: items as { catalogProductId: number; catalogVariantId: string }[] };
  }
  const missing = blanks.find((b) => !b.color || !b.size);
  if (missing) return { ok: false, reason: 'a variant has no colour and size to match a blank by' };
  let catalogue: Awaited<ReturnType<FulfilmentProvider['catalogue']>>;
  try {
    catalogue = await printer.catalogue(workspaceId);
  } catch (error) {
    return { ok: false, reason: `its catalogue could not be read (${(error as Error).message})` };
  }
  const types = [...new Set(blanks.map((b) => b.productType))];
  const items: { catalogProductId: number; catalogVariantId: string }[] = [];
  const categories = await catalogue.categories();
  const listings = await catalogue.listings();
  for (const type of types) {
    let inCategory: Set<number> | null = null;
    try {
      inCategory = resolveCategory(categories, type);
    } catch {
      inCategory = null;
    }
    const candidates = (inCategory ? listings.filter((l) => inCategory?.has(l.categoryId)) : listings).slice(
      0,
      MAX_SCANNED,
    );
    const wanted = blanks.filter((b) => b.productType === type);
    let found = false;
    for (const listing of candidates) {
      const product = await catalogue.product(listing);
      if (product.type !== type) continue;
      const variants = wanted.map((b) =>
        product.variants.find((v) => norm(v.color) === norm(b.color) && norm(v.size) === norm(b.size)),
      );
      if (variants.every(Boolean)) {
        for (const v of variants) items.push({ catalogProductId: product.id, catalogVariantId: String(v?.id) });
        found = true;
        break;
      }
    }
    if (!found) {
      const what = wanted.map((b) => `${b.color} ${b.size}`).join(', ');
      return { ok: false, reason: `it has no ${type} blank in ${what}` };
    }
  }
  // Back in the blanks' order.
  const byType = new Map<string, { catalogProductId: number; catalogVariantId: string }[]>();
  let n = 0;
  for (const type of types) {
    const count = blanks.filter((b) => b.productType === type).length;
    byType.set(type, items.slice(n, n + count));
    n += count;
  }
  return { ok: true, items: blanks.map((b) => byType.get(b.productType)?.shift() as (typeof items)[number]) };
}
