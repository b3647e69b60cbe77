import type { TAiPlatform } from './ai';
import { platformLabel } from './integrations';

/**
 * Listing rules both sides apply: the marketplaces' limits (design.md 'Marketplace rules applied to listings'),
 * the one way typed tags are parsed, and what breaks a rule, said before a push.
 */

export type MarketplaceLimits = { titleMax: number | null; tagsMax: number | null; tagMaxLength: number | null };

export const MARKETPLACE_LIMITS: Record<TAiPlatform | 'general', MarketplaceLimits> = {
  shopify: { titleMax: 255, tagsMax: 250, tagMaxLength: 255 },
  etsy: { titleMax: 140, tagsMax: 13, tagMaxLength: 20 },
  amazon: { titleMax: 200, tagsMax: null, tagMaxLength: null },
  woocommerce: { titleMax: null, tagsMax: null, tagMaxLength: null },
  general: { titleMax: null, tagsMax: null, tagMaxLength: null },
};

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

/** What in a listing breaks the platform's rules, as sentences a seller can act on; empty when nothing does. */
export function listingProblems(content: { title: string; tags: string[]; platform: TAiPlatform }): string[] {
  const rules = MARKETPLACE_LIMITS[content.platform];
  const name = platformLabel(content.platform);
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
  if (content.platform === 'etsy') problems.push(...etsyTextProblems(content));
  return problems;
}

/**
 * Etsy's text rules beyond the lengths (apis.md E7; Etsy's createDraftListing reference): a title holds letters,
 * numbers, punctuation, mathematical symbols, spaces and the ™ © ® signs, so `$`, `^` and the backtick are refused,
 * and `%`, `:`, `&` and `+` may each appear once; a tag holds letters, numbers, spaces, `-`, `'` and ™ © ®.
 */
const ETSY_TITLE_CHAR = /[\p{L}\p{Nd}\p{P}\p{Sm}\p{Zs}™©®]/u;
const ETSY_TITLE_ONCE = ['%', ':', '&', '+'];
const ETSY_TAG = /^[\p{L}\p{Nd}\p{Zs}\-'™©®]+$/u;

export function etsyTextProblems(content: { title: string; tags: string[] }): string[] {
  const problems: string[] = [];
  const banned = [...new Set([...content.title].filter((c) => !ETSY_TITLE_CHAR.test(c) || c === '`'))];
  if (banned.length > 0) problems.push(`Etsy titles cannot contain ${banned.map((c) => `'${c}'`).join(', ')}.`);
  const repeated = ETSY_TITLE_ONCE.filter((c) => content.title.split(c).length > 2);
  if (repeated.length > 0) problems.push(`Etsy titles may use ${repeated.map((c) => `'${c}'`).join(', ')} only once.`);
  const badTags = content.tags.filter((t) => !ETSY_TAG.test(t));
  if (badTags.length > 0)
    problems.push(`Etsy tags hold only letters, numbers, spaces, - and ': ${badTags.map((t) => `'${t}'`).join(', ')}.`);
  return problems;
}
