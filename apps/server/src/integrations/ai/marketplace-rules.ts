import type { TAiPlatform } from '@podforge/contract';
import type { ContentDraft } from './provider';

export type MarketplaceRules = { maxTitle: number | null; maxTags: number | null; maxTagLength: number | null };

/** shared/design.md 'Marketplace rules applied to listings'. */
export const MARKETPLACE_RULES: Record<TAiPlatform | 'general', MarketplaceRules> = {
  etsy: { maxTitle: 140, maxTags: 13, maxTagLength: 20 },
  amazon: { maxTitle: 200, maxTags: null, maxTagLength: null },
  shopify: { maxTitle: null, maxTags: 250, maxTagLength: null },
  woocommerce: { maxTitle: null, maxTags: null, maxTagLength: null },
  general: { maxTitle: null, maxTags: null, maxTagLength: null },
};

/** Cuts text at the last word boundary within `max` characters and drops a dangling separator. */
export function shortenAtWord(text: string, max: number): string {
  const t = text.trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  const shortened = space > max / 2 ? cut.slice(0, space) : t.slice(0, max);
  return shortened.replace(/[\s,|–—:;/&+-]+$/u, '').trim();
}

/**
 * Makes a listing fit the platform: the title shortened at a word, tags trimmed, de-duplicated (ignoring case),
 * each shortened at a word to the platform's length (or left out when no whole word fits) and capped in number.
 */
export function applyMarketplaceRules(draft: ContentDraft, platform: TAiPlatform | 'general'): ContentDraft {
  const rules = MARKETPLACE_RULES[platform];
  const title = rules.maxTitle ? shortenAtWord(draft.title, rules.maxTitle) : draft.title.trim();
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of draft.tags) {
    let tag = raw.trim().replace(/\s+/g, ' ');
    if (rules.maxTagLength && tag.length > rules.maxTagLength) {
      const cut = tag.slice(0, rules.maxTagLength + 1);
      const space = cut.lastIndexOf(' ');
      tag = space > 0 ? cut.slice(0, space).trim() : '';
    }
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (rules.maxTags && tags.length >= rules.maxTags) break;
  }
  return { title, description: draft.description.trim(), tags };
}
