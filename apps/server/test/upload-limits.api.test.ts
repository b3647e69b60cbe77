import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { UPLOAD_ID_HEADER } from '@podforge/contract';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { designs, products } from '../src/db/schema';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { type HostileFile, namedBombs, oddNames } from './hostile/corpus';
import { multipart, type Part, pngOf } from './support/design-fixtures';

/**
 * Issue 14: no upload can take the service down. Every cap refuses with 422 naming the limit before decoding; a
 * file that passes the decoder's limits is refused and its decoder replaced; files wait in order for a decoder and
 * the browser can read its place; a client that goes away leaves nothing behind. (The whole corpus, with memory,
 * is `npm run test:hostile`.)
 */

let t: TestApp;
let client: TestClient;

const upload = (c: TestClient, part: Omit<Part, 'field'>, headers: Record<string, string> = {}) => {
  const body = multipart([{ field: 'file', ...part }]);
  return c.request({
    method: 'POST',
    url: '/api/designs/upload',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
};
const rows = async (table: typeof designs | typeof products = designs) => {
  const [row] = await t.deps.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
};
const tmpFiles = () => {
  const dir = path.join(t.dataDir, 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

beforeAll(async () => {
  t = await createTestApp({ env: { DECODE_CONCURRENCY: '1', DECODE_TIME_LIMIT_SECONDS: '5' } });
  client = t.client();
});
afterAll(async () => {
  await t?.close();
});

describe('caps refuse before decoding, with 422 naming the limit', () => {
  const refused = namedBombs().filter(
    (f): f is HostileFile & { reason: RegExp } => f.expect === 'refused' && f.reason !== undefined,
  );

  it.each(refused.map((f) => [f.name, f] as const))('%s', async (_name, file) => {
    const before = { rows: await rows(), files: await t.deps.storage.list('') };
    const res = await upload(client, { filename: file.name, content: await file.make() });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect(res.json().error).toContain(file.name);
    expect(res.json().error).toMatch(file.reason);
    expect(await rows()).toBe(before.rows);
    expect(await t.deps.storage.list('')).toEqual(before.files);
    expect(tmpFiles()).toEqual([]);
  });

  it('refuses a PDF of 5,000 pages from its page tree, before any decoder sees it', async () => {
    const file = namedBombs().find((f) => f.name === 'pdf-5000-pages.pdf') as HostileFile;
    const jobsBefore = t.deps.decodePool.stats.jobs;
    const res = await upload(client, { filename: 'book.pdf', content: await file.make() });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error).toBe('book.pdf has 5,000 pages; the limit is 100');
    expect(t.deps.decodePool.stats.jobs).toBe(jobsBefore);
  });

  it("says 'design.svg has 200,000 elements; the limit is 20,000' through all three calls", async () => {
    const file = namedBombs().find((f) => f.name === 'svg-200000-elements.svg') as HostileFile;
    const content = await file.make();
    const message = 'design.svg has 200,000 elements; the limit is 20,000';

    const one = await upload(client, { filename: 'design.svg', content });
    expect(one.statusCode).toBe(422);
    expect(one.json().error).toBe(message);

    const files = multipart([{ field: 'files', filename: 'design.svg', content }]);
    const many = await client.request({ method: 'POST', url: '/api/upload/files', ...files });
    expect(many.json().files).toEqual([{ name: 'design.svg', error: message, status: 422 }]);

    const productsBefore = await rows(products);
    const form = multipart([
      { field: 'title', value: 'Too complex' },
      { field: 'price', value: '20' },
      { field: 'productType', value: 'poster' },
      { field: 'file', filename: 'design.svg', content },
    ]);
    const product = await client.request({ method: 'POST', url: '/api/products', ...form });
    expect(product.statusCode).toBe(422);
    expect(product.json().error).toBe(message);
    expect(await rows(products)).toBe(productsBefore);
    expect(tmpFiles()).toEqual([]);
  });

  it('keeps odd names safe and answers 4xx, never 5xx, for damaged files', async () => {
    for (const file of oddNames()) {
      const res = await upload(client, { filename: file.name, content: await file.make() });
      if (file.expect === 'accepted') expect(res.statusCode, `${file.name}: ${res.body}`).toBe(201);
      else expect(res.json().error).toMatch(file.reason as RegExp);
    }
    const png = await pngOf(40, 40);
    for (let cut = 10; cut < png.length; cut += Math.ceil(png.length / 6)) {
      const res = await upload(client, { filename: `cut-${cut}.png`, content: png.subarray(0, cut) });
      expect([415, 422], res.body).toContain(res.statusCode);
    }
    expect(tmpFiles()).toEqual([]);
  });
});

describe('the decoder is bounded', () => {
  it('refuses a file that passes the wall-clock limit with 422, and the next file gets a fresh decoder', async () => {
    // Its own app with a limit no machine decodes this blur within, so the outcome does not hang on the machine's
    // speed or load.
    const quick = await createTestApp({ env: { DECODE_CONCURRENCY: '1', DECODE_TIME_LIMIT_SECONDS: '0.3' } });
    try {
      const c = quick.client();
      const bomb = namedBombs().find((f) => f.name === 'svg-blur-huge.svg') as HostileFile;
      const killedBefore = quick.deps.decodePool.stats.killed;
      const res = await upload(c, { filename: 'blur.svg', content: await bomb.make() });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().error).toBe('blur.svg took longer than 0.3 s to process; the limit is 0.3 s');
      expect(quick.deps.decodePool.stats.killed).toBe(killedBefore + 1);
    } finally {
      await quick.close();
    }

    const next = await upload(client, { filename: 'after.png', content: await pngOf(30, 20) });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json()).toMatchObject({ width: 30, height: 20 });
    expect(tmpFiles()).toEqual([]);
  });
});

describe('the decode queue', () => {
  it('decodes at most DECODE_CONCURRENCY files at once; the others wait in order and report their place', async () => {
    const pool = t.deps.decodePool;
    expect(pool.concurrency).toBe(1);
    const release = await pool.lease({ label: 'held by the test' });
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const queued = (n: number) =>
      new Promise<void>((resolve) => {
        const onQueued = ({ waiting }: { waiting: number }) => {
          if (waiting === n) {
            pool.off('queued', onQueued);
            resolve();
          }
        };
        pool.on('queued', onQueued);
      });

    // The decodes start in the order the files came (their answers may then finish in either order).
    const startedOrder: string[] = [];
    const onStarted = ({ label }: { label: string }) => startedOrder.push(label);
    pool.on('started', onStarted);
    const firstQueued = queued(1);
    const first = upload(
      client,
      { filename: 'first.png', content: await pngOf(20, 20) },
      { [UPLOAD_ID_HEADER]: ids[0] as string },
    );
    await firstQueued;
    const secondQueued = queued(2);
    const second = upload(
      client,
      { filename: 'second.png', content: await pngOf(20, 20) },
      { [UPLOAD_ID_HEADER]: ids[1] as string },
    );
    await secondQueued;

    expect((await client.get(`/api/designs/queue/${ids[0]}`)).json()).toEqual({
      uploadId: ids[0],
      state: 'waiting',
      position: 1,
      waiting: 2,
    });
    expect((await client.get(`/api/designs/queue/${ids[1]}`)).json()).toMatchObject({
      state: 'waiting',
      position: 2,
      waiting: 2,
    });
    // Another workspace cannot see this workspace's upload.
    expect((await t.client().get(`/api/designs/queue/${ids[0]}`)).json()).toMatchObject({
      state: 'unknown',
      position: null,
    });
    expect((await client.get('/api/designs/queue/not-a-uuid')).statusCode).toBe(400);

    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(201);
    pool.off('started', onStarted);
    expect(startedOrder).toEqual(['first.png', 'second.png']);
    expect((await client.get(`/api/designs/queue/${ids[0]}`)).json()).toMatchObject({ state: 'unknown' });
  });
});

describe('a client that disconnects', () => {
  let url: string;
  let cookie: string;

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await client.get('/api/dashboard/stats');
    cookie = client.cookie as string;
  });

  /** Sends an upload over a real socket; `destroy` hangs up without reading an answer. */
  function rawUpload(route: string, parts: Parameters<typeof multipart>[0], uploadId: string) {
    const { payload, headers } = multipart(parts);
    const req = http.request(`${url}${route}`, {
      method: 'POST',
      headers: { ...headers, cookie, 'content-length': String(payload.length), [UPLOAD_ID_HEADER]: uploadId },
    });
    req.on('error', () => {});
    req.end(payload);
    return { destroy: () => req.destroy() };
  }

  const waitFor = (event: 'queued' | 'started' | 'abandoned', ticketEnd: string) =>
    new Promise<void>((resolve) => {
      const on = ({ ticket }: { ticket: string | null }) => {
        if (ticket?.endsWith(ticketEnd)) {
          t.deps.decodePool.off(event, on);
          resolve();
        }
      };
      t.deps.decodePool.on(event, on);
    });

  it.each([
    ['/api/designs/upload', 'file'],
    ['/api/upload/files', 'files'],
    ['/api/products', 'file'],
  ])('while its file waits for a decoder (%s): the file leaves the queue, nothing is kept', async (route, field) => {
    const before = { designs: await rows(), products: await rows(products), files: await t.deps.storage.list('') };
    const release = await t.deps.decodePool.lease({ label: 'held by the test' });
    const id = crypto.randomUUID();
    const queued = waitFor('queued', id);
    const abandoned = waitFor('abandoned', id);
    const fields =
      route === '/api/products'
        ? [
            { field: 'title', value: 'Gone' },
            { field: 'price', value: '20' },
            { field: 'productType', value: 'poster' },
          ]
        : [];
    const req = rawUpload(route, [...fields, { field, filename: 'gone.png', content: await pngOf(64, 64) }], id);
    await queued;
    expect(tmpFiles().length).toBeGreaterThan(0);
    req.destroy();
    await abandoned;
    await vi.waitFor(() => expect(tmpFiles()).toEqual([]), { timeout: 20_000 });
    release();
    expect(t.deps.decodePool.load).toEqual({ running: 0, waiting: 0 });
    expect(await rows()).toBe(before.designs);
    expect(await rows(products)).toBe(before.products);
    expect(await t.deps.storage.list('')).toEqual(before.files);
  });

  it('while its file is being decoded: the work stops and nothing is kept', async () => {
    const before = { designs: await rows(), files: await t.deps.storage.list('') };
    const id = crypto.randomUUID();
    const started = waitFor('started', id);
    const req = rawUpload(
      '/api/designs/upload',
      [{ field: 'file', filename: 'big.png', content: await pngOf(3000, 3000) }],
      id,
    );
    await started;
    req.destroy();
    await vi.waitFor(() => expect(tmpFiles()).toEqual([]), { timeout: 20_000 });
    await vi.waitFor(() => expect(t.deps.decodePool.load).toEqual({ running: 0, waiting: 0 }), { timeout: 20_000 });
    expect(await rows()).toBe(before.designs);
    expect(await t.deps.storage.list('')).toEqual(before.files);
    // The decoder is usable afterwards.
    const next = await upload(client, { filename: 'next.png', content: await pngOf(10, 10) });
    expect(next.statusCode, next.body).toBe(201);
  });
});
