import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app';
import { designs, mockupBatches, mockups } from '../src/db/schema';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { multipart } from './support/design-fixtures';

const RED = { r: 230, g: 20, b: 30 };
const ADJ = { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 };

async function pixel(png: Buffer, x: number, y: number) {
  const { data, info } = await sharp(png)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0] ?? 0, g: data[1] ?? 0, b: data[2] ?? 0, a: info.channels === 4 ? (data[3] ?? 0) : 255 };
}

describe('mockups API', () => {
  let t: TestApp;
  let client: TestClient;
  let designId: string;
  let mugTemplate: Buffer;
  /** The test design on the right of the white mug. */
  const renderMug = (adjustments: typeof ADJ = ADJ) =>
    client.post('/api/mockups', { designId, productType: 'mug', templateId: 'mug-right', adjustments });

  beforeAll(async () => {
    t = await createTestApp();
    client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    designId = (await insertDesign(t.deps, ws, await solidPng(400, 400, RED))).id;
    const res = await client.get('/templates/mockups/mug/mug-right/white.png');
    mugTemplate = res.rawPayload;
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists each template set with its design area, images and colours; others fall back to t-shirts', async () => {
    for (const [type, area] of [
      ['tshirt', { x: 100, y: 120, width: 200, height: 240 }],
      ['hoodie', { x: 140, y: 160, width: 220, height: 260 }],
      ['mug', { x: 120, y: 80, width: 160, height: 160 }],
      ['poster', { x: 50, y: 50, width: 300, height: 400 }],
    ] as const) {
      const res = await client.get(`/api/mockups/templates?productType=${type}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.productType).toBe(type);
      expect(body.templates.length).toBeGreaterThanOrEqual(3);
      for (const tpl of body.templates) {
        expect(tpl.designArea).toEqual(area);
        expect(tpl.colors.length).toBeGreaterThanOrEqual(4);
        expect(tpl.imageUrl).toMatch(new RegExp(`^/templates/mockups/${type}/`));
      }
    }
    const fallback = (await client.get('/api/mockups/templates?productType=tote')).json();
    expect(fallback.productType).toBe('tshirt');
  });

  it('serves template renders at 2000x2500 and 800x1000, and 404 for unknown ones', async () => {
    const meta = await sharp(mugTemplate).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 2000, 2500]);
    const preview = await client.get('/templates/mockups/mug/mug-right/white.preview.png');
    expect((await sharp(preview.rawPayload).metadata()).width).toBe(800);
    expect((await client.get('/templates/mockups/mug/nope/white.png')).statusCode).toBe(404);
    expect((await client.get('/templates/mockups/mug/mug-right/purple.png')).statusCode).toBe(404);
  });

  it('renders a mockup with the design inside the design area and the template outside it', async () => {
    const res = await renderMug();
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ width: 2000, height: 2500, url: `/api/mockups/${body.id}/file` });
    const png = (await client.get(body.url)).rawPayload;
    // Mug design area 120,80,160,160 -> 600..1400 x 400..1200 in template pixels.
    expect(await pixel(png, 1000, 800)).toMatchObject({ r: RED.r, g: RED.g, b: RED.b });
    expect(await pixel(png, 620, 420)).toMatchObject({ r: RED.r, g: RED.g, b: RED.b });
    for (const [x, y] of [
      [40, 40],
      [1000, 1500],
      [1800, 900],
    ] as const) {
      expect(await pixel(png, x, y)).toEqual(await pixel(mugTemplate, x, y));
    }
    // The 512 px preview (lists and grids) is a JPEG: a few times smaller than a PNG and quicker to make.
    const previewRes = await client.get(body.previewUrl);
    expect(previewRes.headers['content-type']).toBe('image/jpeg');
    const previewMeta = await sharp(previewRes.rawPayload).metadata();
    expect([previewMeta.format, previewMeta.width, previewMeta.height]).toEqual(['jpeg', 512, 640]);
    // The red design, where the full render has it, scaled to the preview (within JPEG's rounding).
    const red = await pixel(previewRes.rawPayload, 256, 204);
    expect(Math.abs(red.r - RED.r) + Math.abs(red.g - RED.g) + Math.abs(red.b - RED.b)).toBeLessThan(30);
  });

  it('still serves a preview stored as PNG before previews were JPEG, as PNG', async () => {
    const res = await renderMug();
    const { id, previewUrl } = res.json();
    const [row] = await t.deps.db.select().from(mockups).where(eq(mockups.id, id));
    if (!row) throw new Error('no mockup row');
    const oldKey = row.previewKey.replace(/\.jpg$/, '.png');
    const png = await sharp({ create: { width: 512, height: 640, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    await t.deps.storage.put(oldKey, png, 'image/png');
    await t.deps.db.update(mockups).set({ previewKey: oldKey }).where(eq(mockups.id, id));
    const old = await client.get(previewUrl);
    expect(old.statusCode).toBe(200);
    expect(old.headers['content-type']).toBe('image/png');
    expect((await sharp(old.rawPayload).metadata()).format).toBe('png');
  });

  it('honours opacity', async () => {
    const res = await renderMug({ ...ADJ, opacity: 50 });
    const png = (await client.get(res.json().url)).rawPayload;
    const under = await pixel(mugTemplate, 1000, 800);
    const got = await pixel(png, 1000, 800);
    for (const ch of ['r', 'g', 'b'] as const)
      expect(Math.abs(got[ch] - (RED[ch] + under[ch]) / 2)).toBeLessThanOrEqual(3);
  });

  it('clips a rotated design larger than the template to the design area without failing', async () => {
    const ws = await client.workspaceId(t.deps.db);
    const big = await insertDesign(t.deps, ws, await solidPng(3000, 3000, RED));
    const res = await client.post('/api/mockups', {
      designId: big.id,
      productType: 'mug',
      templateId: 'mug-right',
      adjustments: { scale: 200, rotation: 45, x: 100, y: -100, opacity: 100 },
    });
    expect(res.statusCode).toBe(201);
    const png = (await client.get(res.json().url)).rawPayload;
    expect(await pixel(png, 1390, 410)).toMatchObject({ r: RED.r, g: RED.g, b: RED.b });
    expect(await pixel(png, 1420, 380)).toEqual(await pixel(mugTemplate, 1420, 380));
  });

  it('answers 404 for a missing or foreign design and 400 for adjustments out of range', async () => {
    const other = t.client();
    const foreign = await other.post('/api/mockups', {
      designId,
      productType: 'mug',
      templateId: 'mug-right',
      adjustments: ADJ,
    });
    expect(foreign.statusCode).toBe(404);
    const missing = await client.post('/api/mockups', {
      designId: '00000000-0000-4000-8000-000000000000',
      productType: 'mug',
      templateId: 'mug-right',
      adjustments: ADJ,
    });
    expect(missing.statusCode).toBe(404);
    for (const bad of [{ scale: 5 }, { scale: 205 }, { rotation: 181 }, { x: -101 }, { y: 101 }, { opacity: 0 }]) {
      const res = await client.post('/api/mockups', {
        designId,
        productType: 'mug',
        templateId: 'mug-right',
        adjustments: { ...ADJ, ...bad },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_FAILED');
    }
    const unknown = await client.post('/api/mockups', {
      designId,
      productType: 'mug',
      templateId: 'x',
      adjustments: ADJ,
    });
    expect(unknown.statusCode).toBe(400);
    expect((await other.get(`/api/mockups/templates`)).statusCode).toBe(200);
  });

  it('renders a batch on every template and colour, in one answer or as a job with progress', async () => {
    const sync = await client.post('/api/mockups/batch', {
      designId,
      productType: 'mug',
      adjustments: ADJ,
      templateIds: ['mug-right', 'mug-left'],
    });
    expect(sync.statusCode).toBe(200);
    const done = sync.json();
    expect(done).toMatchObject({ status: 'done', done: 8, total: 8 });
    expect(
      new Set(done.mockups.map((m: { templateId: string; color: string }) => `${m.templateId}/${m.color}`)).size,
    ).toBe(8);
    const started = await client.post('/api/mockups/batch', {
      designId,
      productType: 'mug',
      adjustments: ADJ,
      templateIds: ['mug-right'],
      colors: ['white', 'black'],
      async: true,
    });
    expect(started.statusCode).toBe(202);
    let job = started.json();
    expect(job.total).toBe(2);
    for (let i = 0; i < 100 && job.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await client.get(`/api/mockups/batch/${job.jobId}`)).json();
    }
    expect(job).toMatchObject({ status: 'done', done: 2, total: 2 });
    const black = (await client.get(job.mockups[1].url)).rawPayload;
    expect(await pixel(black, 1000, 800)).toMatchObject({ r: RED.r });
    expect((await t.client().get(`/api/mockups/batch/${job.jobId}`)).statusCode).toBe(404);
  });

  it('answers a batch poll from any app instance, since progress lives in the database', async () => {
    const started = await client.post('/api/mockups/batch', {
      designId,
      productType: 'mug',
      adjustments: ADJ,
      templateIds: ['mug-left'],
      colors: ['white'],
      async: true,
    });
    const { jobId } = started.json();
    // A second instance over the same database, as behind a load balancer.
    const { app: other } = await buildApp({ config: t.config, database: t.deps.database, logger: false });
    await other.ready();
    try {
      let job = { status: 'running' } as { status: string; done?: number; mockups?: unknown[] };
      for (let i = 0; i < 100 && job.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const res = await other.inject({
          method: 'GET',
          url: `/api/mockups/batch/${jobId}`,
          headers: { cookie: client.cookie ?? '' },
        });
        expect(res.statusCode).toBe(200);
        job = res.json();
      }
      expect(job).toMatchObject({ status: 'done', done: 1 });
    } finally {
      await other.close();
    }
  });

  it('reports a batch whose process stopped as failed, keeping what it rendered', async () => {
    const ws = await client.workspaceId(t.deps.db);
    const [batch] = await t.deps.db
      .insert(mockupBatches)
      .values({
        workspaceId: ws,
        designId,
        productType: 'mug',
        total: 4,
        createdAt: new Date(Date.now() - 3 * 60 * 1000),
      })
      .returning();
    const job = (await client.get(`/api/mockups/batch/${batch?.id}`)).json();
    expect(job).toMatchObject({ status: 'failed', done: 0, total: 4 });
    expect(job.error).toMatch(/stopped before it finished/);
  });

  it('answers the print readiness of a design at a scale', async () => {
    const ws = await client.workspaceId(t.deps.db);
    const sharpDesign = await insertDesign(t.deps, ws, await solidPng(4500, 5400, RED));
    const q = (id: string, scale: number) =>
      client.get(`/api/mockups/print-readiness?designId=${id}&productType=tshirt&scale=${scale}`);
    // Measured on the blank's own front print area (Bella + Canvas 3001: 12x16 in at 150 DPI): the design spans
    // the design area, of which the print file takes the 3:4 middle, so 4500 px cover 13.33 in.
    expect((await q(sharpDesign.id, 100)).json()).toMatchObject({
      dpi: 338,
      level: 'ready',
      label: 'Print ready',
      printArea: { name: 'Front print', widthIn: 12, heightIn: 16, widthPx: 1800, heightPx: 2400 },
    });
    expect((await q(sharpDesign.id, 150)).json()).toMatchObject({ dpi: 225, level: 'ok' });
    // Another blank, another print area: the Gildan 18500 hoodie's 13x13 in.
    const hoodie = await client.get(
      `/api/mockups/print-readiness?designId=${sharpDesign.id}&productType=hoodie&catalogProductId=146`,
    );
    expect(hoodie.json()).toMatchObject({ printArea: { widthPx: 1950, heightPx: 1950, widthIn: 13, heightIn: 13 } });
    expect((await q(designId, 100)).json()).toMatchObject({ level: 'low', label: 'Too low for print' });
    expect(
      (await t.client().get(`/api/mockups/print-readiness?designId=${designId}&productType=tshirt`)).statusCode,
    ).toBe(404);
  });

  it('renders the print file at the print area size on a transparent background', async () => {
    const res = await client.post('/api/mockups/print-file', { designId, productType: 'tshirt', adjustments: ADJ });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const meta = await sharp(res.rawPayload).metadata();
    // The default blank's front print: 12x16 in at 150 DPI.
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([1800, 2400, true]);
    expect(await pixel(res.rawPayload, 900, 1200)).toEqual({ ...RED, a: 255 });
    expect((await pixel(res.rawPayload, 10, 10)).a).toBe(0);
    // A design pushed past the print area's edge is cut at it, not failed.
    const off = await client.post('/api/mockups/print-file', {
      designId,
      productType: 'mug',
      adjustments: { scale: 200, rotation: 30, x: 100, y: 100, opacity: 50 },
    });
    expect(off.statusCode, off.body).toBe(200);
    const offMeta = await sharp(off.rawPayload).metadata();
    expect([offMeta.width, offMeta.height]).toEqual([2475, 1155]);
    const corner = await pixel(off.rawPayload, 2474, 1154);
    expect(corner).toMatchObject({ r: RED.r, g: RED.g, b: RED.b });
    expect(Math.abs(corner.a - 128)).toBeLessThanOrEqual(1);
    expect((await pixel(off.rawPayload, 5, 5)).a).toBe(0);
  }, 30_000);

  it('places an uploaded design from its working copy, and a new placement reuses the decoded pixels', async () => {
    const upload = multipart([
      { field: 'file', filename: 'red.png', content: await solidPng(600, 600, RED), contentType: 'image/png' },
    ]);
    const uploaded = await client.request({ method: 'POST', url: '/api/designs/upload', ...upload });
    expect(uploaded.statusCode).toBe(201);
    const id = uploaded.json().id as string;
    const render = (adjustments: typeof ADJ) =>
      client.post('/api/mockups', { designId: id, productType: 'tshirt', templateId: 'tshirt-front', adjustments });
    const first = await render(ADJ);
    expect(first.statusCode).toBe(201);
    // The design area's centre (t-shirt area 100..300 x 120..360 of 400x500, at 5x) is the design's red.
    const file = (await client.get(first.json().url)).rawPayload;
    expect(await pixel(file, 1000, 1200)).toMatchObject(RED);

    // The working copy is read once: with it gone, a new placement's answer (its preview) still comes from the
    // pixels kept decoded. (Its full-size file is drawn from the file, in the decode pool: see the next test.)
    const [row] = await t.deps.db.select().from(designs).where(eq(designs.id, id));
    if (!row?.workingKey) throw new Error('the upload made no working copy');
    await t.deps.storage.delete(row.workingKey);
    const second = await render({ ...ADJ, scale: 50, rotation: 30 });
    expect(second.statusCode).toBe(201);
    const preview = (await client.get(second.json().previewUrl)).rawPayload;
    // The preview is the full picture at 512 px wide (a factor of 0.256).
    expect(await pixel(preview, 256, 307)).toMatchObject({
      r: expect.closeTo(RED.r, -1),
      g: expect.closeTo(RED.g, -1),
    });
    // Half the size: the area's corner shows the template again.
    expect(await pixel(preview, 143, 169)).not.toMatchObject({ r: expect.closeTo(RED.r, -1) });
    // Its full-size file is drawn from the design's file, which is gone: a clear 404, nothing stored.
    const full = await client.get(second.json().url);
    expect(full.statusCode).toBe(404);
    expect(await t.deps.storage.read(`${row.workspaceId}/mockups/${second.json().id}/mockup.png`)).toBeNull();
  }, 30_000);

  it('a design only moved or faded is not placed again: the placed layer is reused where it now lands', async () => {
    const ws = await client.workspaceId(t.deps.db);
    const legacy = await insertDesign(t.deps, ws, await solidPng(300, 300, RED), 'moved.png');
    const runs = vi.spyOn(t.deps.decodePool, 'run');
    try {
      const render = async (adjustments: typeof ADJ) => {
        const res = await client.post('/api/mockups', {
          designId: legacy.id,
          productType: 'tshirt',
          templateId: 'tshirt-front',
          adjustments,
        });
        expect(res.statusCode, res.body).toBe(201);
        return (await client.get(res.json().url)).rawPayload;
      };
      const small = { ...ADJ, scale: 40, rotation: 10 };
      const centred = await render(small);
      const moved = await render({ ...small, x: -60, opacity: 50 });
      // A design with no working copy is placed in the decode pool: once for the two renders.
      expect(runs.mock.calls.filter(([kind]) => kind.name === 'layer')).toHaveLength(1);
      // The design area's centre (1000, 1200) is red, then template after the move 60 units (300 px) left; the
      // new centre (700, 1200) is the red at half opacity.
      expect(await pixel(centred, 1000, 1200)).toMatchObject(RED);
      expect(await pixel(moved, 1000, 1200)).not.toMatchObject(RED);
      const faded = await pixel(moved, 700, 1200);
      expect(faded.r).toBeGreaterThan(faded.g + 60);
      expect(faded.g).toBeGreaterThan(RED.g + 40);
    } finally {
      runs.mockRestore();
    }
  }, 30_000);
});
