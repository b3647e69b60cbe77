import { describe, expect, it } from 'vitest';
import { BUNDLED_PRODUCTS } from '../printful/catalog/bundled';
import { listingFacts, retailPrice, roundUpTo99 } from './listing-facts';
import { applyMarketplaceRules, shortenAtWord } from './marketplace-rules';

describe('listingFacts', () => {
  it('prices a tee on the cheapest general-cut tee of the catalogue, with its sizes and colours', () => {
    const tees = BUNDLED_PRODUCTS.filter((p) => p.type === 'tshirt' && /^Unisex/.test(p.name));
    const cheapest = tees.reduce((a, b) => (b.basePrice < a.basePrice ? b : a));
    const facts = listingFacts(BUNDLED_PRODUCTS, 'tshirt', 'unisex');
    expect(facts.product?.id).toBe(cheapest.id);
    expect(facts.price).toBe(retailPrice('tshirt', cheapest.basePrice));
    expect(facts.price).toBeGreaterThan(cheapest.basePrice);
    expect(facts.variants).toEqual([
      { name: 'Size', options: cheapest.sizes },
      { name: 'Color', options: cheapest.colors.slice(0, 5).map((c) => c.name) },
    ]);
  });

  it('chooses the cut that suits the audience', () => {
    expect(listingFacts(BUNDLED_PRODUCTS, 'tshirt', 'kids').product?.name).toMatch(/^Youth/);
    expect(listingFacts(BUNDLED_PRODUCTS, 'hoodie', 'my little boys').product?.name).toMatch(/^Youth/);
    expect(listingFacts(BUNDLED_PRODUCTS, 'tshirt', 'women').product?.name).toMatch(/^Women/);
    expect(listingFacts(BUNDLED_PRODUCTS, 'mug', 'women').product?.type).toBe('mug');
  });

  it('for a product being made, names its own blank and only the colours and sizes it is sold in', () => {
    const facts = listingFacts(BUNDLED_PRODUCTS, 'hoodie', 'unisex', {
      catalogProductId: 294,
      colors: ['Black'],
      sizes: ['S', 'M', 'L'],
    });
    expect(facts.product?.name).toMatch(/Champion S700/);
    expect(facts.variants).toEqual([
      { name: 'Size', options: ['S', 'M', 'L'] },
      { name: 'Color', options: ['Black'] },
    ]);
    // No colours chosen yet: none is named. No catalogue product named: the type's default blank.
    const simple = listingFacts(BUNDLED_PRODUCTS, 'tshirt', 'kids', {});
    expect(simple.product?.id).toBe(71);
    expect(simple.variants.map((g) => g.name)).toEqual(['Size']);
  });

  it('falls back to 25 and no variants without a catalogue product', () => {
    expect(listingFacts([], 'mug', 'unisex')).toMatchObject({ product: null, price: 25, variants: [] });
  });

  it('rounds prices up to .99', () => {
    expect(roundUpTo99(17.49)).toBe(17.99);
    expect(roundUpTo99(20)).toBe(20.99);
    expect(retailPrice('sticker', 2.29)).toBe(5.99);
  });
});

describe('applyMarketplaceRules', () => {
  const longTitle = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
  const tags = [
    'an extremely long tag that goes on',
    'cat',
    'CAT',
    ...Array.from({ length: 20 }, (_, i) => `tag ${i}`),
  ];

  it('fits Etsy: title at most 140, at most 13 tags of at most 20 characters, no repeats', () => {
    const out = applyMarketplaceRules({ title: longTitle, description: 'd', tags }, 'etsy');
    expect(out.title.length).toBeLessThanOrEqual(140);
    expect(longTitle.startsWith(out.title)).toBe(true);
    expect(out.title).toMatch(/word\d+$/);
    expect(out.tags).toHaveLength(13);
    expect(out.tags[0]).toBe('an extremely long');
    expect(out.tags.filter((t) => t.toLowerCase() === 'cat')).toHaveLength(1);
    for (const tag of out.tags) expect(tag.length).toBeLessThanOrEqual(20);
  });

  it('fits Amazon titles in 200 and Shopify in 250 tags', () => {
    const long = `${longTitle} ${longTitle}`;
    expect(
      applyMarketplaceRules({ title: long, description: '', tags: [] }, 'amazon').title.length,
    ).toBeLessThanOrEqual(200);
    const many = Array.from({ length: 300 }, (_, i) => `t${i}`);
    expect(applyMarketplaceRules({ title: 't', description: '', tags: many }, 'shopify').tags).toHaveLength(250);
  });

  it('cuts at a word and drops a dangling separator', () => {
    expect(shortenAtWord('Retro Sunset Cat T-Shirt | Graphic Tee', 26)).toBe('Retro Sunset Cat T-Shirt');
  });
});
