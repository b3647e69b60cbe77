import fs from 'node:fs';
import path from 'node:path';
import { DESIGN_MAX_BYTES, PRODUCT_TITLE_MAX, skuFor, type TProduct } from '@podforge/contract';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designs, integrations, products, productVariants, publications } from '../src/db/schema';
import { mockupDrawingsSettled } from '../src/modules/mockups/mockup-files';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { multipart, type Part, pngOf, type TextPart } from './support/design-fixtures';

const ADJ = { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 };
const VARIANTS = [
  { option: 'S', price: 20, sku: 'TS-S' },
  { option: 'M', price: 22 },
];
const READY = {
  title: 'Sunset Tee',
  description: 'A warm sunset on soft cotton.',
  price: 20,
  tags: ['Sunset', 'retro'],
  productType: 'tshirt',
  variants: VARIANTS,
};

let t: TestApp;
// A clock that moves one second per call, so "newest first" is well defined.
let tick = 0;
const clock = () => new Date(Date.UTC(2026, 0, 1) + tick++ * 1000);

type Actor = {
  client: TestClient;
  ws: string;
  designId: string;
  mockup: { id: string; url: string; previewUrl: string };
};

async function actor(): Promise<Actor> {
  const client = t.client();
  const ws = await client.workspaceId(t.deps.db);
  const { id: designId } = await insertDesign(t.deps, ws, await solidPng(300, 300, { r: 200, g: 30, b: 30 }));
  const res = await client.post('/api/mockups', {
    designId,
    productType: 'mug',
    templateId: 'mug-right',
    adjustments: ADJ,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { client, ws, designId, mockup: res.json() };
}

const postMultipart = (client: TestClient, parts: (Part | TextPart)[]) => {
  const { payload, headers } = multipart(parts);
  return client.request({ method: 'POST', url: '/api/products', payload, headers });
};

const textParts = (fields: Record<string, unknown>): TextPart[] =>
  Object.entries(fields).map(([field, value]) => ({
    field,
    value: typeof value === 'string' ? value : JSON.stringify(value),
  }));

const rowCount = async (table: typeof designs | typeof products) => {
  const [row] = await t.deps.db.select({ n: count() }).from(table);
  return row?.n ?? 0;
};
const tmpFiles = () => {
  const dir = path.join(t.dataDir, 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

let a: Actor;
let b: Actor;

beforeAll(async () => {
  t = await createTestApp({ now: clock });
  a = await actor();
  b = await actor();
});
afterAll(async () => {
  await t.close();
});

describe('POST /api/products', () => {
  it('creates a ready product from designId and mockupId as JSON and links the mockup to it', async () => {
    const res = await a.client.post('/api/products', {
      ...READY,
      designId: a.designId,
      mockupId: a.mockup.id,
      status: 'ready',
    });
    expect(res.statusCode, res.body).toBe(201);
    const product: TProduct = res.json();
    expect(product).toMatchObject({
      title: 'Sunset Tee',
      status: 'ready',
      price: 20,
      tags: ['Sunset', 'retro'],
      designId: a.designId,
      designThumbnailUrl: `/api/designs/${a.designId}/file/thumbnail`,
      mockupUrl: `/api/mockups/${a.mockup.id}/file`,
      // Lists show the mockup's 512 px preview, not the 2000x2500 render.
      thumbnailUrl: `/api/mockups/${a.mockup.id}/preview`,
      storeUrl: null,
      // A bare product type gets its default catalogue product (the Bella + Canvas 3001); the free-text sizes
      // become its catalogue variants in the colour the mockup shows, with SKUs of their own.
      catalogProductId: 71,
      placements: [{ placement: 'front', technique: 'dtg' }],
      variants: [
        { option: 'White / S', color: 'White', size: 'S', price: 20, baseCost: 9.25, catalogVariantId: 71002 },
        { option: 'White / M', color: 'White', size: 'M', price: 22, baseCost: 9.25, catalogVariantId: 71003 },
      ],
      mockups: [{ id: a.mockup.id, color: 'White', main: true, url: a.mockup.url, previewUrl: a.mockup.previewUrl }],
    });
    expect(product.variants.map((v) => v.sku)).toEqual([skuFor(product.id, 71002), skuFor(product.id, 71003)]);
    const preview = await a.client.get(product.thumbnailUrl ?? '');
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    // The dashboard's recent uploads show the same picture.
    const recent = (await a.client.get('/api/dashboard/recent-uploads')).json<{ id: string; thumbnailUrl: string }[]>();
    expect(recent.find((r) => r.id === product.id)?.thumbnailUrl).toBe(product.thumbnailUrl);
  });

  it('creates from multipart text fields: designId, a mockup URL, tags and variants as JSON text', async () => {
    const res = await postMultipart(
      a.client,
      textParts({
        ...READY,
        price: '19.50',
        designId: a.designId,
        mockupUrl: `http://localhost${a.mockup.previewUrl}`,
        status: 'ready',
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    // The product's price is its cheapest variant's.
    expect(res.json()).toMatchObject({ price: 20, status: 'ready', mockupUrl: a.mockup.url, tags: READY.tags });
    expect(res.json().variants).toHaveLength(2);
  });

  it('creates a draft from a design file part; the design is stored like an upload', async () => {
    const designsBefore = await rowCount(designs);
    const res = await postMultipart(a.client, [
      ...textParts({ title: 'From a file', price: '15', productType: 'poster', tags: '["art"]' }),
      { field: 'file', filename: 'art.png', content: await pngOf(320, 240), contentType: 'image/png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const product: TProduct = res.json();
    expect(product).toMatchObject({ status: 'draft', tags: ['art'], mockupUrl: null });
    expect(product.designId).toEqual(expect.any(String));
    expect(await rowCount(designs)).toBe(designsBefore + 1);
    const design = await a.client.get(`/api/designs/${product.designId}`);
    expect(design.json()).toMatchObject({ name: 'art.png', width: 320, height: 240 });
    expect(tmpFiles()).toEqual([]);
  });

  it('refuses a design file of DESIGN_MAX_BYTES + 1 byte with 413 naming it, and keeps nothing', async () => {
    const designsBefore = await rowCount(designs);
    await mockupDrawingsSettled(); // placements' full-size files are drawn after their answers
    const filesBefore = await t.deps.storage.list('');
    const res = await postMultipart(a.client, [
      ...textParts({ title: 'Too big', price: '15', productType: 'poster' }),
      { field: 'file', filename: 'huge.png', content: Buffer.alloc(DESIGN_MAX_BYTES + 1, 0x41) },
    ]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error).toMatch(/huge\.png is larger than 50 MB/);
    expect(await rowCount(designs)).toBe(designsBefore);
    expect(await t.deps.storage.list('')).toEqual(filesBefore);
    expect(tmpFiles()).toEqual([]);
  });

  it('answers 400 naming tags when tags is not JSON, and removes the received file', async () => {
    const json = await postMultipart(a.client, textParts({ ...READY, designId: a.designId, tags: 'a, b' }));
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toMatch(/tags/);
    const withFile = await postMultipart(a.client, [
      { field: 'file', filename: 'art.png', content: await pngOf(50, 50) },
      ...textParts({ ...READY, variants: '[{"option":' }),
    ]);
    expect(withFile.statusCode).toBe(400);
    expect(withFile.json().error).toMatch(/variants/);
    expect(tmpFiles()).toEqual([]);
  });

  it.each([
    ['no title', { title: undefined }, /title/],
    ['an unknown product type', { productType: 'cape' }, /productType/],
    ['a negative price', { price: -1 }, /price/],
    ['a variant without a name', { variants: [{ option: '', price: 1 }] }, /variants\.0\.option/],
  ])('answers 400 naming the field for %s', async (_label, change, message) => {
    const res = await a.client.post('/api/products', { ...READY, designId: a.designId, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(message);
  });

  it('requires a design: a file or a designId, not both', async () => {
    const none = await a.client.post('/api/products', READY);
    expect(none.statusCode).toBe(400);
    expect(none.json().error).toMatch(/a design is required/);
    const both = await postMultipart(a.client, [
      ...textParts({ ...READY, designId: a.designId }),
      { field: 'file', filename: 'art.png', content: await pngOf(50, 50) },
    ]);
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatch(/designId/);
  });

  it("answers 404 for another workspace's design or mockup, as for unknown ones", async () => {
    const productsBefore = await rowCount(products);
    for (const body of [
      { designId: b.designId },
      { designId: '00000000-0000-4000-8000-000000000000' },
      { designId: a.designId, mockupId: b.mockup.id },
    ]) {
      const res = await a.client.post('/api/products', { ...READY, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
    }
    expect(await rowCount(products)).toBe(productsBefore);
  });

  it('answers 400 for a mockup of another design, or a mockup URL that is not one of the workspace', async () => {
    const other = await insertDesign(t.deps, a.ws, await pngOf(100, 100));
    const res = await a.client.post('/api/products', { ...READY, designId: other.id, mockupId: a.mockup.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/another design/);
    for (const mockupUrl of [b.mockup.url, 'https://example.com/mockup.png', '/api/mockups/not-an-id/file']) {
      const byUrl = await a.client.post('/api/products', { ...READY, designId: a.designId, mockupUrl });
      expect(byUrl.statusCode, mockupUrl).toBe(400);
      expect(byUrl.json().error).toMatch(/mockupUrl/);
    }
    // A file is a new design: no existing mockup can show it.
    const withFile = await postMultipart(a.client, [
      ...textParts({ ...READY, mockupId: a.mockup.id }),
      { field: 'file', filename: 'art.png', content: await pngOf(50, 50) },
    ]);
    expect(withFile.statusCode).toBe(400);
  });

  it('answers 400 listing what a ready product lacks', async () => {
    const res = await a.client.post('/api/products', {
      ...READY,
      description: ' ',
      designId: a.designId,
      status: 'ready',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('status: a ready product needs a mockup, a description');
  });

  it('refuses a variant priced at 0 or below its base cost, naming the variant', async () => {
    const free = await a.client.post('/api/products', {
      ...READY,
      variants: [{ option: 'S', price: 0 }],
      designId: a.designId,
    });
    expect(free.statusCode).toBe(400);
    expect(free.json().error).toBe('variants: White / S: price 0.00 must be above 0');
    const detail = (await a.client.get('/api/printful/products/71')).json();
    const navy = (size: string) =>
      detail.variants.find((v: { color: string; size: string }) => v.color === 'Navy' && v.size === size);
    const cheap = await a.client.post('/api/products', {
      ...READY,
      catalogProductId: 71,
      variants: [
        { catalogVariantId: navy('M').id, price: 20 },
        { catalogVariantId: navy('2XL').id, price: 11 },
      ],
      designId: a.designId,
    });
    expect(cheap.statusCode).toBe(400);
    expect(cheap.json().error).toBe('variants: Navy / 2XL: price 11.00 is below its base cost of 11.25');
    const foreign = await a.client.post('/api/products', {
      ...READY,
      catalogProductId: 71,
      variants: [{ catalogVariantId: 19001, price: 20 }],
      designId: a.designId,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toMatch(/19001 is not a variant of Unisex Staple T-Shirt/);
    expect(await rowCount(products)).toBe(await rowCount(products));
  });

  it('makes a product from a catalogue product with 2 colours x 3 sizes: 6 variants with catalogue ids', async () => {
    const detail = (await a.client.get('/api/printful/products/71')).json();
    expect(detail).toMatchObject({ id: 71, brand: 'Bella + Canvas', model: '3001' });
    expect(detail.placements[0]).toEqual({
      placement: 'front',
      title: 'Front print',
      technique: 'dtg',
      widthPx: 1800,
      heightPx: 2400,
      dpi: 150,
    });
    const chosen = detail.variants.filter(
      (v: { color: string; size: string }) => ['Black', 'Red'].includes(v.color) && ['S', 'M', 'L'].includes(v.size),
    );
    expect(chosen).toHaveLength(6);
    const res = await a.client.post('/api/products', {
      ...READY,
      catalogProductId: 71,
      variants: chosen.map((v: { id: number }) => ({ catalogVariantId: v.id, price: 24.99 })),
      designId: a.designId,
    });
    expect(res.statusCode, res.body).toBe(201);
    const product: TProduct = res.json();
    expect(product.variants.map((v) => v.option)).toEqual([
      'Black / S',
      'Black / M',
      'Black / L',
      'Red / S',
      'Red / M',
      'Red / L',
    ]);
    expect(product.variants.map((v) => v.catalogVariantId)).toEqual(chosen.map((v: { id: number }) => v.id));
    expect(product.variants.every((v) => v.baseCost === 9.25 && v.price === 24.99 && v.colorHex)).toBe(true);
    expect((await a.client.get('/api/printful/products/999999')).statusCode).toBe(404);

    // The seller may print on another placement of the blank; one it does not have is refused by name.
    const back = await a.client.patch(`/api/products/${product.id}`, { placement: 'back' });
    expect(back.json().placements).toEqual([{ placement: 'back', technique: 'dtg' }]);
    const sleeve = await a.client.patch(`/api/products/${product.id}`, { placement: 'left_sleeve' });
    expect(sleeve.statusCode).toBe(400);
    expect(sleeve.json().error).toBe(
      "placement: Unisex Staple T-Shirt | Bella + Canvas 3001 has no placement 'left_sleeve'",
    );
  });

  it('gives empty variants every size of the default catalogue product at the price, larger sizes at their extra cost', async () => {
    const priced = await a.client.post('/api/products', { ...READY, variants: [], price: 30, designId: a.designId });
    expect(priced.json().variants.map((v: { option: string; price: number }) => [v.option, v.price])).toEqual([
      ['White / XS', 30],
      ['White / S', 30],
      ['White / M', 30],
      ['White / L', 30],
      ['White / XL', 30],
      ['White / 2XL', 32],
      ['White / 3XL', 34],
      ['White / 4XL', 36],
    ]);
    // A mug gets mug sizes, never clothing sizes; without a price, 25.
    const free = await postMultipart(
      a.client,
      textParts({ title: 'Free', productType: 'mug', price: '0', designId: a.designId }),
    );
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json().variants.map((v: { option: string; price: number }) => [v.option, v.price])).toEqual([
      ['White / 11 oz', 25],
      ['White / 15 oz', 27],
      ['White / 20 oz', 29],
    ]);
  });

  it('leaves no design, file or product behind when saving fails after the design file was stored', async () => {
    // A test-only trigger makes the variant insert fail inside the product's transaction.
    await t.deps.db.execute(sql`
      CREATE FUNCTION test_fail_variant() RETURNS trigger AS $$
      BEGIN
        IF NEW.price = 21.13 THEN RAISE EXCEPTION 'variant insert failed'; END IF;
        RETURN NEW;
      END $$ LANGUAGE plpgsql`);
    await t.deps.db.execute(
      sql`CREATE TRIGGER test_fail_variant BEFORE INSERT ON product_variants FOR EACH ROW EXECUTE FUNCTION test_fail_variant()`,
    );
    try {
      const designsBefore = await rowCount(designs);
      const productsBefore = await rowCount(products);
      await mockupDrawingsSettled(); // placements' full-size files are drawn after their answers
      const filesBefore = await t.deps.storage.list('');
      const res = await postMultipart(a.client, [
        ...textParts({ ...READY, variants: [{ option: 'S', price: 21.13 }] }),
        { field: 'file', filename: 'art.png', content: await pngOf(64, 64) },
      ]);
      expect(res.statusCode).toBe(500);
      expect(await rowCount(designs)).toBe(designsBefore);
      expect(await rowCount(products)).toBe(productsBefore);
      expect(await t.deps.storage.list('')).toEqual(filesBefore);
      expect(tmpFiles()).toEqual([]);
    } finally {
      await t.deps.db.execute(sql`DROP TRIGGER test_fail_variant ON product_variants`);
      await t.deps.db.execute(sql`DROP FUNCTION test_fail_variant()`);
    }
  });
});

describe('GET /api/products', () => {
  let c: Actor;
  const made: TProduct[] = [];

  beforeAll(async () => {
    c = await actor();
    const specs = [
      { title: 'Cat Mug', description: 'Coffee with cats', productType: 'mug', tags: ['Kitties'] },
      { title: 'Dog Tee', description: 'Good boy', productType: 'tshirt', tags: ['dogs'] },
      { title: '100% Cotton', description: 'plain', productType: 'tshirt', tags: [] },
      ...Array.from({ length: 9 }, (_, i) => ({
        title: `Poster ${i}`,
        description: 'Wall art',
        productType: 'poster',
        tags: ['art'],
      })),
    ];
    for (const spec of specs) {
      const res = await c.client.post('/api/products', { ...spec, price: 10, designId: c.designId });
      expect(res.statusCode, res.body).toBe(201);
      made.push(res.json());
    }
    await t.deps.db
      .update(products)
      .set({ status: 'live' })
      .where(eq(products.id, made[1]?.id ?? ''));
  });

  const list = async (query: string) => {
    const res = await c.client.get(`/api/products${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('pages newest first with a correct total and page count', async () => {
    const first = await list('?pageSize=5');
    expect(first).toMatchObject({ page: 1, pageSize: 5, total: 12, totalPages: 3 });
    expect(first.items.map((p: TProduct) => p.title)).toEqual([
      'Poster 8',
      'Poster 7',
      'Poster 6',
      'Poster 5',
      'Poster 4',
    ]);
    const last = await list('?pageSize=5&page=3');
    expect(last.items.map((p: TProduct) => p.title)).toEqual(['Dog Tee', 'Cat Mug']);
    expect(last.items[1].variants).toHaveLength(3);
    expect((await list('?page=9')).items).toEqual([]);
    expect((await list('')).pageSize).toBe(10);
  });

  it('searches title, description and tags without case, and takes % literally', async () => {
    const titles = async (q: string) =>
      (await list(`?search=${encodeURIComponent(q)}`)).items.map((p: TProduct) => p.title);
    expect(await titles('CAT')).toEqual(['Cat Mug']);
    expect(await titles('good BOY')).toEqual(['Dog Tee']);
    expect(await titles('kitties')).toEqual(['Cat Mug']);
    expect(await titles('%')).toEqual(['100% Cotton']);
    expect(await titles('nothing like it')).toEqual([]);
  });

  it('filters by status and type, and "all" filters nothing', async () => {
    expect((await list('?status=live')).items.map((p: TProduct) => p.title)).toEqual(['Dog Tee']);
    expect((await list('?status=draft&type=tshirt')).items.map((p: TProduct) => p.title)).toEqual(['100% Cotton']);
    expect(await list('?type=poster&search=art')).toMatchObject({ total: 9, totalPages: 1 });
    expect(await list('?status=all&type=all')).toMatchObject({ total: 12 });
    expect((await c.client.get('/api/products?status=gone')).statusCode).toBe(400);
  });

  it('lists only the workspace’s products', async () => {
    const other = (await b.client.get('/api/products?pageSize=100')).json();
    expect(other.items.map((p: TProduct) => p.id)).not.toContain(made[0]?.id);
  });

  it('keeps the dashboard figures right', async () => {
    const stats = (await c.client.get('/api/dashboard/stats')).json();
    expect(stats).toMatchObject({ totalProducts: 12, pendingUploads: 11 });
  });

  it('matches a search within one field (title, description or a tag), not across two', async () => {
    expect((await list(`?search=${encodeURIComponent('Cotton plain')}`)).total).toBe(0);
    expect((await list(`?search=${encodeURIComponent('Wall art')}`)).total).toBe(9);
  });

  it('keeps totals and dashboard counts right after deletes, duplicates, status and type changes', async () => {
    // Read first, so an answer kept from before the changes would show below.
    expect(await list('?type=poster')).toMatchObject({ total: 9 });
    expect(await list('?type=mug')).toMatchObject({ total: 1 });
    const poster = made[11]?.id ?? '';
    expect((await c.client.delete(`/api/products/${poster}`)).statusCode).toBe(204);
    const copy = await c.client.post(`/api/products/${made[0]?.id}/duplicate`);
    expect(copy.statusCode, copy.body).toBe(201);
    // Status and type changes as any code path (or a store push) makes them, straight in the table.
    await t.deps.db
      .update(products)
      .set({ status: 'ready' })
      .where(eq(products.id, made[0]?.id ?? ''));
    await t.deps.db
      .update(products)
      .set({ productType: 'hoodie', title: 'Renamed' })
      .where(eq(products.id, made[2]?.id ?? ''));
    expect(await list('')).toMatchObject({ total: 12, totalPages: 2 });
    expect(await list('?type=poster')).toMatchObject({ total: 8 });
    expect(await list('?type=mug')).toMatchObject({ total: 2 });
    expect(await list('?type=hoodie&status=draft')).toMatchObject({ total: 1 });
    expect(await list('?status=ready')).toMatchObject({ total: 1 });
    expect(await list('?status=draft')).toMatchObject({ total: 10 });
    const stats = (await c.client.get('/api/dashboard/stats')).json();
    expect(stats).toMatchObject({ totalProducts: 12, pendingUploads: 11 });
  });
});

describe('one product: get, patch, delete, duplicate', () => {
  let product: TProduct;

  beforeAll(async () => {
    const res = await a.client.post('/api/products', {
      ...READY,
      title: 'Editable',
      designId: a.designId,
      mockupId: a.mockup.id,
    });
    product = res.json();
  });

  const setStatus = (id: string, status: 'draft' | 'processing' | 'live') =>
    t.deps.db.update(products).set({ status }).where(eq(products.id, id));

  it('gets it by id; 400 for a malformed id and 404 for an unknown one', async () => {
    const res = await a.client.get(`/api/products/${product.id}`);
    expect(res.statusCode).toBe(200);
    const { printFiles, ...rest } = res.json();
    expect(rest).toEqual(product);
    expect(printFiles).toHaveLength(1);
    expect((await a.client.get('/api/products/nope')).statusCode).toBe(400);
    expect((await a.client.get('/api/products/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('patches only what is sent and replaces variants when they are sent', async () => {
    const titled = await a.client.patch(`/api/products/${product.id}`, { title: 'Edited' });
    expect(titled.statusCode, titled.body).toBe(200);
    expect(titled.json()).toMatchObject({
      title: 'Edited',
      tags: product.tags,
      variants: product.variants,
      status: 'draft',
    });
    const first = product.variants[0];
    const varied = await a.client.patch(`/api/products/${product.id}`, {
      variants: [{ catalogVariantId: first?.catalogVariantId, price: 9.99 }],
      tags: ['new'],
    });
    // The enabled set is what was sent; the SKU of a variant kept is the same.
    expect(varied.json()).toMatchObject({
      variants: [{ option: first?.option, price: 9.99, sku: first?.sku }],
      tags: ['new'],
      price: 9.99,
    });
    const repriced = await a.client.patch(`/api/products/${product.id}`, { price: 12.5 });
    expect(repriced.json().variants.map((v: { price: number }) => v.price)).toEqual([12.5]);
    const ready = await a.client.patch(`/api/products/${product.id}`, { status: 'ready' });
    expect(ready.json().status).toBe('ready');
    const broken = await a.client.patch(`/api/products/${product.id}`, { description: '' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toMatch(/a description/);
    expect((await a.client.patch(`/api/products/${product.id}`, { price: 'x' })).json().error).toMatch(/price/);
  });

  it('answers 409 to a patch or delete of a product being pushed', async () => {
    await setStatus(product.id, 'processing');
    const patch = await a.client.patch(`/api/products/${product.id}`, { title: 'No' });
    expect(patch.statusCode).toBe(409);
    expect(patch.json().error).toMatch(/is being pushed to a store/);
    expect((await a.client.delete(`/api/products/${product.id}`)).statusCode).toBe(409);
    await setStatus(product.id, 'draft');
  });

  it('duplicates as a new draft with the same design, mockup, tags and variants, and no store listings', async () => {
    await setStatus(product.id, 'live');
    const res = await a.client.post(`/api/products/${product.id}/duplicate`);
    expect(res.statusCode, res.body).toBe(201);
    const source = (await a.client.get(`/api/products/${product.id}`)).json();
    const copy: TProduct = res.json();
    expect(copy).toMatchObject({
      title: `${source.title} (Copy)`,
      status: 'draft',
      designId: source.designId,
      mockupUrl: source.mockupUrl,
      mockups: source.mockups,
      thumbnailUrl: source.thumbnailUrl,
      catalogProductId: source.catalogProductId,
      tags: source.tags,
      price: source.price,
    });
    // The same variants, each with the copy's own SKU.
    const strip = ({ id: _id, sku: _sku, ...v }: TProduct['variants'][number]) => v;
    expect(copy.variants.map(strip)).toEqual(source.variants.map(strip));
    expect(copy.variants.map((v) => v.sku)).toEqual(copy.variants.map((v) => skuFor(copy.id, v.catalogVariantId ?? 0)));
    expect(copy.id).not.toBe(source.id);
    const [pubs] = await t.deps.db.select({ n: count() }).from(publications).where(eq(publications.productId, copy.id));
    expect(pubs?.n).toBe(0);

    const long = await a.client.patch(`/api/products/${copy.id}`, { title: 'x'.repeat(PRODUCT_TITLE_MAX) });
    expect(long.statusCode).toBe(200);
    const longCopy = (await a.client.post(`/api/products/${copy.id}/duplicate`)).json();
    expect(longCopy.title).toHaveLength(PRODUCT_TITLE_MAX);
    expect(longCopy.title.endsWith(' (Copy)')).toBe(true);
    await setStatus(product.id, 'draft');
  });

  it('answers 404 to another workspace on get, patch, delete, duplicate and upload', async () => {
    const url = `/api/products/${product.id}`;
    expect((await b.client.get(url)).statusCode).toBe(404);
    expect((await b.client.patch(url, { title: 'Mine' })).statusCode).toBe(404);
    expect((await b.client.delete(url)).statusCode).toBe(404);
    expect((await b.client.post(`${url}/duplicate`)).statusCode).toBe(404);
    expect((await b.client.post(`/api/upload/shopify/${product.id}`)).statusCode).toBe(404);
    expect((await a.client.patch(url, { designId: b.designId })).statusCode).toBe(404);
    expect((await a.client.patch(url, { mockupId: b.mockup.id })).statusCode).toBe(404);
    expect((await a.client.get(url)).json().title).not.toBe('Mine');
  });

  it('deletes it with 204 and its variants with it, keeping design and mockup', async () => {
    const res = await a.client.delete(`/api/products/${product.id}`);
    expect(res.statusCode).toBe(204);
    expect((await a.client.get(`/api/products/${product.id}`)).statusCode).toBe(404);
    const left = await t.deps.db.select().from(productVariants).where(eq(productVariants.productId, product.id));
    expect(left).toEqual([]);
    expect((await a.client.get(`/api/designs/${a.designId}`)).statusCode).toBe(200);
    expect((await a.client.get(a.mockup.url)).statusCode).toBe(200);
  });
});

describe('POST /api/upload/:platform/:productId', () => {
  let d: Actor;
  let productId: string;

  beforeAll(async () => {
    d = await actor();
    productId = (await d.client.post('/api/products', { ...READY, designId: d.designId })).json().id;
  });

  const upload = (platform: string, body?: unknown) => d.client.post(`/api/upload/${platform}/${productId}`, body);
  const setStatus = (status: 'draft' | 'processing' | 'live') =>
    t.deps.db.update(products).set({ status }).where(eq(products.id, productId));

  it('answers 404 to an unknown platform, 409 without a connected Etsy, WooCommerce or Amazon store', async () => {
    expect((await upload('ebay')).statusCode).toBe(404);
    for (const [platform, name] of [
      ['etsy', 'Etsy'],
      ['woocommerce', 'WooCommerce'],
      ['amazon', 'Amazon'],
    ]) {
      const res = await upload(platform ?? '');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe(`No ${name} store is connected. Connect one in Integrations first.`);
    }
  });

  it('answers 409 for a processing product, before the platform availability; a live one may go to another store', async () => {
    await setStatus('processing');
    for (const platform of ['shopify', 'etsy']) {
      const res = await upload(platform);
      expect(res.statusCode, platform).toBe(409);
      expect(res.json().error).toMatch(/being pushed/);
    }
    // Live (somewhere): only the missing store stops it here (#28).
    await setStatus('live');
    const res = await upload('etsy');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('No Etsy store is connected. Connect one in Integrations first.');
    await setStatus('draft');
  });

  // The push itself (productSet against the fake Shopify) is in shopify.api.test.ts.
  it('answers 409 without a connected Shopify store, or with one that holds no token', async () => {
    const none = await upload('shopify');
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe('No Shopify store is connected. Connect one in Integrations first.');

    const [pending] = await t.deps.db
      .insert(integrations)
      .values({ workspaceId: d.ws, kind: 'store', platform: 'shopify', externalId: 'p.myshopify.com' })
      .returning();
    expect((await upload('shopify', { integrationId: pending?.id })).statusCode).toBe(409);

    const [store] = await t.deps.db
      .insert(integrations)
      .values({
        workspaceId: d.ws,
        kind: 'store',
        platform: 'shopify',
        externalId: 'c.myshopify.com',
        status: 'connected',
        verifiedAt: new Date(),
      })
      .returning();
    for (const body of [undefined, {}, { integrationId: 'default' }, { integrationId: store?.id }]) {
      const res = await upload('shopify', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json().error).toBe('c.myshopify.com is not connected. Connect it in Integrations first.');
    }
  });

  it("answers 404 for an integrationId that is not one of the workspace's stores", async () => {
    const [foreign] = await t.deps.db
      .insert(integrations)
      .values({ workspaceId: b.ws, kind: 'store', platform: 'shopify', externalId: 'b.myshopify.com' })
      .returning();
    for (const integrationId of [foreign?.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect((await upload('shopify', { integrationId })).statusCode, integrationId).toBe(404);
    }
    expect((await d.client.post('/api/upload/shopify/nope')).statusCode).toBe(400);
  });
});
