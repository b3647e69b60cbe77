import { createHash } from 'node:crypto';
import { ZAiDesignResponse, ZAiError } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import { aiGenerations, designs } from '../src/db/schema';
import { type FakeOpenAi, startFakeOpenAi } from '../src/integrations/ai/fake-openai';
import { OfflineAiProvider } from '../src/integrations/ai/offline.provider';
import { OpenAiProvider } from '../src/integrations/ai/openai.provider';
import type { AiProvider } from '../src/integrations/ai/provider';
import { createTestApp, type TestApp } from './helpers';

const NOW = new Date('2026-05-14T10:00:00Z');
const URL = '/api/ai/designs';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function designRows(db: Db, workspaceId: string) {
  return db.select().from(designs).where(eq(designs.workspaceId, workspaceId));
}
async function generationRows(db: Db, workspaceId: string) {
  return db.select().from(aiGenerations).where(eq(aiGenerations.workspaceId, workspaceId));
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '20', AI_RATE_LIMIT_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/ai/designs, offline provider', () => {
  it('renders n distinct PNG designs at the requested size, stored as designs with source ai, the prompt and thumbnails', async () => {
    const client = t.client();
    const res = await client.post(URL, { prompt: 'retro sunset cat surf club', size: '512x512', n: 3 });
    expect(res.statusCode).toBe(201);
    const body = ZAiDesignResponse.parse(res.json());
    expect(body.provider).toBe('offline');
    expect(body.creditsRemaining).toBe(17);
    expect(body.images).toHaveLength(3);

    const prints: string[] = [];
    for (const image of body.images) {
      expect(image).toMatchObject({
        source: 'ai',
        prompt: 'retro sunset cat surf club',
        type: 'svg',
        width: 512,
        height: 512,
      });
      expect(image.name).toMatch(/^ai-retro-sunset-cat-surf-club-\d\.svg$/);
      const print = await client.get(image.url);
      expect(print.statusCode).toBe(200);
      expect(print.headers['content-type']).toBe('image/png');
      const meta = await sharp(print.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 512, 512]);
      // Real artwork: many colours, not a blank square.
      const stats = await sharp(print.rawPayload).stats();
      expect(stats.channels.some((c) => c.stdev > 20)).toBe(true);
      prints.push(sha(print.rawPayload));

      const thumb = await client.get(image.thumbnailUrl);
      expect(thumb.statusCode).toBe(200);
      const thumbMeta = await sharp(thumb.rawPayload).metadata();
      expect(thumbMeta.width).toBeLessThanOrEqual(512);
      const original = await client.get(image.originalUrl);
      expect(original.body).toContain('<svg');
    }
    expect(new Set(prints).size).toBe(3);

    const workspaceId = await client.workspaceId(t.deps.db);
    const rows = await designRows(t.deps.db, workspaceId);
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.source === 'ai' && r.prompt === 'retro sunset cat surf club')).toBe(true);
    const listed = (await client.get('/api/designs')).json();
    expect(listed.map((d: { id: string }) => d.id).sort()).toEqual(body.images.map((i) => i.id).sort());
    expect(await generationRows(t.deps.db, workspaceId)).toMatchObject([
      { kind: 'design', provider: 'offline', credits: 3, request: { prompt: 'retro sunset cat surf club', n: 3 } },
    ]);
    const stats = (await client.get('/api/dashboard/stats')).json();
    expect(stats.aiCredits).toMatchObject({ used: 3, remaining: 17 });
  });

  it('defaults to one 1024x1024 vector-clean design; each style draws differently; the same seed gives the same image', async () => {
    const client = t.client();
    const first = ZAiDesignResponse.parse((await client.post(URL, { prompt: 'mountain adventure' })).json());
    expect(first.images).toHaveLength(1);
    const image = first.images[0];
    expect(image).toMatchObject({ width: 1024, height: 1024 });
    const again = ZAiDesignResponse.parse((await client.post(URL, { prompt: 'mountain adventure' })).json());
    const printOf = async (url: string) => sha((await client.get(url)).rawPayload);
    expect(await printOf(again.images[0]?.url ?? '')).toBe(await printOf(image?.url ?? ''));

    const hashes = new Set<string>();
    for (const style of ['vector-clean', 'line-art', 'vintage-crest']) {
      const res = await client.post(URL, { prompt: 'coffee first', size: '768x768', style });
      expect(res.statusCode).toBe(201);
      const [img] = ZAiDesignResponse.parse(res.json()).images;
      expect(img).toMatchObject({ width: 768, height: 768 });
      hashes.add(await printOf(img?.url ?? ''));
    }
    expect(hashes.size).toBe(3);
    const svg = (
      await client.get(
        `${(await client.post(URL, { prompt: 'coffee first', style: 'line-art' })).json().images[0].originalUrl}`,
      )
    ).body;
    // Line art is strokes only: every drawn shape has fill none.
    expect(svg).not.toMatch(/<(circle|rect|polygon|path|ellipse)[^>]*fill="#/);
  });

  it('refuses the photo style offline with 422 UNSUPPORTED naming OPENAI_API_KEY, spending and storing nothing', async () => {
    const client = t.client();
    const res = await client.post(URL, { prompt: 'a cat on a beach at golden hour', style: 'photo' });
    expect(res.statusCode).toBe(422);
    const body = ZAiError.parse(res.json());
    expect(body.errorType).toBe('UNSUPPORTED');
    expect(body.message).toContain('OPENAI_API_KEY');
    expect(body.error).toContain('OPENAI_API_KEY');
    const workspaceId = await client.workspaceId(t.deps.db);
    expect(await designRows(t.deps.db, workspaceId)).toHaveLength(0);
    expect(await generationRows(t.deps.db, workspaceId)).toHaveLength(0);
  });

  it.each([
    [{ prompt: '   ' }, 'Please enter a prompt'],
    [{}, 'Please enter a prompt'],
    [{ prompt: 'cat', size: '256x256' }, 'size'],
    [{ prompt: 'cat', n: 5 }, 'n'],
    [{ prompt: 'cat', n: 0 }, 'n'],
    [{ prompt: 'cat', style: 'oil-painting' }, 'style'],
  ])('answers 400 to %j', async (payload, text) => {
    const res = await t.client().post(URL, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(text);
  });
});

describe('POST /api/ai/designs, credits and all-or-nothing', () => {
  it('answers 429 QUOTA_EXCEEDED when n images cost more than is left, writing nothing', async () => {
    const small = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '3' } });
    try {
      const client = small.client();
      expect((await client.post(URL, { prompt: 'star power', n: 2, size: '512x512' })).statusCode).toBe(201);
      const refused = await client.post(URL, { prompt: 'star power', n: 2, size: '512x512' });
      expect(refused.statusCode).toBe(429);
      expect(ZAiError.parse(refused.json()).errorType).toBe('QUOTA_EXCEEDED');
      const workspaceId = await client.workspaceId(small.deps.db);
      expect(await designRows(small.deps.db, workspaceId)).toHaveLength(2);
      // Each design: original, print PNG, thumbnail and working copy.
      expect(await small.deps.storage.list(`${workspaceId}/designs/`)).toHaveLength(8);
      // One credit is left: one image still fits.
      expect((await client.post(URL, { prompt: 'star power', size: '512x512' })).statusCode).toBe(201);
    } finally {
      await small.close();
    }
  });

  it('leaves no design, file or credit when an image fails the pipeline or the credits run out meanwhile', async () => {
    const offline = new OfflineAiProvider();
    let mode: 'broken' | 'race' = 'broken';
    let raceWorkspace = '';
    const provider: AiProvider = {
      name: 'flaky',
      generateContent: (request, facts) => offline.generateContent(request, facts),
      analyzeImage: (request, image, facts) => offline.analyzeImage(request, image, facts),
      async generateDesigns(request) {
        const images = await offline.generateDesigns(request);
        if (mode === 'broken') return [images[0], { format: 'png', data: Buffer.from('not a png at all') }] as never;
        // A parallel call spends the last credits while this one renders.
        await app.deps.db.insert(aiGenerations).values({
          workspaceId: raceWorkspace,
          kind: 'content',
          provider: 'offline',
          request: {},
          credits: 4,
        });
        return images;
      },
    };
    const app = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '5' }, ai: provider });
    try {
      const client = app.client();
      const workspaceId = await client.workspaceId(app.deps.db);
      const broken = await client.post(URL, { prompt: 'wave rider', n: 2, size: '512x512' });
      expect(broken.statusCode).toBe(502);
      expect(broken.json().error).toMatch(/^AI generation failed: ai-wave-rider-2\.png is not/);
      expect(await designRows(app.deps.db, workspaceId)).toHaveLength(0);
      expect(await app.deps.storage.list(`${workspaceId}/`)).toEqual([]);
      expect(await generationRows(app.deps.db, workspaceId)).toHaveLength(0);

      mode = 'race';
      raceWorkspace = workspaceId;
      const raced = await client.post(URL, { prompt: 'wave rider', n: 2, size: '512x512' });
      expect(raced.statusCode).toBe(429);
      expect(raced.json().errorType).toBe('QUOTA_EXCEEDED');
      expect(await designRows(app.deps.db, workspaceId)).toHaveLength(0);
      expect(await app.deps.storage.list(`${workspaceId}/`)).toEqual([]);
      expect(await generationRows(app.deps.db, workspaceId)).toMatchObject([{ kind: 'content', credits: 4 }]);
    } finally {
      await app.close();
    }
  });
});

describe('POST /api/ai/designs with OPENAI_API_KEY (images API)', () => {
  let fake: FakeOpenAi;
  let withOpenAi: TestApp;
  /** The same provider without the SDK's retries, so one failure is one answer. */
  let noRetries: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-configured' });
    // No OPENAI_MODEL or OPENAI_IMAGE_MODEL: the defaults, which the fake serves as OpenAI lists them (active).
    withOpenAi = await createTestApp({
      now: () => NOW,
      env: { OPENAI_API_KEY: 'sk-configured', OPENAI_BASE_URL: fake.url },
    });
    noRetries = await createTestApp({
      now: () => NOW,
      ai: new OpenAiProvider({ apiKey: 'sk-configured', baseURL: fake.url, model: 'gpt-6-luna', maxRetries: 0 }),
    });
  });
  afterAll(async () => {
    await withOpenAi.close();
    await noRetries.close();
    await fake.close();
  });

  it('asks the default gpt-image model in its own shape (no response_format, 1024x1024, PNG) and stores the PNGs at the requested size (768 from 1024)', async () => {
    const client = withOpenAi.client();
    const res = await client.post(URL, { prompt: 'a fox in a misty forest', style: 'photo', size: '768x768', n: 2 });
    expect(res.statusCode).toBe(201);
    const body = ZAiDesignResponse.parse(res.json());
    expect(body.provider).toBe('openai');
    expect(body.images.map((i) => [i.type, i.width, i.height, i.source])).toEqual([
      ['png', 768, 768, 'ai'],
      ['png', 768, 768, 'ai'],
    ]);
    const request = fake.requests.at(-1);
    expect(request?.body).toEqual({
      model: 'gpt-image-2.6-flare',
      prompt: expect.stringContaining('a fox in a misty forest'),
      n: 2,
      size: '1024x1024',
      background: 'opaque',
      output_format: 'png',
    });
    expect(String(request?.body.prompt)).toMatch(/photorealistic/i);
    const print = await client.get(body.images[0]?.url ?? '');
    expect((await sharp(print.rawPayload).metadata()).width).toBe(768);
  });

  it('asks for a transparent PNG for a print design, so the stored design has no background to remove', async () => {
    const client = withOpenAi.client();
    const res = await client.post(URL, { prompt: 'a retro sunset cat', style: 'vector-clean', size: '512x512' });
    expect(res.statusCode).toBe(201);
    expect(fake.requests.at(-1)?.body).toMatchObject({ background: 'transparent', output_format: 'png' });
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('response_format');
    const body = ZAiDesignResponse.parse(res.json());
    const print = await client.get(body.images[0]?.url ?? '');
    const { data, info } = await sharp(print.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([512, 512]);
    // The corner is transparent, the middle is the drawing.
    expect(data[3]).toBe(0);
    expect(data[(256 * 512 + 256) * 4 + 3]).toBe(255);
  });

  it.each([
    [401, 'invalid_api_key', 502, 'INVALID_API_KEY'],
    [429, 'rate_limit_exceeded', 429, 'RATE_LIMITED'],
    [429, 'insufficient_quota', 429, 'QUOTA_EXCEEDED'],
    [400, 'content_policy_violation', 400, 'INVALID_REQUEST'],
    [403, 'unsupported_country_region_territory', 502, 'ACCESS_DENIED'],
    [404, 'model_not_found', 502, 'MODEL_RETIRED'],
    [500, 'server_error', 502, 'PROVIDER_ERROR'],
  ])('maps an images API %i %s to %i %s, storing nothing', async (status, code, ours, errorType) => {
    const client = noRetries.client();
    fake.failNext(status, code);
    const res = await client.post(URL, { prompt: 'a fox', size: '512x512' });
    expect(res.statusCode).toBe(ours);
    expect(res.json().errorType).toBe(errorType);
    const workspaceId = await client.workspaceId(noRetries.deps.db);
    expect(await designRows(noRetries.deps.db, workspaceId)).toHaveLength(0);
    expect(await generationRows(noRetries.deps.db, workspaceId)).toHaveLength(0);
  });

  it('says which message the spec shows for a wrong key and a rate limit', async () => {
    fake.failNext(429, 'rate_limit_exceeded');
    const limited = await noRetries.client().post(URL, { prompt: 'a fox' });
    expect(limited.json().error).toBe('OpenAI rate limit exceeded. Please try again later.');
  });

  it('answers a retired image model (dall-e-2, the old default) with the operator’s words, never "try again"', async () => {
    const retired = await createTestApp({
      now: () => NOW,
      ai: new OpenAiProvider({
        apiKey: 'sk-configured',
        baseURL: fake.url,
        model: 'gpt-6-luna',
        imageModel: 'dall-e-2',
        maxRetries: 0,
      }),
    });
    try {
      const res = await retired.client().post(URL, { prompt: 'a fox', style: 'photo' });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({
        errorType: 'MODEL_RETIRED',
        error: 'The AI provider retired this model (dall-e-2); the operator must choose another (OPENAI_IMAGE_MODEL).',
      });
      expect(JSON.stringify(res.json())).not.toMatch(/try again/i);
      // The answer came from the fake as OpenAI gives it: 404 model_not_found, nothing drawn.
      expect(fake.requests.at(-1)?.body.model).toBe('dall-e-2');
    } finally {
      await retired.close();
    }
  });
});

describe('POST /api/ai/designs against an OpenAI-compatible server of the older images shape', () => {
  let fake: FakeOpenAi;
  let compat: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi({
      apiKey: 'sk-compat',
      models: [
        { id: 'local-chat', kind: 'chat', shutdownDate: null },
        { id: 'local-diffusion', kind: 'legacy-image', shutdownDate: null },
        { id: 'lenient-diffusion', kind: 'legacy-image', shutdownDate: null, lenient: true },
      ],
    });
    compat = await createTestApp({
      now: () => NOW,
      env: {
        OPENAI_API_KEY: 'sk-compat',
        OPENAI_BASE_URL: fake.url,
        OPENAI_MODEL: 'local-chat',
        OPENAI_IMAGE_MODEL: 'local-diffusion',
      },
    });
  });
  afterAll(async () => {
    await compat.close();
    await fake.close();
  });

  it('learns the shape from the server’s refusal, asks again with response_format b64_json, and keeps that shape', async () => {
    const client = compat.client();
    const first = await client.post(URL, { prompt: 'a fox', size: '512x512' });
    expect(first.statusCode).toBe(201);
    const bodies = fake.requests.filter((r) => r.path === '/v1/images/generations').map((r) => r.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toMatchObject({ background: 'transparent', output_format: 'png' });
    expect(bodies[1]).toEqual({
      model: 'local-diffusion',
      prompt: expect.stringContaining('a fox'),
      n: 1,
      size: '512x512',
      response_format: 'b64_json',
    });
    expect(ZAiDesignResponse.parse(first.json()).images[0]).toMatchObject({ type: 'png', width: 512, height: 512 });

    const second = await client.post(URL, { prompt: 'a heron', size: '1024x1024' });
    expect(second.statusCode).toBe(201);
    const after = fake.requests.filter((r) => r.path === '/v1/images/generations').map((r) => r.body);
    expect(after).toHaveLength(3);
    expect(after[2]).toMatchObject({ size: '1024x1024', response_format: 'b64_json' });
  });

  it('asks again for base64 when the server ignores the new parameters and answers with URLs (never fetched)', async () => {
    const lenient = await createTestApp({
      now: () => NOW,
      ai: new OpenAiProvider({
        apiKey: 'sk-compat',
        baseURL: fake.url,
        model: 'local-chat',
        imageModel: 'lenient-diffusion',
        maxRetries: 0,
      }),
    });
    try {
      const before = fake.requests.length;
      const res = await lenient.client().post(URL, { prompt: 'a fox', size: '512x512' });
      expect(res.statusCode).toBe(201);
      const calls = fake.requests.slice(before);
      expect(calls.map((r) => r.path)).toEqual(['/v1/images/generations', '/v1/images/generations']);
      expect(calls[0]?.body).not.toHaveProperty('response_format');
      expect(calls[1]?.body).toMatchObject({ size: '512x512', response_format: 'b64_json' });
    } finally {
      await lenient.close();
    }
  });
});
