import { defaultVariants, type TAiPlatform, type TGeneratedContent, type TVariant } from '@podforge/contract';

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

/** Tags typed as a comma-separated line: trimmed, no empties, no duplicates (case-insensitive). */
export function parseTags(text: string): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of text.split(',')) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  return tags;
}

/** Marketplace listing limits (design.md 'Marketplace rules'): what the UI warns about before a push. */
export const PLATFORM_RULES: Record<
  TAiPlatform,
  { titleMax: number | null; tagsMax: number | null; tagMaxLength: number | null }
> = {
  shopify: { titleMax: 255, tagsMax: 250, tagMaxLength: 255 },
  etsy: { titleMax: 140, tagsMax: 13, tagMaxLength: 20 },
  amazon: { titleMax: 200, tagsMax: null, tagMaxLength: null },
  woocommerce: { titleMax: null, tagsMax: null, tagMaxLength: null },
};

export function listingProblems(content: { title: string; tags: string[]; platform: TAiPlatform }): string[] {
  const rules = PLATFORM_RULES[content.platform];
  const name =
    content.platform === 'woocommerce' ? 'WooCommerce' : content.platform[0]?.toUpperCase() + content.platform.slice(1);
  const problems: string[] = [];
  if (rules.titleMax && content.title.length > rules.titleMax)
    problems.push(`${name} titles are at most ${rules.titleMax} characters (this one has ${content.title.length}).`);
  if (rules.tagsMax && content.tags.length > rules.tagsMax)
    problems.push(`${name} allows at most ${rules.tagsMax} tags (this listing has ${content.tags.length}).`);
  const longTags = rules.tagMaxLength ? content.tags.filter((t) => t.length > (rules.tagMaxLength ?? 0)) : [];
  if (longTags.length > 0)
    problems.push(
      `${name} tags are at most ${rules.tagMaxLength} characters: ${longTags.map((t) => `'${t}'`).join(', ')}.`,
    );
  return problems;
}
