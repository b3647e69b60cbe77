import type { TDesign, TMockup, TVariant } from '@podforge/contract';
import { defaultVariants, type TAiPlatform, type TAiProductType, type TGeneratedContent } from '@podforge/contract';

/** Spec section 2 'Simple create flow': four steps, each enabled by the progress before it. */
export const SIMPLE_FLOW_STEPS = [
  { id: 'upload', label: 'Upload Design' },
  { id: 'content', label: 'Generate Content' },
  { id: 'mockup', label: 'Preview Mockup' },
  { id: 'stores', label: 'Upload to Stores' },
] as const;
export type SimpleFlowStep = (typeof SIMPLE_FLOW_STEPS)[number]['id'];

/** The listing as the seller accepted (and possibly edited) it. */
export type ListingContent = {
  title: string;
  description: string;
  tags: string[];
  price: number;
  variants: TVariant[];
  productType: TAiProductType;
  platform: TAiPlatform;
};

export type SimpleFlowState = {
  step: SimpleFlowStep;
  design: TDesign | null;
  content: ListingContent | null;
  mockup: TMockup | null;
  productId: string | null;
};

export const INITIAL_FLOW: SimpleFlowState = {
  step: 'upload',
  design: null,
  content: null,
  mockup: null,
  productId: null,
};

/** Spec section 4: an upload enables content, content enables the mockup, a created product enables store upload. */
export function isStepEnabled(state: SimpleFlowState, step: SimpleFlowStep): boolean {
  switch (step) {
    case 'upload':
      return true;
    case 'content':
      return state.design !== null;
    case 'mockup':
      return state.design !== null && state.content !== null;
    case 'stores':
      return state.productId !== null;
  }
}

export function isStepComplete(state: SimpleFlowState, step: SimpleFlowStep): boolean {
  switch (step) {
    case 'upload':
      return state.design !== null;
    case 'content':
      return state.content !== null;
    case 'mockup':
      return state.productId !== null;
    case 'stores':
      return false;
  }
}

/** `?step=` of the dashboard's AI shortcuts: 'design' is the upload step, 'details' the listing text. */
export function stepFromQuery(step: string | null): SimpleFlowStep | null {
  if (step === 'design' || step === 'upload') return 'upload';
  if (step === 'details' || step === 'content') return 'content';
  if (step === 'mockup') return 'mockup';
  if (step === 'stores') return 'stores';
  return null;
}

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

export function listingProblems(content: Pick<ListingContent, 'title' | 'tags' | 'platform'>): string[] {
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
