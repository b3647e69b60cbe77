import type { TCatalogCategory, TCatalogProductPage, TCatalogTemplate } from '@podforge/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './helpers';

let t: TestApp;
let client: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  client = t.client();
});
afterAll(() => t.close());

const products = async (query = '') => {
  const res = await client.get(`/api/printful/products${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TCatalogProductPage>();
};

describe('bundled catalogue: GET /api/printful/products', () => {
  it('serves at least 40 real products across the seven product types, 12 a page', async () => {
    const page = await products('?pageSize=100');
    expect(page.source).toBe('bundled');
    expect(page.total).toBeGreaterThanOrEqual(40);
    const types = new Set(page.items.map((p) => p.type));
    expect([...types].sort()).toEqual(['hoodie', 'mug', 'phone_case', 'poster', 'sticker', 'tote', 'tshirt']);
    const tee = page.items.find((p) => p.id === 71);
    expect(tee).toMatchObject({
      name: 'Unisex Staple T-Shirt | Bella + Canvas 3001',
      brand: 'Bella + Canvas',
      model: '3001',
      basePrice: 9.25,
      currency: 'USD',
    });
    expect(tee?.variants.length).toBe(tee?.variantCount);
    expect(tee?.variants).toContainEqual(
      expect.objectContaining({ size: 'M', color: 'White', colorCode: '#ffffff', price: '9.25' }),
    );
    expect(tee?.variants).toContainEqual(expect.objectContaining({ size: '2XL', price: '11.25' }));
    expect(tee?.printAreas[0]).toEqual({
      placement: 'front',
      title: 'Front print',
      technique: 'dtg',
      widthPx: 1800,
      heightPx: 2400,
      dpi: 150,
    });
    // First the product's own picture (its colour range), then each colour's, as Printful's API lists them.
    expect(tee?.mockupUrls.slice(0, 2)).toEqual([
      '/templates/catalog/products/71/range.png',
      '/templates/catalog/products/71/white.png',
    ]);
    const first = await products();
    expect(first.items).toHaveLength(12);
    expect(first.totalPages).toBe(Math.ceil(first.total / 12));
  });

  it('searches name and description, every word, case-insensitively', async () => {
    const byName = await products('?search=bella%20canvas');
    expect(byName.total).toBeGreaterThan(3);
    for (const p of byName.items) expect(`${p.name} ${p.description}`.toLowerCase()).toContain('bella');
    const byDescription = await products('?search=dishwasher');
    expect(byDescription.items.map((p) => p.name)).toEqual(['White Glossy Mug']);
    expect((await products('?search=zzznothing')).total).toBe(0);
  });

  it('filters by category id or the spec filter name, parents including their children', async () => {
    const mugs = await products('?category=Mugs&pageSize=100');
    expect(mugs.total).toBeGreaterThan(3);
    expect(mugs.items.every((p) => p.type === 'mug')).toBe(true);
    const tees = await products('?category=24&pageSize=100');
    expect(tees.items.every((p) => p.type === 'tshirt')).toBe(true);
    const phone = await products('?category=phone%20cases');
    expect(phone.items.every((p) => p.type === 'phone_case')).toBe(true);
    const apparel = await products('?category=1&pageSize=100');
    expect(new Set(apparel.items.map((p) => p.type))).toEqual(new Set(['tshirt', 'hoodie']));
    expect((await products('?category=All%20Categories')).total).toBe((await products()).total);
  });

  it('takes a category slug too: hoodie, hoodies, t-shirts, tshirt, phone_case', async () => {
    const byName = await products('?category=Hoodies&pageSize=100');
    for (const slug of ['hoodie', 'hoodies', 'HOODIE']) {
      const res = await client.get(`/api/printful/products?category=${slug}&pageSize=100`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total).toBe(byName.total);
    }
    for (const slug of ['t-shirts', 'tshirt', 't-shirt']) {
      const tees = await products(`?category=${slug}&pageSize=100`);
      expect(tees.total).toBeGreaterThan(0);
      expect(tees.items.every((p) => p.type === 'tshirt')).toBe(true);
    }
    expect((await products('?category=phone_case')).items.every((p) => p.type === 'phone_case')).toBe(true);
  });

  it('applies the price range to basePrice', async () => {
    const band = await products('?minPrice=15&maxPrice=25&pageSize=100');
    expect(band.total).toBeGreaterThan(0);
    for (const p of band.items) expect(p.basePrice >= 15 && p.basePrice <= 25).toBe(true);
    const cheap = await products('?maxPrice=14.99&pageSize=100');
    for (const p of cheap.items) expect(p.basePrice).toBeLessThan(15);
    const combined = await products('?category=Hoodies&minPrice=30&pageSize=100');
    expect(combined.items.length).toBeGreaterThan(0);
    for (const p of combined.items) expect(p.type === 'hoodie' && p.basePrice >= 30).toBe(true);
  });

  it('pages without overlap and answers an empty page past the end', async () => {
    const one = await products('?page=1');
    const two = await products('?page=2');
    const ids = new Set(one.items.map((p) => p.id));
    expect(two.items.some((p) => ids.has(p.id))).toBe(false);
    const past = await products(`?page=${one.totalPages + 1}`);
    expect(past.items).toEqual([]);
    expect(past.total).toBe(one.total);
  });

  it.each([
    ['?page=0', 'page'],
    ['?page=abc', 'page'],
    ['?minPrice=cheap', 'minPrice'],
    ['?minPrice=-5', 'minPrice'],
    ['?minPrice=30&maxPrice=10', 'minPrice'],
    ['?category=Spaceships', 'Spaceships'],
    ['?pageSize=1000', 'pageSize'],
  ])('answers 400 to %s', async (query, named) => {
    const res = await client.get(`/api/printful/products${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(named);
  });
});

describe('bundled catalogue: categories and Shopify templates', () => {
  it('lists the category tree and children by parent_id', async () => {
    const all = (await client.get('/api/printful/categories')).json<TCatalogCategory[]>();
    expect(all.map((c) => c.name)).toEqual(
      expect.arrayContaining(['T-Shirts', 'Hoodies', 'Mugs', 'Posters', 'Phone Cases', 'Tote Bags', 'Stickers']),
    );
    const roots = (await client.get('/api/printful/categories?parent_id=0')).json<TCatalogCategory[]>();
    expect(roots.map((c) => c.name)).toEqual(['Apparel', 'Home & Living', 'Accessories']);
    const apparel = (await client.get('/api/printful/categories?parent_id=1')).json<TCatalogCategory[]>();
    expect(apparel.map((c) => c.name)).toEqual(['T-Shirts', 'Hoodies']);
    expect((await client.get('/api/printful/categories?parent_id=-1')).statusCode).toBe(400);
    expect((await client.get('/api/printful/categories?parent_id=x')).statusCode).toBe(400);
  });

  it('serves categories and templates for a Shopify product', async () => {
    const cats = await client.get('/api/catalog/shopify/categories');
    expect(cats.statusCode).toBe(200);
    expect(cats.json<TCatalogCategory[]>()[0]).toEqual({
      id: 1,
      parentId: 0,
      name: 'Apparel',
      image: '/templates/catalog/categories/1.svg',
    });
    const res = await client.get('/api/catalog/shopify/products?categoryId=112');
    expect(res.statusCode).toBe(200);
    const templates = res.json<TCatalogTemplate[]>();
    expect(templates.length).toBeGreaterThan(3);
    expect(templates[0]).toEqual({
      id: 19,
      name: 'White Glossy Mug',
      description: expect.stringContaining('ceramic'),
      price: 5.95,
      imageUrl: '/templates/catalog/products/19/white.png',
    });
    expect((await client.get('/api/catalog/shopify/products?categoryId=abc')).statusCode).toBe(400);
    expect((await client.get('/api/catalog/shopify/products?categoryId=9999')).statusCode).toBe(400);
  });

  it('renders apparel, mugs and posters as PNG and draws the other kinds as SVG under /templates/catalog', async () => {
    const page = await products('?pageSize=100');
    const photoTypes = ['tshirt', 'hoodie', 'mug', 'poster'];
    // Every product image answers; concurrently, as a browser loads a page of cards.
    await Promise.all(
      page.items.flatMap((p) =>
        p.mockupUrls.map(async (url) => {
          const res = await client.get(url);
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['cache-control']).toBe('public, max-age=86400');
          if (photoTypes.includes(p.type)) {
            expect(url).toMatch(/\.png$/);
            expect(res.headers['content-type']).toBe('image/png');
            expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
          } else {
            expect(url).toMatch(/\.svg$/);
            expect(res.headers['content-type']).toContain('image/svg+xml');
            expect(res.body).toMatch(/^<svg /);
          }
        }),
      ),
    );
    // The render is 600x750 in the catalogue colour's own hex (Navy #212642), not the template set's navy.
    const navy = await client.get('/templates/catalog/products/71/navy.png');
    const pixel = async (png: Buffer) => {
      const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([600, 750]);
      const i = (330 * 600 + 300) * 3;
      return { r: data[i] ?? 0, g: data[i + 1] ?? 0, b: data[i + 2] ?? 0 };
    };
    const onNavy = await pixel(navy.rawPayload);
    expect(onNavy.b).toBeGreaterThan(onNavy.r + 10);
    expect(Math.max(onNavy.r, onNavy.g, onNavy.b)).toBeLessThan(90);
    const onRed = await pixel((await client.get('/templates/catalog/products/71/red.png')).rawPayload);
    expect(onRed.r).toBeGreaterThan(onRed.b + 60);
    // The same render comes from the disk cache afterwards.
    expect((await client.get('/templates/catalog/products/71/navy.png')).rawPayload.equals(navy.rawPayload)).toBe(true);
    expect((await client.get('/templates/catalog/products/181/white.svg')).body).toContain('linearGradient');
    expect((await client.get('/templates/catalog/categories/112.svg')).statusCode).toBe(200);
    const tees = await client.get('/templates/catalog/categories/24.svg');
    expect(tees.headers['content-type']).toContain('image/svg+xml');
    expect(tees.body).toMatch(/^<svg /);
    expect((await client.get('/templates/catalog/products/71/purple.png')).statusCode).toBe(404);
    expect((await client.get('/templates/catalog/products/71/navy.svg')).statusCode).toBe(404);
    expect((await client.get('/templates/catalog/products/181/white.png')).statusCode).toBe(404);
    expect((await client.get('/templates/catalog/products/99999/white.png')).statusCode).toBe(404);
    // Every picture of the catalogue is rendered here: on a shared, busy machine that takes more than 30 s.
  }, 120_000);

  it('gives each product its own picture: its colours, so two tees no longer show the same white tee (#28)', async () => {
    const page = await products('?category=t-shirts&pageSize=100');
    const firsts = page.items.map((p) => p.mockupUrls[0]);
    expect(new Set(firsts).size).toBe(firsts.length);
    const bella = (await client.get('/templates/catalog/products/71/range.png')).rawPayload;
    const gildan = (await client.get('/templates/catalog/products/438/range.png')).rawPayload;
    expect(bella.subarray(1, 4).toString()).toBe('PNG');
    expect(bella.equals(gildan)).toBe(false);
    const { info } = await sharp(bella).toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([600, 750]);
    // A product of one colour has no range: its colour's picture is its own.
    expect((await client.get('/templates/catalog/products/19/range.png')).statusCode).toBe(404);
  });
});
