import { MARKETPLACE_LIMITS, type TAiPlatform } from '@podforge/contract';
import type { ContentDraft } from './provider';

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
  const rules = MARKETPLACE_LIMITS[platform];
  const title = rules.titleMax ? shortenAtWord(draft.title, rules.titleMax) : draft.title.trim();
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of draft.tags) {
    let tag = raw.trim().replace(/\s+/g, ' ');
    if (rules.tagMaxLength && tag.length > rules.tagMaxLength) {
      const cut = tag.slice(0, rules.tagMaxLength + 1);
      const space = cut.lastIndexOf(' ');
      tag = space > 0 ? cut.slice(0, space).trim() : '';
    }
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
    if (rules.tagsMax && tags.length >= rules.tagsMax) break;
  }
  return { title, description: draft.description.trim(), tags };
}
