import fs from 'node:fs';
import path from 'node:path';
import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL } from '@podforge/contract';
import { count } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designs } from '../src/db/schema';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { jpegOf, multipart, type Part, pdfOf, pixelBombPng, pngOf, svgOf } from './support/design-fixtures';
import { startS3Fake } from './support/s3-fake';

const upload = (client: TestClient, part: Omit<Part, 'field'>) => {
  const { payload, headers } = multipart([{ field: 'file', ...part }]);
  return client.request({ method: 'POST', url: '/api/designs/upload', payload, headers });
};

async function storedFiles(t: TestApp): Promise<string[]> {
  return t.deps.storage.list('');
}
async function designRows(t: TestApp): Promise<number> {
  const [row] = await t.deps.db.select({ n: count() }).from(designs);
  return row?.n ?? 0;
}

/** The same upload behaviour on local disk and on S3-compatible storage. */
describe.each([
  ['local disk', false],
  ['S3-compatible storage', true],
])('designs on %s', (_label, useS3) => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startS3Fake>> | null = null;
  let client: TestClient;

  beforeAll(async () => {
    if (useS3) s3 = await startS3Fake();
    t = await createTestApp({
      env: s3
        ? {
            S3_BUCKET: 'designs-test',
            S3_ENDPOINT: s3.endpoint,
            S3_REGION: 'us-east-1',
            S3_ACCESS_KEY_ID: 'test',
            S3_SECRET_ACCESS_KEY: 'test',
            S3_FORCE_PATH_STYLE: 'true',
          }
        : {},
    });
    client = t.client();
  });
  afterAll(async () => {
    await t.close();
    await s3?.close();
  });

  it.each([
    ['PNG', 'art.png', () => pngOf(640, 480), 'png', 640, 480],
    ['JPEG', 'photo.jpeg', () => jpegOf(300, 700), 'jpeg', 300, 700],
    ['SVG', 'logo.svg', async () => svgOf(120, 80), 'svg', 120, 80],
    // A 200x300 pt page renders at 300 dpi: 833x1250 px.
    ['PDF', 'flyer.pdf', async () => pdfOf(200, 300), 'pdf', 833, 1250],
  ] as const)(
    'accepts a real %s file with its dimensions, print PNG and thumbnail',
    async (_t, name, make, type, w, h) => {
      const content = await make();
      const res = await upload(client, { filename: name, content });
      expect(res.statusCode, res.body).toBe(201);
      const design = res.json();
      expect(design).toMatchObject({ name, type, width: w, height: h, source: 'upload' });
      expect(design.url).toBe(`/api/designs/${design.id}/file/print`);
      expect(design.thumbnailUrl).toBe(`/api/designs/${design.id}/file/thumbnail`);

      const print = await client.get(design.url);
      expect(print.statusCode).toBe(200);
      expect(print.headers['content-type']).toBe('image/png');
      expect(print.headers['x-content-type-options']).toBe('nosniff');
      const printMeta = await sharp(print.rawPayload).metadata();
      expect([printMeta.format, printMeta.width, printMeta.height]).toEqual(['png', w, h]);

      const thumb = await client.get(design.thumbnailUrl);
      expect(thumb.statusCode).toBe(200);
      const thumbMeta = await sharp(thumb.rawPayload).metadata();
      expect(thumbMeta.format).toBe('png');
      expect(Math.max(thumbMeta.width ?? 0, thumbMeta.height ?? 0)).toBe(Math.min(512, Math.max(w, h)));

      const original = await client.get(`/api/designs/${design.id}/file/original`);
      expect(original.statusCode).toBe(200);
      expect(original.headers['x-content-type-options']).toBe('nosniff');
      if (type === 'svg' || type === 'pdf') {
        expect(original.headers['content-disposition']).toMatch(/^attachment; filename="/);
      }
      expect(original.headers['content-type']).toBe(
        { png: 'image/png', jpeg: 'image/jpeg', svg: 'image/svg+xml', pdf: 'application/pdf' }[type],
      );
      if (type !== 'svg') expect(original.rawPayload.equals(content)).toBe(true);
      expect(design.size).toBe(original.rawPayload.length);

      // A PNG is its own print PNG (nothing re-encoded); any other type's print PNG keeps every colour (sharp's
      // `effort` once made it a 256-colour palette PNG).
      if (type === 'png') expect(print.rawPayload.equals(content)).toBe(true);
      else expect(printMeta.isPalette).toBe(false);

      // The working copy mockups render from: the print PNG at most 2000 px a side, made in the decode pool.
      const ws = await client.workspaceId(t.deps.db);
      const keys = await t.deps.storage.list(`${ws}/designs/${design.id}/`);
      expect(keys.sort()).toEqual(
        ['original', 'print', 'thumbnail', 'working'].map((k) => expect.stringContaining(`/${k}.`)),
      );
      const working = await t.deps.storage.read(`${ws}/designs/${design.id}/working.png`);
      const workingMeta = await sharp(working ?? Buffer.alloc(0)).metadata();
      expect([workingMeta.format, workingMeta.width, workingMeta.height]).toEqual(['png', w, h]);
    },
  );

  it('makes a working copy of at most 2000 px a side from a print-size design, and DELETE removes it', async () => {
    const res = await upload(client, { filename: 'print.png', content: await pngOf(2600, 3120) });
    expect(res.statusCode, res.body).toBe(201);
    const design = res.json();
    const ws = await client.workspaceId(t.deps.db);
    const working = await t.deps.storage.read(`${ws}/designs/${design.id}/working.png`);
    const meta = await sharp(working ?? Buffer.alloc(0)).metadata();
    expect([meta.width, meta.height]).toEqual([1667, 2000]);
    expect((await client.delete(`/api/designs/${design.id}`)).statusCode).toBe(204);
    expect(await t.deps.storage.list(`${ws}/designs/${design.id}/`)).toEqual([]);
  });

  describe('hostile and broken files are refused and leave nothing behind', () => {
    const bigFile = () => Buffer.alloc(DESIGN_MAX_BYTES + 1, 0x41);
    it.each([
      ['SVG with <script>', 'a.svg', async () => svgOf(10, 10, '<script>alert(1)</script>'), 422, /<script>/],
      [
        'SVG with onload',
        'b.svg',
        async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)" width="5" height="5"/>'),
        422,
        /onload/,
      ],
      [
        'SVG with javascript: href',
        'c.svg',
        async () => svgOf(10, 10, '<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'),
        422,
        /javascript:/,
      ],
      [
        'SVG with external <image>',
        'd.svg',
        async () => svgOf(10, 10, '<image href="http://198.51.100.1/x.png" width="5" height="5"/>'),
        422,
        /not a fragment/,
      ],
      [
        'SVG with data: href',
        'd2.svg',
        async () => svgOf(10, 10, '<image href="data:image/png;base64,AAAA" width="5" height="5"/>'),
        422,
        /data:/,
      ],
      [
        'SVG with <!ENTITY> expansion',
        'e.svg',
        async () =>
          Buffer.from(
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
          ),
        422,
        /DOCTYPE or entities/,
      ],
      [
        'SVG with foreignObject',
        'f.svg',
        async () => svgOf(10, 10, '<foreignObject width="5" height="5"><p>hi</p></foreignObject>'),
        422,
        /foreignObject/i,
      ],
      [
        'SVG with a style import',
        'g.svg',
        async () => svgOf(10, 10, '<style>@import url(http://198.51.100.1/a.css);</style>'),
        422,
        /<style>/,
      ],
      ['PNG renamed .pdf', 'image.pdf', () => pngOf(20, 20), 415, /PNG file by its content.*\.pdf/],
      [
        'HTML renamed .png',
        'page.png',
        async () => Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
        415,
        /not a PNG, JPEG, SVG or PDF/,
      ],
      ['truncated PNG', 'cut.png', async () => (await pngOf(400, 400)).subarray(0, 300), 422, /not a valid PNG/],
      [
        '20000x20000 PNG of a few KB',
        'bomb.png',
        async () => pixelBombPng(20000, 20000),
        422,
        /20,000x20,000 pixels \(400 megapixels\); the limit is 100 megapixels/,
      ],
      ['0-byte file', 'empty.png', async () => Buffer.alloc(0), 422, /empty/],
      ['50 MB + 1 byte', 'huge.png', async () => bigFile(), 413, /larger than 50 MB/],
      [
        'PDF that cannot be rendered',
        'broken.pdf',
        async () => Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\ngarbage'),
        422,
        /PDF that can be rendered/,
      ],
    ] as const)('%s', async (_label, filename, make, status, message) => {
      const filesBefore = await storedFiles(t);
      const rowsBefore = await designRows(t);
      const res = await upload(client, { filename, content: await make() });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error).toContain(filename);
      expect(res.json().error).toMatch(message);
      expect(await storedFiles(t)).toEqual(filesBefore);
      expect(await designRows(t)).toBe(rowsBefore);
      const tmp = path.join(t.dataDir, 'tmp');
      expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
    });

    it('POST /api/upload/files keeps the good files and names the refused ones', async () => {
      const rowsBefore = await designRows(t);
      const { payload, headers } = multipart([
        { field: 'files', filename: 'one.png', content: await pngOf(50, 60) },
        { field: 'files', filename: 'evil.svg', content: svgOf(10, 10, '<script>x()</script>') },
        { field: 'files', filename: 'two.jpg', content: await jpegOf(70, 40) },
      ]);
      const res = await client.request({ method: 'POST', url: '/api/upload/files', payload, headers });
      expect(res.statusCode, res.body).toBe(200);
      const { files } = res.json();
      expect(files).toHaveLength(3);
      expect(files[0]).toMatchObject({ name: 'one.png', type: 'png', width: 50, height: 60 });
      expect(files[0].url).toMatch(/\/file\/print$/);
      expect(files[1]).toMatchObject({ name: 'evil.svg', status: 422 });
      expect(files[1].error).toMatch(/evil\.svg.*<script>/);
      expect(files[2]).toMatchObject({ name: 'two.jpg', type: 'jpeg', width: 70, height: 40 });
      expect(await designRows(t)).toBe(rowsBefore + 2);
    });

    it('POST /api/upload/files refuses a file over the 50 MB design limit with 413 naming it, keeping the others', async () => {
      const rowsBefore = await designRows(t);
      const big = Buffer.concat([await pngOf(20, 20), Buffer.alloc(DESIGN_MAX_BYTES + 1024)]);
      const { payload, headers } = multipart([
        { field: 'files', filename: 'big.png', content: big },
        { field: 'files', filename: 'small.png', content: await pngOf(30, 30) },
      ]);
      const res = await client.request({ method: 'POST', url: '/api/upload/files', payload, headers });
      expect(res.statusCode, res.body).toBe(200);
      const { files } = res.json();
      expect(files[0]).toEqual({ name: 'big.png', status: 413, error: `big.png is larger than ${DESIGN_MAX_LABEL}` });
      expect(files[1]).toMatchObject({ name: 'small.png', width: 30 });
      expect(await designRows(t)).toBe(rowsBefore + 1);
      const tmp = path.join(t.dataDir, 'tmp');
      expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
    });
  });

  describe('list, get, delete and workspace scoping', () => {
    it('lists newest first, reads one, and hides them from another workspace', async () => {
      const a = (await upload(client, { filename: 'first.png', content: await pngOf(10, 10) })).json();
      const b = (await upload(client, { filename: 'second.png', content: await pngOf(11, 11) })).json();
      const list = await client.get('/api/designs');
      expect(list.statusCode).toBe(200);
      const ids = list.json().map((d: { id: string }) => d.id);
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
      expect((await client.get(`/api/designs/${a.id}`)).json()).toMatchObject({ id: a.id, name: 'first.png' });

      const stranger = t.client();
      expect((await stranger.get('/api/designs')).json()).toEqual([]);
      expect((await stranger.get(`/api/designs/${a.id}`)).statusCode).toBe(404);
      for (const kind of ['original', 'print', 'thumbnail']) {
        expect((await stranger.get(`/api/designs/${a.id}/file/${kind}`)).statusCode).toBe(404);
      }
      expect((await stranger.delete(`/api/designs/${a.id}`)).statusCode).toBe(404);
      expect((await client.get(`/api/designs/${a.id}`)).statusCode).toBe(200);
    });

    it('DELETE removes the row and its files', async () => {
      const d = (await upload(client, { filename: 'gone.png', content: await pngOf(12, 12) })).json();
      const ws = await client.workspaceId(t.deps.db);
      expect(await t.deps.storage.list(`${ws}/designs/${d.id}/`)).toHaveLength(4);
      expect((await client.delete(`/api/designs/${d.id}`)).statusCode).toBe(204);
      expect(await t.deps.storage.list(`${ws}/designs/${d.id}/`)).toEqual([]);
      expect((await client.get(`/api/designs/${d.id}`)).statusCode).toBe(404);
      expect((await client.get(`/api/designs/${d.id}/file/print`)).statusCode).toBe(404);
    });

    it('answers 400 for a malformed id and for a missing file field', async () => {
      expect((await client.get('/api/designs/not-a-uuid')).statusCode).toBe(400);
      const { payload, headers } = multipart([{ field: 'other', filename: 'x.png', content: await pngOf(5, 5) }]);
      const res = await client.request({ method: 'POST', url: '/api/designs/upload', payload, headers });
      expect(res.statusCode).toBe(400);
      expect(await designRows(t)).toBeGreaterThan(0);
    });
  });
});
