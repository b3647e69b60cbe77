import {
  AI_PRODUCT_TYPE_LABELS,
  DEFAULT_CATALOG_PRODUCT,
  type TAiProductType,
  type TCatalogProduct,
} from '@podforge/contract';
import type { ListingChoice, ListingFacts } from './provider';

/** Price when the catalogue has no product of the type (the spec's default template price). */
export const FALLBACK_PRICE = 25;

/**
 * Retail over blank cost per product type: what print-on-demand sellers commonly charge (a $7.95 tee at $17.99,
 * a $22.49 hoodie at $40.99, a $5.95 mug at $15.99, a $2.29 sticker at $5.99).
 */
const MARKUP: Record<TAiProductType, number> = {
  tshirt: 2.2,
  hoodie: 1.8,
  mug: 2.6,
  poster: 2.4,
  sticker: 2.2,
  tote: 2.0,
  phone_case: 2.0,
};

/** The next price ending in .99 at or above `amount`: 17.49 -> 17.99, 20.00 -> 20.99. */
export function roundUpTo99(amount: number): number {
  return Math.round((Math.floor(amount) + 0.99) * 100) / 100;
}

export function retailPrice(type: TAiProductType, baseCost: number): number {
  return roundUpTo99(baseCost * MARKUP[type]);
}

export type AudienceKind = 'kids' | 'women' | 'men' | 'general';

/** Which cut of a garment suits an audience, from the simple flow's choices or the full page's free text. */
export function audienceKind(audience: string): AudienceKind {
  const a = audience.toLowerCase();
  if (/\b(kids?|child|children|youth|toddlers?|boys?|girls?)\b/.test(a)) return 'kids';
  if (/\b(women|woman|womens|ladies|lady|her|mom|moms|mother|wife|girlfriend)\b/.test(a)) return 'women';
  if (/\b(men|man|mens|him|dad|dads|father|husband|boyfriend)\b/.test(a)) return 'men';
  return 'general';
}

const cutOf = (product: TCatalogProduct): AudienceKind => {
  if (/^youth\b/i.test(product.name)) return 'kids';
  if (/^women['’]s\b/i.test(product.name)) return 'women';
  if (/^men['’]s\b/i.test(product.name)) return 'men';
  return 'general';
};

const cheapest = (products: TCatalogProduct[]) =>
  products.reduce<TCatalogProduct | null>(
    (best, p) => (best === null || p.basePrice < best.basePrice ? p : best),
    null,
  );

/**
 * The catalogue product a listing is priced on: the cheapest of the type cut for the audience (a youth tee for
 * kids, a women's tee for women), else the cheapest general cut, else the cheapest of the type.
 */
export function chooseProduct(
  catalogue: readonly TCatalogProduct[],
  type: TAiProductType,
  audience: string,
): TCatalogProduct | null {
  const ofType = catalogue.filter((p) => p.type === type);
  const kind = audienceKind(audience);
  return (
    cheapest(ofType.filter((p) => kind !== 'general' && cutOf(p) === kind)) ??
    cheapest(ofType.filter((p) => cutOf(p) === 'general')) ??
    cheapest(ofType)
  );
}

/** How many colours a listing offers: enough to choose from, few enough to keep mockups and stock simple. */
export const MAX_COLOURS = 5;

const SIZE_GROUP_NAME: Record<TAiProductType, string> = {
  tshirt: 'Size',
  hoodie: 'Size',
  mug: 'Size',
  poster: 'Size',
  sticker: 'Size',
  tote: 'Size',
  phone_case: 'Model',
};

/**
 * Option groups of the listing, from the product: its sizes (or phone models) and colours. For a product being
 * made, only what the seller chose, so the text never promises a colour or size the product does not offer; for a
 * listing written apart from any product (the AI Generator page), up to five colours as suggestions.
 */
export function variantGroups(
  type: TAiProductType,
  product: TCatalogProduct | null,
  choice: ListingChoice | null = null,
): ListingFacts['variants'] {
  if (!product) return [];
  const groups: ListingFacts['variants'] = [];
  const sizes = choice?.sizes ? product.sizes.filter((s) => choice.sizes?.includes(s)) : product.sizes;
  if (sizes.length) groups.push({ name: SIZE_GROUP_NAME[type], options: [...sizes] });
  const colours = choice
    ? product.colors.filter((c) => choice.colors?.some((x) => x.toLowerCase() === c.name.toLowerCase()))
    : product.colors.length > 1
      ? product.colors.slice(0, MAX_COLOURS)
      : [];
  if (colours.length) groups.push({ name: 'Color', options: colours.map((c) => c.name) });
  return groups;
}

/**
 * The facts a listing is written from. With a choice (a product being made), its catalogue product: the one named,
 * else the type's default, the blank a product of that type is made on; so the text names the blank that is
 * printed. Without one, the cheapest product of the type that suits the audience.
 */
export function listingFacts(
  catalogue: readonly TCatalogProduct[],
  type: TAiProductType,
  audience: string,
  choice: ListingChoice | null = null,
): ListingFacts {
  const wanted = choice ? (choice.catalogProductId ?? DEFAULT_CATALOG_PRODUCT[type]) : undefined;
  const product =
    (wanted !== undefined ? catalogue.find((p) => p.id === wanted) : undefined) ??
    chooseProduct(catalogue, type, audience);
  const chosen = product && choice ? chooseVariants(product, choice) : null;
  const base = chosen?.length ? Math.min(...chosen.map((v) => Number(v.price))) : product?.basePrice;
  return {
    product,
    productLabel: AI_PRODUCT_TYPE_LABELS[type],
    price: product && base !== undefined ? retailPrice(type, base) : FALLBACK_PRICE,
    variants: variantGroups(type, product, choice),
  };
}

const chooseVariants = (product: TCatalogProduct, choice: ListingChoice) =>
  product.variants.filter(
    (v) =>
      (!choice.sizes || choice.sizes.includes(v.size)) &&
      (!choice.colors?.length || choice.colors.some((c) => c.toLowerCase() === v.color.toLowerCase())),
  );
