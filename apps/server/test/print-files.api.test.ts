import { computePlacement, DESIGN_AREAS, printWindow, type TProductDetail } from '@podforge/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { pixelBox } from './support/pixel-box';

/**
 * Print files: drawn at the catalogue placement's pixel size and DPI, with the placement the seller gave the
 * mockup, and reachable without the session cookie at a signed, expiring URL.
 */

let t: TestApp;
let now = Date.UTC(2026, 10, 1);
let client: TestClient;
let designId: string;

const ADJ = { scale: 60, rotation: 0, x: 20, y: -10, opacity: 100 };

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(now) });
  client = t.client();
  const ws = await client.workspaceId(t.deps.db);
  // A pure red square: easy to find in the mockup and in the print file.
  ({ id: designId } = await insertDesign(t.deps, ws, await solidPng(400, 400, { r: 255, g: 0, b: 0 })));
});
afterAll(async () => {
  await t.close();
});

/** The bounding box of the pixels `match` accepts, as fractions of the image. */
async function box(png: Buffer, match: (r: number, g: number, b: number, a: number) => boolean) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { ...pixelBox(data, info.width, info.height, match), width: info.width, height: info.height };
}

async function productOn(productType: 'tshirt' | 'hoodie' | 'mug', templateId: string) {
  const mockup = await client.post('/api/mockups', { designId, productType, templateId, adjustments: ADJ });
  expect(mockup.statusCode, mockup.body).toBe(201);
  const created = await client.post('/api/products', {
    title: `Red on ${productType}`,
    description: 'Red square',
    productType,
    price: 30,
    designId,
    mockupId: mockup.json().id,
  });
  expect(created.statusCode, created.body).toBe(201);
  const detail = await client.get(`/api/products/${created.json().id}`);
  expect(detail.statusCode).toBe(200);
  return { product: detail.json() as TProductDetail, mockupUrl: mockup.json().url as string };
}

describe('print files', () => {
  it.each([
    ['tshirt', 'tshirt-front', 1800, 2400, 150],
    ['hoodie', 'hoodie-front', 1950, 1950, 150],
    ['mug', 'mug-right', 2475, 1155, 300],
  ] as const)(
    'a %s print file has the catalogue placement size and the mockup placement',
    async (type, template, w, h, dpi) => {
      const { product, mockupUrl } = await productOn(type, template);
      expect(product.printFiles).toHaveLength(1);
      const file = product.printFiles[0];
      expect(file).toMatchObject({ width: w, height: h, dpi });
      // No cookie: the signature is the authorisation.
      const url = new URL(file?.url ?? '');
      const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([w, h]);

      // Where the red lands in the print file is where the geometry puts it in the print window...
      const printed = await box(res.rawPayload, (r, g, b, a) => a > 200 && r > 200 && g < 60 && b < 60);
      const area = DESIGN_AREAS[type];
      const window = printWindow(area, { widthPx: w, heightPx: h });
      const placed = computePlacement({ area, design: { width: 400, height: 400 }, adjustments: ADJ });
      const expectX = (placed.bounds.x - window.x) / window.width;
      const expectY = (placed.bounds.y - window.y) / window.height;
      expect(printed.x / w).toBeCloseTo(Math.max(expectX, 0), 2);
      expect(printed.y / h).toBeCloseTo(Math.max(expectY, 0), 2);

      // ...and where it lands in the mockup, seen through the same window.
      const mockupPng = (await client.get(mockupUrl)).rawPayload;
      const shown = await box(mockupPng, (r, g, b) => r > 200 && g < 60 && b < 60);
      const k = shown.width / 400;
      const fx = (px: number) => Math.min(Math.max((px / k - window.x) / window.width, 0), 1);
      const fy = (px: number) => Math.min(Math.max((px / k - window.y) / window.height, 0), 1);
      expect(printed.x / w).toBeCloseTo(fx(shown.x), 1);
      expect(printed.right / w).toBeCloseTo(fx(shown.right), 1);
      expect(printed.y / h).toBeCloseTo(fy(shown.y), 1);
      expect(printed.bottom / h).toBeCloseTo(fy(shown.bottom), 1);

      // The seller's own download needs the session.
      const own = await client.get(file?.downloadUrl ?? '');
      expect(own.statusCode).toBe(200);
      expect(own.headers['content-disposition']).toContain(`${w}x${h}`);
      expect((await t.app.inject({ method: 'GET', url: file?.downloadUrl ?? '' })).statusCode).toBe(404);
    },
  );

  it('refuses a changed signature or an expired link, and redraws the file when the placement changes', async () => {
    const { product } = await productOn('tshirt', 'tshirt-front');
    const url = new URL(product.printFiles[0]?.url ?? '');
    const path = `${url.pathname}${url.search}`;
    const tampered = path.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === '0' ? '1' : '0'}`);
    const bad = await t.app.inject({ method: 'GET', url: tampered });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error).toBe('This print file link is not valid');
    const other = path.replace('/front.png', '/back.png');
    expect((await t.app.inject({ method: 'GET', url: other })).statusCode).toBe(403);

    const first = await t.app.inject({ method: 'GET', url: path });
    expect(first.statusCode).toBe(200);
    // A new main mockup with another placement draws another file.
    const moved = await client.post('/api/mockups', {
      designId,
      productType: 'tshirt',
      templateId: 'tshirt-front',
      adjustments: { ...ADJ, x: -40 },
    });
    await client.patch(`/api/products/${product.id}`, { mockupId: moved.json().id, mockupIds: [moved.json().id] });
    const redrawn = await t.app.inject({ method: 'GET', url: path });
    expect(redrawn.statusCode).toBe(200);
    expect(Buffer.compare(redrawn.rawPayload, first.rawPayload)).not.toBe(0);

    now += 8 * 24 * 3600 * 1000;
    const expired = await t.app.inject({ method: 'GET', url: path });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toBe('This print file link has expired');
  });

  it('a duplicate keeps every mockup of its original, and its print file', async () => {
    const black = await client.post('/api/mockups', {
      designId,
      productType: 'tshirt',
      templateId: 'tshirt-front',
      color: 'black',
      adjustments: ADJ,
    });
    const navy = await client.post('/api/mockups', {
      designId,
      productType: 'tshirt',
      templateId: 'tshirt-front',
      color: 'navy',
      adjustments: ADJ,
    });
    const created = await client.post('/api/products', {
      title: 'Two colours',
      description: 'x',
      productType: 'tshirt',
      price: 25,
      designId,
      mockupId: navy.json().id,
      mockupIds: [black.json().id, navy.json().id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const original = created.json();
    expect(original.mockups).toMatchObject([
      { id: navy.json().id, color: 'Navy', main: true },
      { id: black.json().id, color: 'Black', main: false },
    ]);
    // The colours the mockups show are the colours the product is sold in.
    expect([...new Set(original.variants.map((v: { color: string }) => v.color))]).toEqual(['Black', 'Navy']);
    const copy = (await client.post(`/api/products/${original.id}/duplicate`)).json();
    expect(copy.mockups).toEqual(original.mockups);
    expect(copy.thumbnailUrl).toBe(`/api/mockups/${navy.json().id}/preview`);
    const detail = (await client.get(`/api/products/${copy.id}`)).json();
    expect(detail.printFiles).toHaveLength(1);
  });
});
