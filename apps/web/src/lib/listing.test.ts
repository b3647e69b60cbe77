import { describe, expect, it } from 'vitest';
import { listingProblems } from './listing';

/** The contract's listing rules as both create flows show them before a push (the server checks the same). */
describe('listingProblems for Etsy', () => {
  it('accepts letters, numbers, punctuation and the ™ © ® signs', () => {
    expect(
      listingProblems({
        title: 'Retro Sunset Tee - Vintage 70s, Soft & Cozy ™',
        tags: ["men's tee", 'retro-70s'],
        platform: 'etsy',
      }),
    ).toEqual([]);
  });

  it('names the banned characters, the ones allowed once, and tags with other characters', () => {
    expect(
      listingProblems({ title: 'Sale $5 ^ now `x` 50% off 20% more', tags: ['ok tag', 'bad#tag'], platform: 'etsy' }),
    ).toEqual([
      "Etsy titles cannot contain '$', '^', '`'.",
      "Etsy titles may use '%' only once.",
      "Etsy tags hold only letters, numbers, spaces, - and ': 'bad#tag'.",
    ]);
  });

  it('keeps the lengths: 140-character titles, 13 tags of 20', () => {
    const problems = listingProblems({
      title: 'a'.repeat(141),
      tags: [...Array.from({ length: 13 }, (_, i) => `tag ${i}`), 'a tag much longer than twenty'],
      platform: 'etsy',
    });
    expect(problems).toEqual([
      'Etsy titles are at most 140 characters (this one has 141).',
      'Etsy allows at most 13 tags (this listing has 14).',
      "Etsy tags are at most 20 characters: 'a tag much longer than twenty'.",
    ]);
  });

  it('other platforms do not apply Etsy’s characters', () => {
    expect(listingProblems({ title: 'Sale $5', tags: ['bad#tag'], platform: 'shopify' })).toEqual([]);
  });
});
