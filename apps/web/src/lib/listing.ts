import type { TGeneratedContent, TVariant } from '@podforge/contract';
import { defaultVariants } from '@podforge/contract/plain';

/** Listing helpers shared by the simple create flow and the wizard: variants, tags and marketplace rules. */

const SIZE_ORDER = ['XS', 'S', 'M', 'L', 'XL', '2XL', '3XL', '4XL', '5XL'];

/**
 * Priced variants from the generated option groups. Sizes up to L sell at the listing price and each larger size
 * adds 2 (the spec's 'Extra Large at that price plus 2', carried on for 2XL and up); other option groups (mug
 * sizes, poster formats) sell at the listing price; with no groups, the spec's default variants.
 */
export function variantsFromContent(content: Pick<TGeneratedContent, 'price' | 'variants'>): TVariant[] {
  const price = Math.round(content.price * 100) / 100;
  const group = content.variants.find((v) => /size/i.test(v.name)) ?? content.variants[0];
  if (!group || group.options.length === 0) return defaultVariants(price);
  const sizeGroup = /size/i.test(group.name);
  return group.options.map((option) => {
    const rank = SIZE_ORDER.indexOf(option.toUpperCase());
    const extra = sizeGroup && rank > SIZE_ORDER.indexOf('L') ? 2 * (rank - SIZE_ORDER.indexOf('L')) : 0;
    return { option, price: price + extra, sku: skuFor(option) };
  });
}

function skuFor(option: string): string {
  return option
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
}

/** The listing rules are the contract's (one definition for web and server). */
export { listingProblems, MARKETPLACE_LIMITS, parseTags } from '@podforge/contract/plain';
