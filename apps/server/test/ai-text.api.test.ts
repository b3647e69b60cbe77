import { ZAiGenerationsResponse, ZGeneratedDescription, ZGeneratedTags, ZGeneratedTitle } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiGenerations } from '../src/db/schema';
import { AiProviderError } from '../src/integrations/ai/provider';
import { createTestApp, type TestApp } from './helpers';

const NOW = new Date('2026-05-14T10:00:00Z');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '50', AI_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/ai/generate-title', () => {
  it('writes a title from the topic, style and audience, and records one credit', async () => {
    const client = t.client();
    const res = await client.post('/api/ai/generate-title', {
      topic: 'retro sunset cat',
      style: 'vintage',
      audience: 'cat lovers',
    });
    expect(res.statusCode).toBe(200);
    const body = ZGeneratedTitle.parse(res.json());
    expect(body.title).toContain('Retro Sunset Cat');
    expect(body.title).toMatch(/Cat Lovers/);
    expect(body).toMatchObject({ provider: 'offline', creditsRemaining: 49 });
    const rows = await t.deps.db
      .select()
      .from(aiGenerations)
      .where(eq(aiGenerations.workspaceId, await client.workspaceId(t.deps.db)));
    expect(rows).toMatchObject([{ kind: 'title', credits: 1, result: { title: body.title } }]);
  });

  it('answers 400 without a topic', async () => {
    const res = await t.client().post('/api/ai/generate-title', { topic: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Please enter a topic');
  });
});

describe('POST /api/ai/generate-description', () => {
  it('describes the design named in the title on the product the title names, with the catalogue facts', async () => {
    const res = await t.client().post('/api/ai/generate-description', {
      title: 'Mountain Adventure Unisex Hoodie | Pullover Hoodie',
      style: 'minimal',
      details: 'three peaks at dawn',
    });
    expect(res.statusCode).toBe(200);
    const { description } = ZGeneratedDescription.parse(res.json());
    expect(description).toContain('Mountain Adventure');
    expect(description).not.toContain('Mountain Adventure Unisex Hoodie design');
    expect(description).toMatch(/hoodie/i);
    expect(description).toContain('Three peaks at dawn.');
    expect(description.split('\n\n').length).toBeGreaterThanOrEqual(3);
  });

  it('answers 400 without a title', async () => {
    expect((await t.client().post('/api/ai/generate-description', { details: 'x' })).statusCode).toBe(400);
  });
});

describe('POST /api/ai/generate-tags', () => {
  it('tags the design for the category, without repeats', async () => {
    const res = await t.client().post('/api/ai/generate-tags', {
      title: 'Coffee First Coffee Mug',
      description: 'A bold coffee lettering for early mornings. Printed on a ceramic mug.',
      category: 'Mugs',
    });
    expect(res.statusCode).toBe(200);
    const { tags } = ZGeneratedTags.parse(res.json());
    expect(tags).toEqual(expect.arrayContaining(['coffee first', 'mug', 'coffee mug']));
    expect(tags).not.toContain('t-shirt');
    expect(new Set(tags).size).toBe(tags.length);
  });
});

describe('GET /api/ai/generations', () => {
  it('lists the workspace’s own generations, newest first, each in a line; another workspace sees none of them', async () => {
    let clock = new Date('2026-05-20T08:00:00Z').getTime();
    const tick = () => {
      clock += 1000;
      return new Date(clock);
    };
    const app = await createTestApp({ now: tick });
    try {
      const seller = app.client();
      await seller.post('/api/ai/generate-content', { keywords: 'space cat', productType: 'Mug' });
      await seller.post('/api/ai/designs', { prompt: 'space cat', n: 2, size: '512x512', style: 'line-art' });
      await seller.post('/api/ai/generate-tags', { title: 'Space Cat Mug' });
      const res = await seller.get('/api/ai/generations?limit=5');
      expect(res.statusCode).toBe(200);
      const { generations } = ZAiGenerationsResponse.parse(res.json());
      expect(generations.map((g) => [g.kind, g.credits, g.provider])).toEqual([
        ['tags', 1, 'offline'],
        ['design', 2, 'offline'],
        ['content', 1, 'offline'],
      ]);
      expect(generations[1]?.summary).toBe('2 line-art designs: “space cat”');
      expect(generations[2]?.summary).toContain('Space Cat');
      expect((await seller.get('/api/ai/generations?limit=1')).json().generations).toHaveLength(1);

      const other = app.client();
      expect((await other.get('/api/ai/generations')).json()).toEqual({ generations: [] });
      expect((await other.get('/api/ai/generations?limit=0')).statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe('text helpers: credits and provider errors', () => {
  it('answers 429 QUOTA_EXCEEDED when no credit is left, and maps a provider failure, writing nothing', async () => {
    let fail = false;
    const app = await createTestApp({
      now: () => NOW,
      env: { AI_MONTHLY_CREDITS: '1' },
      ai: {
        name: 'stub',
        async generateContent() {
          if (fail) throw new AiProviderError('ACCESS_DENIED', 'Denied.');
          return { title: 'T', description: 'D', tags: ['a'] };
        },
        async analyzeImage() {
          return { title: 'T', description: 'D', tags: ['a'] };
        },
        async generateDesigns() {
          return [];
        },
      },
    });
    try {
      const client = app.client();
      fail = true;
      const denied = await client.post('/api/ai/generate-title', { topic: 'cat' });
      expect(denied.statusCode).toBe(502);
      expect(denied.json()).toMatchObject({ errorType: 'ACCESS_DENIED', message: 'Denied.' });
      const noImages = await client.post('/api/ai/designs', { prompt: 'cat' });
      expect(noImages.statusCode).toBe(502);
      expect(noImages.json().error).toBe('No images generated');
      fail = false;
      expect((await client.post('/api/ai/generate-title', { topic: 'cat' })).json()).toMatchObject({
        title: 'T',
        provider: 'stub',
        creditsRemaining: 0,
      });
      const refused = await client.post('/api/ai/generate-description', { title: 'Cat' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().errorType).toBe('QUOTA_EXCEEDED');
      expect((await client.post('/api/ai/designs', { prompt: 'cat' })).statusCode).toBe(429);
      const rows = await app.deps.db.select().from(aiGenerations);
      expect(rows).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
