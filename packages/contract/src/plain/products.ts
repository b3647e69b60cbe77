import type { TVariant } from '../products';

/** My Products' page size, the default of `GET /api/products`' `pageSize`. */
export const PRODUCTS_PAGE_SIZE = 10;

/** Product types a product can have; the same ids as the simple flow's (spec section 9, 'Component'). */
export const PRODUCT_TYPES = ['tshirt', 'hoodie', 'mug', 'poster', 'sticker', 'tote', 'phone_case'] as const;
export type TProductType = (typeof PRODUCT_TYPES)[number];

/** A product type's name for a list of products, e.g. My Products' type filter ('T-Shirts'). */
export const PRODUCT_TYPE_PLURAL_LABELS: Record<TProductType, string> = {
  tshirt: 'T-Shirts',
  hoodie: 'Hoodies',
  mug: 'Mugs',
  poster: 'Posters',
  sticker: 'Stickers',
  tote: 'Tote Bags',
  phone_case: 'Phone Cases',
};

export const PRODUCT_TITLE_MAX = 255;
export const PRODUCT_DESCRIPTION_MAX = 10_000;
export const PRODUCT_TAGS_MAX = 250;
export const PRODUCT_TAG_MAX_LENGTH = 255;
export const PRODUCT_VARIANTS_MAX = 100;
export const PRODUCT_PRICE_MAX = 100_000;

/** `POST /api/upload/:platform/:productId` (spec section 7). */
export const STORE_PLATFORMS = ['shopify', 'etsy', 'amazon', 'woocommerce'] as const;
export type TStorePlatform = (typeof STORE_PLATFORMS)[number];

/**
 * Spec section 9, 'Default variants': Small, Medium, Large at the price (25 when there is none), Extra Large at
 * that price plus 2; SKUs S, M, L, XL.
 */
export function defaultVariants(price: number | null | undefined): TVariant[] {
  const base = price && price > 0 ? price : 25;
  return [
    { option: 'Small', price: base, sku: 'S' },
    { option: 'Medium', price: base, sku: 'M' },
    { option: 'Large', price: base, sku: 'L' },
    { option: 'Extra Large', price: base + 2, sku: 'XL' },
  ];
}

/** The free-text size names the simple flow and the AI use, mapped to catalogue sizes. */
const SIZE_WORDS: Record<string, string> = {
  'extra small': 'XS',
  small: 'S',
  medium: 'M',
  large: 'L',
  'extra large': 'XL',
  'x-large': 'XL',
  xxl: '2XL',
  '2x-large': '2XL',
  'xx-large': '2XL',
  xxxl: '3XL',
  '3x-large': '3XL',
};

/** The catalogue size a free-text variant name stands for ('Small' -> 'S', 'xl' -> 'XL'), or the name itself. */
export function sizeFromOption(option: string): string {
  const key = option.trim().toLowerCase();
  return SIZE_WORDS[key] ?? option.trim().toUpperCase();
}

/** 'Black / M'; a product of one size or colour names just the other. */
export function variantLabel(color: string | null, size: string | null): string {
  return [color, size].filter(Boolean).join(' / ') || 'Default';
}

/**
 * The SKU of a product's catalogue variant: the same for the same product and catalogue variant, so an edit never
 * changes it, and unique across a workspace's products, so a store order line finds its product by SKU.
 */
export function skuFor(productId: string, catalogVariantId: number): string {
  return `PF-${productId.replace(/-/g, '').slice(0, 10).toUpperCase()}-${catalogVariantId}`;
}

/** What a product needs to be 'ready' (design.md 'Product status'); empty when it may be. One rule, web and server. */
export function missingForReady(p: {
  designId: string | null;
  hasMockup: boolean;
  title: string;
  description: string;
  variants: { price: number }[];
}): string[] {
  const missing: string[] = [];
  if (!p.designId) missing.push('a design');
  if (!p.hasMockup) missing.push('a mockup');
  if (!p.title.trim()) missing.push('a title');
  if (!p.description.trim()) missing.push('a description');
  if (!p.variants.some((v) => v.price > 0)) missing.push('a variant with a price above 0');
  return missing;
}
