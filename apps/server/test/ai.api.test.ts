import { randomUUID } from 'node:crypto';
import { DEFAULT_CATALOG_PRODUCT, ZAiError, ZGeneratedContent } from '@podforge/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { aiGenerations } from '../src/db/schema';
import { type FakeOpenAi, startFakeOpenAi } from '../src/integrations/ai/fake-openai';
import { AiProviderError } from '../src/integrations/ai/provider';
import { BUNDLED_PRODUCTS } from '../src/integrations/printful/catalog/bundled';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';

const NOW = new Date('2026-05-14T10:00:00Z');
const URL = '/api/ai/generate-content';

const cheapest = (filter: (p: (typeof BUNDLED_PRODUCTS)[number]) => boolean) =>
  BUNDLED_PRODUCTS.filter(filter).reduce((a, b) => (b.basePrice < a.basePrice ? b : a));

async function rowsOf(db: Db, workspaceId: string) {
  return db.select().from(aiGenerations).where(eq(aiGenerations.workspaceId, workspaceId));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '100', AI_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/ai/generate-content, simple create flow (filename)', () => {
  it('writes a listing from the design name, priced and sized on the blank the product is made on, and records one credit', async () => {
    const client = t.client();
    const res = await client.post(URL, { filename: 'retro-sunset_cat-v2.png' });
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedContent.parse(res.json());
    // A product of a bare type is made on the type's default blank, so that is the one the text names.
    const tee = cheapest((p) => p.id === DEFAULT_CATALOG_PRODUCT.tshirt);

    expect(body.title).toContain('Retro Sunset Cat');
    expect(body.title).toContain('T-Shirt');
    expect(body.title).not.toMatch(/v2|png|_/i);
    const paragraphs = body.description.split('\n\n');
    expect(paragraphs.length).toBeGreaterThanOrEqual(3);
    expect(body.description).toContain(`${tee.brand} ${tee.model}`);
    expect(body.description).toContain(tee.description.slice(1, 40));
    expect(body.description).toMatch(/machine wash cold/i);
    expect(body.description).not.toMatch(/lorem|ipsum|\bAI\b/i);
    expect(body.tags).toEqual(expect.arrayContaining(['retro sunset cat', 't-shirt', 'cat']));
    // 9.25 blank cost -> 20.99 retail.
    expect(tee.basePrice).toBe(9.25);
    expect(body.price).toBe(20.99);
    // Colours are chosen with the mockups, later: the text promises none.
    expect(body.variants).toEqual([{ name: 'Size', options: tee.sizes }]);
    expect(body.description).not.toMatch(/\bnavy\b|\bforest\b/i);

    expect(body.variants[0]?.options).toEqual(expect.arrayContaining(['S', 'M', 'L', 'XL', '2XL']));
    expect(body.provider).toBe('offline');
    expect(body.creditsRemaining).toBe(99);

    const rows = await rowsOf(t.deps.db, await client.workspaceId(t.deps.db));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'content',
      provider: 'offline',
      credits: 1,
      request: { kind: 'design', filename: 'retro-sunset_cat-v2.png', productType: 'tshirt' },
      result: { title: body.title, price: 20.99 },
    });
    const stats = (await client.get('/api/dashboard/stats')).json();
    expect(stats.aiCredits).toMatchObject({ allowance: 100, used: 1, remaining: 99 });
  });

  it('names the blank the seller chose and only the colours and sizes it is sold in', async () => {
    const client = t.client();
    const chosen = await client.post(URL, {
      filename: 'retro-sunset_cat-v2.png',
      productType: 'hoodie',
      catalogProductId: 294,
      colors: ['Black'],
      sizes: ['M', 'L'],
    });
    const hoodie = ZGeneratedContent.parse(chosen.json());
    expect(hoodie.description).toContain('Champion S700');
    expect(hoodie.description).not.toContain('Gildan');
    expect(hoodie.variants).toEqual([
      { name: 'Size', options: ['M', 'L'] },
      { name: 'Color', options: ['Black'] },
    ]);
  });

  it('uses the audience, product type and description: a youth hoodie for kids', async () => {
    const res = await t.client().post(URL, {
      filename: 'DinoSkate_FINAL_copy (2).png',
      productType: 'hoodie',
      targetAudience: 'kids',
      platform: 'shopify',
      designDescription: 'a green dinosaur riding a skateboard',
    });
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedContent.parse(res.json());
    const youth = cheapest((p) => p.id === DEFAULT_CATALOG_PRODUCT.hoodie);
    expect(body.title).toMatch(/^Dino Skate\b.*Hoodie.*Kids/);
    expect(body.description).toContain('A green dinosaur riding a skateboard.');
    expect(body.description).toContain(`${youth.brand} ${youth.model}`);
    expect(body.price).toBeGreaterThan(youth.basePrice);
    expect(body.price % 1).toBeCloseTo(0.99);
    expect(body.variants[0]).toEqual({ name: 'Size', options: youth.sizes });
    expect(body.tags).toEqual(expect.arrayContaining(['dino skate', 'kids hoodie', 'dinosaur']));
  });

  it('fits Etsy rules for a very long file name: title at most 140, at most 13 tags of at most 20 characters', async () => {
    const filename =
      'vintage-mountain-camping-adventure-sunset-forest-wildlife-explorer-national-park-road-trip-summer-camp-lake-' +
      'canoe-campfire-stars-night-sky-pine-trees-final-v7.png';
    const res = await t.client().post(URL, {
      filename,
      platform: 'etsy',
      designDescription: 'hand drawn pine trees, a campfire, a canoe on a lake and a full moon over the ridge',
    });
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedContent.parse(res.json());
    expect(body.title.length).toBeLessThanOrEqual(140);
    expect(body.title.length).toBeGreaterThan(60);
    expect(body.title).toMatch(/^Vintage Mountain Camping.* Unisex T-Shirt\b/);
    expect(body.description).toContain('Vintage Mountain Camping Adventure Sunset Forest Wildlife Explorer');
    expect(body.title).not.toMatch(/[\s|,–-]$/);
    expect(body.tags.length).toBeGreaterThan(5);
    expect(body.tags.length).toBeLessThanOrEqual(13);
    for (const tag of body.tags) expect(tag.length).toBeLessThanOrEqual(20);
    expect(new Set(body.tags.map((x) => x.toLowerCase())).size).toBe(body.tags.length);
  });

  it('accepts a designId of the workspace and answers 404 for another workspace’s design, like a missing one', async () => {
    const owner = t.client();
    const stranger = t.client();
    const ownerWs = await owner.workspaceId(t.deps.db);
    const strangerWs = await stranger.workspaceId(t.deps.db);
    const design = await insertDesign(t.deps, ownerWs, await solidPng(64, 64, { r: 200, g: 50, b: 50 }), 'fox.png');

    const ok = await owner.post(URL, { filename: 'fox.png', designId: design.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().title).toContain('Fox');

    const foreign = await stranger.post(URL, { filename: 'fox.png', designId: design.id });
    const missing = await stranger.post(URL, { filename: 'fox.png', designId: randomUUID() });
    expect(foreign.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND', error: 'Design not found' });
    expect(await rowsOf(t.deps.db, strangerWs)).toHaveLength(0);
  });
});

describe('POST /api/ai/generate-content, full page (keywords)', () => {
  const request = {
    productType: 'Mug',
    keywords: 'mountain sunrise, hiking, coffee',
    audience: 'hikers',
    style: 'minimalist',
    platform: 'Amazon',
    creativity: 7,
    includeSEO: true,
    generateTags: true,
  };

  it('writes a mug listing from the keywords, priced and sized on the cheapest mug', async () => {
    const res = await t.client().post(URL, request);
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedContent.parse(res.json());
    const mug = cheapest((p) => p.type === 'mug');
    expect(body.title).toContain('Mountain Sunrise');
    expect(body.title).toContain('Mug');
    expect(body.title.length).toBeLessThanOrEqual(200);
    expect(body.description).toContain(mug.description.slice(1, 40));
    expect(body.description).toMatch(/hikers/);
    expect(body.tags).toEqual(expect.arrayContaining(['mountain sunrise', 'hiking', 'coffee', 'mug', 'minimalist']));
    expect(mug.basePrice).toBe(5.95);
    expect(body.price).toBe(15.99);
    expect(body.variants).toEqual([{ name: 'Size', options: mug.sizes }]);
  });

  it('gives the same text for the same input and seed; creativity widens the wording', async () => {
    const client = t.client();
    const generate = async (creativity: number, seed: number) => {
      const res = await client.post(URL, { ...request, creativity, seed });
      expect(res.statusCode).toBe(200);
      const { title, description } = res.json();
      return `${title}\n${description}`;
    };
    expect(await generate(7, 5)).toBe(await generate(7, 5));
    const plain = new Set<string>();
    const creative = new Set<string>();
    for (let seed = 0; seed < 8; seed++) {
      plain.add(await generate(1, seed));
      creative.add(await generate(10, seed));
    }
    expect(plain.size).toBe(1);
    expect(creative.size).toBeGreaterThan(2);
  });

  it('leaves tags out when generateTags is off', async () => {
    const res = await t.client().post(URL, { ...request, generateTags: false });
    expect(res.json().tags).toEqual([]);
  });
});

describe('POST /api/ai/generate-content, validation', () => {
  it.each([
    ['a missing filename', { productType: 'tshirt' }, 'filename'],
    ['an empty filename', { filename: '  ' }, 'filename'],
    ['empty keywords', { keywords: '   ', productType: 'Mug' }, 'keywords'],
    ['an unknown product type', { filename: 'cat.png', productType: 'blanket' }, 'productType'],
    ['an unknown page platform', { keywords: 'cat', platform: 'eBay' }, 'platform'],
    ['creativity above 10', { keywords: 'cat', creativity: 11 }, 'creativity'],
    ['a designId that is not a uuid', { filename: 'cat.png', designId: '42' }, 'designId'],
  ])('answers 400 naming the field for %s, and spends no credit', async (_name, payload, field) => {
    const client = t.client();
    const res = await client.post(URL, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().error).toContain(`${field}:`);
    expect(await rowsOf(t.deps.db, await client.workspaceId(t.deps.db))).toHaveLength(0);
  });
});

describe('POST /api/ai/generate-content, credits', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '2' } });
  });
  afterAll(async () => {
    await small.close();
  });

  it('counts down and answers 429 QUOTA_EXCEEDED when the month’s credits are used, writing nothing', async () => {
    const client = small.client();
    const ws = await client.workspaceId(small.deps.db);
    expect((await client.post(URL, { filename: 'a.png' })).json().creditsRemaining).toBe(1);
    expect((await client.post(URL, { filename: 'b.png' })).json().creditsRemaining).toBe(0);

    const refused = await client.post(URL, { filename: 'c.png' });
    expect(refused.statusCode).toBe(429);
    const body = ZAiError.parse(refused.json());
    expect(body).toMatchObject({ code: 'RATE_LIMITED', errorType: 'QUOTA_EXCEEDED' });
    expect(body.message).toMatch(/2 AI credits/);
    expect(await rowsOf(small.deps.db, ws)).toHaveLength(2);
    expect((await client.get('/api/dashboard/stats')).json().aiCredits).toMatchObject({ used: 2, remaining: 0 });

    // Another workspace has its own allowance.
    expect((await small.client().post(URL, { filename: 'a.png' })).json().creditsRemaining).toBe(1);
  });

  it('lets parallel calls spend no more than the allowance', async () => {
    const client = small.client();
    const ws = await client.workspaceId(small.deps.db);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => client.post(URL, { filename: `p${i}.png` })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
    const [row] = await small.deps.db
      .select({ n: count() })
      .from(aiGenerations)
      .where(eq(aiGenerations.workspaceId, ws));
    expect(row?.n).toBe(2);
  });
});

describe('POST /api/ai/generate-content, rate limit and provider errors', () => {
  let limited: TestApp;
  beforeAll(async () => {
    let calls = 0;
    limited = await createTestApp({
      now: () => NOW,
      env: { AI_RATE_LIMIT_PER_MINUTE: '3' },
      ai: {
        name: 'failing',
        async generateContent() {
          calls++;
          if (calls > 1) throw new AiProviderError('INVALID_API_KEY', 'The AI provider rejected the API key.');
          return { title: 'Fixed title', description: 'Fixed description', tags: ['one'] };
        },
        async analyzeImage() {
          return { title: 'Fixed title', description: 'Fixed description', tags: ['one'] };
        },
        async generateDesigns() {
          throw new AiProviderError('PROVIDER_ERROR', 'Not used here.');
        },
      },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('uses the swapped provider and maps its failure to errorType, spending no credit', async () => {
    const client = limited.client();
    const first = await client.post(URL, { filename: 'cat.png' });
    expect(first.json()).toMatchObject({ title: 'Fixed title', provider: 'failing', creditsRemaining: 199 });
    const failed = await client.post(URL, { filename: 'cat.png' });
    expect(failed.statusCode).toBe(502);
    expect(ZAiError.parse(failed.json())).toMatchObject({
      code: 'UPSTREAM_ERROR',
      errorType: 'INVALID_API_KEY',
      message: 'The AI provider rejected the API key.',
    });
    expect(await rowsOf(limited.deps.db, await client.workspaceId(limited.deps.db))).toHaveLength(1);
  });

  it('answers 429 past AI_RATE_LIMIT_PER_MINUTE calls of one workspace, and not for another', async () => {
    const busy: TestClient = limited.client();
    for (let i = 0; i < 3; i++) expect((await busy.post(URL, { productType: 'nope' })).statusCode).toBe(400);
    const blocked = await busy.post(URL, { filename: 'cat.png' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(blocked.json().error).toMatch(/at most 3 a minute per workspace/);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect((await limited.client().post(URL, { productType: 'nope' })).statusCode).toBe(400);
  });

  it('counts every AI route of a workspace against one limit, not one per route', async () => {
    const busy: TestClient = limited.client();
    expect((await busy.post(URL, { productType: 'nope' })).statusCode).toBe(400);
    expect((await busy.post('/api/ai/generate-title', { topic: ' ' })).statusCode).toBe(400);
    expect((await busy.post('/api/ai/generate-tags', {})).statusCode).toBe(400);
    const blocked = await busy.post('/api/ai/designs', { prompt: 'a cat' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatch(/at most 3 a minute per workspace/);
    const analyze = await busy.request({
      method: 'POST',
      url: '/api/ai/analyze-image',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(analyze.statusCode).toBe(429);
  });
});

describe('POST /api/ai/generate-content with OPENAI_API_KEY', () => {
  let fake: FakeOpenAi;
  let withOpenAi: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-configured' });
    withOpenAi = await createTestApp({
      now: () => NOW,
      env: { OPENAI_API_KEY: 'sk-configured', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'gpt-4o-mini' },
    });
  });
  afterAll(async () => {
    await withOpenAi.close();
    await fake.close();
  });

  it('writes the text with the OpenAI-compatible API; price and variants still come from the catalogue', async () => {
    const client = withOpenAi.client();
    const res = await client.post(URL, { filename: 'retro-sunset_cat-v2.png', platform: 'etsy' });
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedContent.parse(res.json());
    expect(body).toMatchObject({ title: 'Retro Sunset Cat T-Shirt', provider: 'openai', price: 20.99 });
    expect(body.variants[0]?.name).toBe('Size');
    expect(fake.requests.at(-1)?.body.model).toBe('gpt-4o-mini');
    const rows = await rowsOf(withOpenAi.deps.db, await client.workspaceId(withOpenAi.deps.db));
    expect(rows).toMatchObject([{ provider: 'openai', kind: 'content', credits: 1 }]);
  });
});
