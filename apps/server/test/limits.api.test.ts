import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockupDrawingsSettled } from '../src/modules/mockups/mockup-files';
import { createTestApp, type TestApp, TestClient } from './helpers';
import { multipart, type Part, type TextPart } from './support/design-fixtures';

/**
 * Issue 25, point 5: dropping the cookie gives no new limits. New workspaces are limited per client address, AI calls
 * and AI credits are counted per address as well as per workspace, and a workspace's stored files have a quota.
 */

/** A caller with no cookie yet from `address` (each such call makes a workspace). */
const fresh = (t: TestApp, address: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/dashboard/stats', remoteAddress: address, headers });

/** A browser at `address` that keeps its cookie. */
class At extends TestClient {
  constructor(
    t: TestApp,
    private readonly address: string,
  ) {
    super(t.app);
  }
  override request(options: Parameters<TestClient['request']>[0]) {
    return super.request({ ...options, remoteAddress: this.address });
  }
}

describe('new workspaces per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { WORKSPACE_CREATE_PER_HOUR: '3' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 naming the limit after N cookie-less workspaces from one address; others and kept cookies go on', async () => {
    const kept = new At(t, '10.0.0.1');
    expect((await kept.get('/api/dashboard/stats')).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await fresh(t, '10.0.0.1');
      expect(res.statusCode).toBe(200);
      expect(res.cookies.some((c) => c.name === 'pf_session')).toBe(true);
    }
    const refused = await fresh(t, '10.0.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMITED');
    expect(refused.json().error).toMatch(/at most 3 an hour/);
    expect(refused.cookies).toEqual([]);
    // Another address has its own count; the seller who kept the cookie keeps the workspace.
    expect((await fresh(t, '10.0.0.2')).statusCode).toBe(200);
    expect((await kept.get('/api/dashboard/stats')).statusCode).toBe(200);
    // A page load from the limited address still gets the app (no workspace made, no error page).
    expect((await t.app.inject({ method: 'GET', url: '/dashboard', remoteAddress: '10.0.0.1' })).statusCode).not.toBe(
      429,
    );
  });

  it('reads X-Forwarded-For only with TRUST_PROXY', async () => {
    // Without TRUST_PROXY the header is the caller's to invent: 10.0.0.1 is still limited.
    expect((await fresh(t, '10.0.0.1', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(429);
    const proxied = await createTestApp({ env: { WORKSPACE_CREATE_PER_HOUR: '1', TRUST_PROXY: 'true' } });
    try {
      // Behind a proxy every call comes from the proxy's address; the client's is in the header.
      expect((await fresh(proxied, '127.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(200);
      expect((await fresh(proxied, '127.0.0.1', { 'x-forwarded-for': '203.0.113.2' })).statusCode).toBe(200);
      expect((await fresh(proxied, '127.0.0.1', { 'x-forwarded-for': '203.0.113.1' })).statusCode).toBe(429);
    } finally {
      await proxied.close();
    }
  });
});

describe('AI calls and credits per client address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        AI_RATE_LIMIT_PER_MINUTE: '30',
        AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '3',
        AI_MONTHLY_CREDITS: '100',
        AI_MONTHLY_CREDITS_PER_ADDRESS: '1000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('the per-minute limit is not reset by dropping the cookie', async () => {
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<TestClient['post']>> | null;
    for (let i = 0; i < 4; i++) {
      // A new cookie-less caller each time: a new workspace each time.
      last = await new At(t, '10.0.1.1').post('/api/ai/generate-content', { filename: `cat-${i}.png` });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.json().error).toMatch(/from this address: at most 3 a minute/);
    // Another address is not held back.
    expect((await new At(t, '10.0.1.2').post('/api/ai/generate-content', { filename: 'dog.png' })).statusCode).toBe(
      200,
    );
  });

  it('the monthly credits of all workspaces one address made share a cap', async () => {
    const capped = await createTestApp({
      env: { AI_MONTHLY_CREDITS: '100', AI_MONTHLY_CREDITS_PER_ADDRESS: '3' },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await new At(capped, '10.0.2.1').post('/api/ai/generate-content', { filename: `owl-${i}.png` });
        expect(res.statusCode, res.body).toBe(200);
        // Each workspace still sees its own 100 credits less its own call.
        expect(res.json().creditsRemaining).toBe(99);
      }
      const over = await new At(capped, '10.0.2.1').post('/api/ai/generate-content', { filename: 'owl-4.png' });
      expect(over.statusCode).toBe(429);
      expect(over.json().errorType).toBe('QUOTA_EXCEEDED');
      expect(over.json().message).toMatch(/all 3 AI credits an address gets per month/);
      expect(
        (await new At(capped, '10.0.2.2').post('/api/ai/generate-content', { filename: 'owl.png' })).statusCode,
      ).toBe(200);
    } finally {
      await capped.close();
    }
  });
});

describe('storage quota', () => {
  let t: TestApp;
  let client: TestClient;
  let clock = new Date('2026-05-14T10:00:00Z');
  // 0.3 MB: room for one noisy 150x150 PNG (66 KB) and the files the server makes of it (about 270 KB in all), not
  // for a second.
  const QUOTA_MB = 0.3;
  const noisy = (side: number) =>
    sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
      .png()
      .toBuffer();
  const upload = (route: string, parts: (Part | TextPart)[]) => {
    const body = multipart(parts);
    return client.request({ method: 'POST', url: route, payload: body.payload, headers: body.headers });
  };
  /** The dashboard's figure, read afresh (its figures are kept up to 5 s). */
  const stats = async () => {
    clock = new Date(clock.getTime() + 10_000);
    return (await client.get('/api/dashboard/stats')).json().storage as { usedBytes: number; quotaBytes: number };
  };
  /** What the workspace's files really take in storage. */
  const storedBytes = async () => {
    // A placement's full-size file is drawn after its answer: counted once drawn.
    await mockupDrawingsSettled();
    const ws = await client.workspaceId(t.deps.db);
    let sum = 0;
    for (const key of await t.deps.storage.list(`${ws}/`)) sum += (await t.deps.storage.get(key))?.bytes ?? 0;
    return sum;
  };

  beforeAll(async () => {
    t = await createTestApp({ now: () => clock, env: { STORAGE_QUOTA_MB: String(QUOTA_MB) } });
    client = t.client();
  });
  afterAll(async () => {
    await t.close();
  });

  it('the dashboard shows used and quota from the stored files, and an upload that would pass it is refused with 413', async () => {
    expect(await stats()).toEqual({ usedBytes: 0, quotaBytes: Math.round(QUOTA_MB * 1024 * 1024) });
    const firstPng = await noisy(150);
    const first = await upload('/api/designs/upload', [
      { field: 'file', filename: 'first.png', content: firstPng, contentType: 'image/png' },
    ]);
    expect(first.statusCode, first.body).toBe(201);
    const used = await storedBytes();
    // Original, print PNG, working copy and thumbnail: every stored file counts, with its real size.
    expect(used).toBeGreaterThan(firstPng.length);
    expect(used).toBeLessThan(QUOTA_MB * 1024 * 1024);
    expect((await stats()).usedBytes).toBe(used);

    const second = await upload('/api/designs/upload', [
      { field: 'file', filename: 'second.png', content: await noisy(150), contentType: 'image/png' },
    ]);
    expect(second.statusCode).toBe(413);
    expect(second.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(second.json().error).toMatch(/second\.png .* would pass this workspace's storage quota of 0\.3 MB/);
    expect((await stats()).usedBytes).toBe(used);

    // The wizard's uploads and a product made with its file are refused the same way.
    const files = await upload('/api/upload/files', [
      { field: 'files', filename: 'third.png', content: await noisy(150), contentType: 'image/png' },
    ]);
    expect(files.json().files[0]).toMatchObject({ name: 'third.png', status: 413 });
    expect(files.json().files[0].error).toMatch(/storage quota of 0\.3 MB/);
    const product = await upload('/api/products', [
      { field: 'title', value: 'Full' },
      { field: 'price', value: '20' },
      { field: 'productType', value: 'poster' },
      { field: 'file', filename: 'fourth.png', content: await noisy(150), contentType: 'image/png' },
    ]);
    expect(product.statusCode).toBe(413);
    expect(product.json().error).toMatch(/storage quota of 0\.3 MB/);

    // Mockups count too (their size is known once drawn): once the quota is reached, no new ones.
    const mockup = () =>
      client.post('/api/mockups', {
        designId: first.json().id,
        productType: 'mug',
        templateId: 'mug-right',
        adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
      });
    let drawn = 0;
    let refusedMockup = await mockup();
    while (refusedMockup.statusCode === 201 && drawn < 20) {
      drawn += 1;
      const bytes = await storedBytes(); // once its full-size file is drawn (after the answer)
      expect((await stats()).usedBytes).toBe(bytes);
      refusedMockup = await mockup();
    }
    expect(drawn).toBeGreaterThan(0);
    expect(refusedMockup.statusCode, refusedMockup.body).toBe(413);
    expect(refusedMockup.json().error).toMatch(/storage quota of 0\.3 MB is full/);

    // Deleting frees the room: its files are no longer counted.
    expect((await client.delete(`/api/designs/${first.json().id}`)).statusCode).toBe(204);
    expect(await storedBytes()).toBe(0);
    expect((await stats()).usedBytes).toBe(0);
    const again = await upload('/api/designs/upload', [
      { field: 'file', filename: 'second.png', content: await noisy(150), contentType: 'image/png' },
    ]);
    expect(again.statusCode, again.body).toBe(201);
  });
});
