import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL, ZAiError, ZAnalyzedImageContent } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiGenerations, designs } from '../src/db/schema';
import { type FakeOpenAi, startFakeOpenAi } from '../src/integrations/ai/fake-openai';
import { OpenAiProvider } from '../src/integrations/ai/openai.provider';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { multipart, type Part, sixteenBitPng, svgOf, zTxtBombPng } from './support/design-fixtures';

const NOW = new Date('2026-05-14T10:00:00Z');
const URL = '/api/ai/analyze-image';

/** A 400x500 canvas, transparent but for a red disc in the middle. */
const redOnTransparent = () =>
  sharp({ create: { width: 400, height: 500, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><circle cx="200" cy="250" r="150" fill="#d81e1e"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();

/** Adds PNG tEXt chunks (keyword, text) before IEND, as design tools write a title. */
function withTextChunks(png: Buffer, entries: [string, string][]): Buffer {
  const chunks = entries.map(([keyword, text]) => {
    const data = Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0]), Buffer.from(text, 'latin1')]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(typed));
    return Buffer.concat([length, typed, crc]);
  });
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), ...chunks, png.subarray(iend)]);
}

function post(client: TestClient, image: Omit<Part, 'field'> | null, fields: Record<string, string> = {}) {
  const { payload, headers } = multipart([
    ...Object.entries(fields).map(([field, value]) => ({ field, value })),
    ...(image ? [{ field: 'image', ...image }] : []),
  ]);
  return client.request({ method: 'POST', url: URL, payload, headers });
}

async function generations(t: TestApp, client: TestClient) {
  const workspaceId = await client.workspaceId(t.deps.db);
  return t.deps.db.select().from(aiGenerations).where(eq(aiGenerations.workspaceId, workspaceId));
}

describe('POST /api/ai/analyze-image, offline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '10', AI_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads a red-on-transparent PNG (red, transparent, portrait 4:5, for light garments) and writes the listing from it', async () => {
    const client = t.client();
    const res = await post(
      client,
      { filename: 'retro-sunset_cat-v2.png', content: await redOnTransparent(), contentType: 'image/png' },
      { productType: 'tshirt', targetAudience: 'women', platform: 'etsy' },
    );
    expect(res.statusCode).toBe(200);
    const body = ZAnalyzedImageContent.parse(res.json());
    expect(body.analysis).toMatchObject({
      width: 400,
      height: 500,
      orientation: 'portrait',
      aspect: '4:5',
      transparent: true,
      garmentFit: 'light',
      nameWords: 'Retro Sunset Cat',
    });
    expect(body.analysis.colors[0]).toMatchObject({ name: 'red' });
    expect(body.analysis.colors).toHaveLength(1);
    expect(body.analysis.transparentShare).toBeGreaterThan(0.5);
    expect(body.title).toContain('Retro Sunset Cat');
    expect(body.title).toContain('Women');
    expect(body.title.length).toBeLessThanOrEqual(140);
    expect(body.description).toMatch(/portrait \(4:5\) design in red on a transparent background/);
    expect(body.description).toMatch(/shows up best on light colours/);
    expect(body.tags).toContain('red t-shirt');
    expect(body.tags.length).toBeLessThanOrEqual(13);
    expect(body.price).toBeGreaterThan(0);
    expect(body.variants[0]?.name).toBe('Size');
    expect(body).toMatchObject({ provider: 'offline', creditsRemaining: 9 });

    const rows = await generations(t, client);
    expect(rows.map((r) => [r.kind, r.credits])).toEqual([['analysis', 1]]);
    // The picture is not kept: no design, no file left behind.
    const workspaceId = await client.workspaceId(t.deps.db);
    expect(await t.deps.db.select().from(designs).where(eq(designs.workspaceId, workspaceId))).toEqual([]);
    const tmp = path.join(t.dataDir, 'tmp');
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
    const recent = await client.get('/api/ai/generations');
    expect(recent.json().generations[0]).toMatchObject({ kind: 'analysis' });
    expect(recent.json().generations[0].summary).toContain('retro-sunset_cat-v2.png');
  });

  it("uses the design's own metadata: a PNG's Title and Keywords chunks, an SVG's <title> and <desc>", async () => {
    const client = t.client();
    const png = withTextChunks(await redOnTransparent(), [
      ['Title', 'Midnight Fox'],
      ['Keywords', 'fox, night sky'],
    ]);
    const fromPng = await post(client, { filename: 'IMG_2041.png', content: png });
    expect(fromPng.statusCode).toBe(200);
    const a = ZAnalyzedImageContent.parse(fromPng.json());
    expect(a.analysis.metadata).toEqual({ title: 'Midnight Fox', description: null, keywords: ['fox', 'night sky'] });
    expect(a.title).toContain('Midnight Fox');
    expect(a.tags).toEqual(expect.arrayContaining(['midnight fox', 'night sky']));

    const svg = svgOf(600, 300, '<title>Mountain Club</title><desc>Pine trees under a full moon</desc>');
    const fromSvg = await post(client, { filename: 'untitled.svg', content: svg }, { productType: 'mug' });
    expect(fromSvg.statusCode).toBe(200);
    const b = ZAnalyzedImageContent.parse(fromSvg.json());
    expect(b.analysis).toMatchObject({
      orientation: 'landscape',
      aspect: '2:1',
      transparent: false,
      garmentFit: 'any',
    });
    expect(b.analysis.colors[0]?.name).toBe('blue');
    expect(b.title).toContain('Mountain Club');
    expect(b.title).toContain('Mug');
    expect(b.description).toContain('Pine trees under a full moon.');
  });

  it('names colours when the file says nothing about itself', async () => {
    const res = await post(t.client(), { filename: 'design.png', content: await redOnTransparent() });
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toMatch(/^Red Graphic/);
  });

  it('checks the file like an upload and keeps nothing: lying type 415, too large 413, no image 400, bad field 400', async () => {
    const client = t.client();
    const text = await post(client, { filename: 'cat.png', content: Buffer.from('just some text, not a picture') });
    expect(text.statusCode).toBe(415);
    expect(text.json().error).toBe('cat.png is not a PNG, JPEG, SVG or PDF file (checked by its content)');

    const big = Buffer.concat([await redOnTransparent(), Buffer.alloc(DESIGN_MAX_BYTES)]);
    const tooLarge = await post(client, { filename: 'big.png', content: big });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toBe(`big.png is larger than ${DESIGN_MAX_LABEL}`);

    const none = await post(client, null, { productType: 'tshirt' });
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatch(/field named "image"/);

    const badType = await post(
      client,
      { filename: 'cat.png', content: await redOnTransparent() },
      { productType: 'cape' },
    );
    expect(badType.statusCode).toBe(400);
    expect(badType.json().error).toMatch(/productType/);

    expect(await generations(t, client)).toEqual([]);
    const tmp = path.join(t.dataDir, 'tmp');
    expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
  });

  it('answers 429 QUOTA_EXCEEDED with no credits left, before reading anything into a listing', async () => {
    const small = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '1' } });
    try {
      const client = small.client();
      expect((await post(client, { filename: 'a.png', content: await redOnTransparent() })).statusCode).toBe(200);
      const refused = await post(client, { filename: 'a.png', content: await redOnTransparent() });
      expect(refused.statusCode).toBe(429);
      expect(ZAiError.parse(refused.json())).toMatchObject({ errorType: 'QUOTA_EXCEEDED', provider: 'credits' });
      expect(await generations(small, client)).toHaveLength(1);
    } finally {
      await small.close();
    }
  });
});

describe('POST /api/ai/analyze-image, hostile files (issue 25): decoded in the pool, never in the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '10', AI_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers a 16x16 PNG whose zTXt inflates to 1 GiB with a quick 422 naming the 1 MB metadata limit', async () => {
    const client = t.client();
    const bomb = zTxtBombPng(1024 ** 3);
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const res = await post(client, { filename: 'bomb.png', content: bomb });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(
      'bomb.png has metadata (zTXt chunks) that inflates to more than 1 MB; the limit is 1 MB',
    );
    // Refused at the metadata check, before libpng: well under a second on a quiet machine; the hostile goal is 10 s.
    expect(ms).toBeLessThan(10_000);
    // The server process never inflated it (it held 2.5 GB afterwards before the fix).
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    expect(t.deps.decodePool.stats.jobs).toBeGreaterThan(0);
    expect(await generations(t, client)).toEqual([]);
  });

  it('decodes a 0.5 MB 16-bit 6500x6500 PNG in the decode pool: the server process does not grow by its 338 MB', async () => {
    const client = t.client();
    const rssBefore = process.memoryUsage().rss;
    const jobsBefore = t.deps.decodePool.stats.jobs;
    const res = await post(client, { filename: 'deep.png', content: sixteenBitPng(6500) });
    // Legal by the caps (338 MB decoded, the limit is 400): analysed, or refused at the pool's time or memory
    // limit on a busy machine, never a 5xx.
    expect([200, 422]).toContain(res.statusCode);
    if (res.statusCode === 200) expect(res.json().analysis).toMatchObject({ width: 6500, height: 6500 });
    else expect(res.json().error).toMatch(/^deep\.png (took longer|needs more|could not be processed)/);
    expect(t.deps.decodePool.stats.jobs).toBe(jobsBefore + 1);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  }, 30_000);

  it('refuses a PNG over the upload header caps before decoding it (same caps as uploads)', async () => {
    const client = t.client();
    const jobsBefore = t.deps.decodePool.stats.jobs;
    const res = await post(client, { filename: 'wide.png', content: sixteenBitPng(25_000).subarray(0, 200) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('wide.png is 25,000x25,000 pixels: a side of 25,000 pixels; the limit is 20,000');
    expect(t.deps.decodePool.stats.jobs).toBe(jobsBefore);
  });
});

describe('POST /api/ai/analyze-image with OPENAI_API_KEY (vision, structured output)', () => {
  let fake: FakeOpenAi;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-configured' });
    t = await createTestApp({
      now: () => NOW,
      ai: new OpenAiProvider({ apiKey: 'sk-configured', baseURL: fake.url, model: 'gpt-6-luna', maxRetries: 0 }),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('sends the image as a data URL with the measured facts and a json_schema response format', async () => {
    const client = t.client();
    const res = await post(client, { filename: 'retro-sunset_cat.png', content: await redOnTransparent() });
    expect(res.statusCode).toBe(200);
    const body = ZAnalyzedImageContent.parse(res.json());
    expect(body.provider).toBe('openai');
    expect(body.title).toBe('Seen Retro Sunset Cat T-Shirt');
    expect(body.analysis.colors[0]?.name).toBe('red');

    const sent = fake.requests.at(-1)?.body as {
      model: string;
      response_format: { type: string };
      messages: { role: string; content: unknown }[];
    };
    expect(sent.model).toBe('gpt-6-luna');
    expect(sent.response_format.type).toBe('json_schema');
    const parts = sent.messages.find((m) => m.role === 'user')?.content as {
      type: string;
      text?: string;
      image_url?: { url: string };
    }[];
    const image = parts.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
    expect(image).toMatch(/^data:image\/png;base64,/);
    const decoded = await sharp(Buffer.from(image.split(',')[1] ?? '', 'base64')).metadata();
    expect([decoded.width, decoded.height]).toEqual([400, 500]);
    const text = JSON.parse(parts.find((p) => p.type === 'text')?.text ?? '{}');
    expect(text.measured).toMatchObject({ colours: ['red'], transparentBackground: true, orientation: 'portrait' });
    expect(await generations(t, client)).toHaveLength(1);
  });

  it.each([
    [429, 'insufficient_quota', 429, 'QUOTA_EXCEEDED'],
    [401, 'invalid_api_key', 502, 'INVALID_API_KEY'],
    [403, 'unsupported_country_region_territory', 502, 'ACCESS_DENIED'],
    [404, 'model_not_found', 502, 'MODEL_RETIRED'],
    [429, 'rate_limit_exceeded', 429, 'RATE_LIMITED'],
    [500, 'server_error', 502, 'PROVIDER_ERROR'],
  ])('maps OpenAI %i %s to %i %s, spending no credit', async (status, code, ours, errorType) => {
    const client = t.client();
    fake.failNext(status, code);
    const res = await post(client, { filename: 'cat.png', content: await redOnTransparent() });
    expect(res.statusCode).toBe(ours);
    expect(ZAiError.parse(res.json())).toMatchObject({ errorType, provider: 'openai' });
    expect(await generations(t, client)).toEqual([]);
  });
});
