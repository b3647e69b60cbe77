import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TIntegration, TProduct } from '@podforge/contract';
import { skuFor } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { products, publications } from '../src/db/schema';
import { ShopifyClient } from '../src/integrations/shopify/client';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorker } from '../src/jobs/workers';
import { storePushJob } from '../src/modules/products/store-push';
import { teeDesign } from './fixtures/store-products';
import { createTestApp, openTestDatabase, type TestApp, TestClient } from './helpers';

/**
 * Issue #10, the product side: against the strict fake (apis.md E3), a push makes a product a buyer can see and
 * buy, 'Update in store' changes the same remote product, and deleting a live product archives or deletes it.
 */

const KEY = 'push-key';
const SECRET = 'push-secret';
const APP = 'http://podforge.test';

let fake: FakeShopify;
let t: TestApp;

async function appFor(scopes?: string): Promise<TestApp> {
  const app = await createTestApp({
    env: {
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
      APP_URL: APP,
      ...(scopes ? { SHOPIFY_SCOPES: scopes } : {}),
    },
  });
  // Media polls and throttle waits take no time here.
  app.deps.shopify.client = new ShopifyClient({
    ...(app.deps.shopify.client as ShopifyClient).options,
    sleep: async () => {},
  });
  return app;
}

beforeAll(async () => {
  fake = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET });
  t = await appFor();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

async function connect(app: TestApp, client: TestClient, shop: string): Promise<TIntegration> {
  const start = await client.get(`/auth/shopify/start?shop=${shop}`);
  const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
  const callback = new URL(answer.headers.get('location') as string);
  const res = await client.get(callback.pathname + callback.search);
  expect(res.headers.location).toBe('/integrations?connected=shopify');
  const store = (await client.get('/api/integrations'))
    .json<TIntegration[]>()
    .find((i) => i.platform === 'shopify' && i.isConnected && i.storeName === shop.replace('.myshopify.com', ''));
  if (!store) throw new Error(`no connected store in ${app.config.dataDir}`);
  return store;
}

/** A ready Bella + Canvas 3001 in Black and Red, S and M, with one mockup per colour (Black's the main one). */
async function twoColourTee(app: TestApp, client: TestClient, title: string) {
  const { designId, mockup } = await teeDesign(app, client, { r: 240, g: 200, b: 30 }, 100);
  const black = await mockup('black');
  const red = await mockup('red');
  const detail = (await client.get('/api/printful/products/71')).json<{
    variants: { id: number; color: string; size: string }[];
  }>();
  const pick = (color: string, size: string) => {
    const v = detail.variants.find((x) => x.color === color && x.size === size);
    if (!v) throw new Error(`no ${color} ${size}`);
    return v.id;
  };
  const res = await client.post('/api/products', {
    title,
    description: 'Bright sun on soft cotton.',
    price: 24.99,
    tags: ['sun'],
    productType: 'tshirt',
    catalogProductId: 71,
    variants: [
      { catalogVariantId: pick('Black', 'S'), price: 24.99 },
      { catalogVariantId: pick('Black', 'M'), price: 24.99 },
      { catalogVariantId: pick('Red', 'S'), price: 25.99 },
      { catalogVariantId: pick('Red', 'M'), price: 25.99 },
    ],
    designId,
    mockupIds: [black, red],
    mockupId: black,
    status: 'ready',
  });
  expect(res.statusCode, res.body).toBe(201);
  return { product: res.json<TProduct>(), black, red, pick };
}

const productRow = async (app: TestApp, id: string) =>
  (await app.deps.db.select().from(products).where(eq(products.id, id)))[0];

async function bytesOf(client: TestClient, mockupId: string): Promise<Buffer> {
  const res = await client.get(`/api/mockups/${mockupId}/file`);
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

async function fetchBytes(url: string): Promise<Buffer> {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('a push makes a product a buyer can see and buy (apis.md E3)', () => {
  const shop = 'buyable-shop.myshopify.com';
  let client: TestClient;
  let store: TIntegration;

  beforeAll(async () => {
    client = t.client();
    store = await connect(t, client, shop);
  });

  it('is active, on the Online Store, never sold out, Color x Size, each colour with its own picture, SKUs', async () => {
    const { product, black, red } = await twoColourTee(t, client, 'Buyable Tee');
    const res = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toMatchObject([{ integrationId: store.id, ok: true, error: null }]);

    const [remote] = (await fake.storefront(shop)).filter((p) => p.handle === `podforge-${product.id}`);
    expect(remote).toMatchObject({ status: 'ACTIVE', onlineStore: true, options: ['Color', 'Size'] });
    expect(remote?.variants.map((v) => [v.title, v.price, v.sku, v.availableForSale])).toEqual(
      product.variants.map((v) => [v.option, v.price.toFixed(2), skuFor(product.id, v.catalogVariantId ?? 0), true]),
    );
    // Every picture processed (READY), the main one first; each variant shows its colour's own mockup.
    expect(remote?.failedImages).toEqual([]);
    expect(remote?.images).toHaveLength(2);
    const blackBytes = await bytesOf(client, black);
    const redBytes = await bytesOf(client, red);
    expect((await fetchBytes(remote?.images[0]?.url as string)).equals(blackBytes)).toBe(true);
    for (const v of remote?.variants ?? []) {
      const expected = v.title.startsWith('Black') ? blackBytes : redBytes;
      expect((await fetchBytes(v.image as string)).equals(expected), v.title).toBe(true);
    }
    expect((await productRow(t, product.id))?.status).toBe('live');
    const pushes = (await client.get(`/api/products/${product.id}/pushes`)).json();
    expect(pushes.pushes).toMatchObject([{ integrationId: store.id, state: 'published', error: null }]);
  });

  it('records which store variant is which of ours, from the variants productSet selects (issue #27, 5)', async () => {
    const { product } = await twoColourTee(t, client, 'Mapped Tee');
    const res = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
    expect(res.statusCode, res.body).toBe(200);
    const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, product.id));
    // The fake answers only the fields the document selects, as Shopify's GraphQL does.
    const last = fake.received.filter((r) => r.query.includes('productSet(')).at(-1);
    expect(Object.values(pub?.remoteVariants ?? {}).sort()).toEqual(product.variants.map((v) => v.id).sort());
    expect(last?.query).toMatch(/variants\(first: \d+\)\s*\{\s*nodes\s*\{\s*id\s+sku/);
    for (const remote of Object.keys(pub?.remoteVariants ?? {})) expect(remote).toMatch(/^\d+$/);
  });

  it('shows a picture Shopify could not process as an error naming it; the product is not live', async () => {
    const { product } = await twoColourTee(t, client, 'Failing Picture Tee');
    fake.failNextMedia(1);
    const res = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = res.json().results;
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/picture .*Black.* could not be processed/i);
    expect((await productRow(t, product.id))?.status).toBe('ready');
    const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, product.id));
    expect(pub).toMatchObject({ status: 'failed' });
    // The spec's Upload button says the same.
    fake.failNextMedia(1);
    const upload = await client.post(`/api/upload/shopify/${product.id}`, { integrationId: store.id });
    expect(upload.statusCode).toBe(502);
    expect(upload.json().error).toMatch(/could not be processed/);
    // Once Shopify processes it, the same push goes through and makes no second product.
    const again = await client.post(`/api/upload/shopify/${product.id}`, { integrationId: store.id });
    expect(again.statusCode, again.body).toBe(200);
    expect((await fake.products(shop)).filter((p) => p.handle === `podforge-${product.id}`)).toHaveLength(1);
  });

  it('runs as one job per product and store: two pushes at once make one remote product', async () => {
    const { product } = await twoColourTee(t, client, 'Twice Tee');
    const [a, b] = await Promise.all([
      client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] }),
      client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] }),
    ]);
    const answers = [a, b].map((r) => r.statusCode);
    expect(answers).toContain(200);
    expect((await fake.products(shop)).filter((p) => p.handle === `podforge-${product.id}`)).toHaveLength(1);
    expect((await productRow(t, product.id))?.status).toBe('live');
  });

  it('Update in store changes the same remote product: new prices, disabled variants gone', async () => {
    const { product, pick } = await twoColourTee(t, client, 'Edited Tee');
    const pushed = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
    const remoteId = pushed.json().results[0].remoteProductId;
    expect(remoteId).toMatch(/^gid:\/\/shopify\/Product\//);

    // Not live elsewhere / not edited: nothing to refuse yet, but a product never pushed there is refused.
    const other = await twoColourTee(t, client, 'Never Pushed Tee');
    const never = await client.post(`/api/products/${other.product.id}/update-in-store`, { integrationId: store.id });
    expect(never.statusCode).toBe(409);

    const edited = await client.patch(`/api/products/${product.id}`, {
      variants: [
        { catalogVariantId: pick('Black', 'S'), price: 29.99 },
        { catalogVariantId: pick('Black', 'M'), price: 29.99 },
        { catalogVariantId: pick('Red', 'S'), price: 31.5 },
      ],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().changesNotInStore).toBe(true);

    const res = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, integrationId: store.id, remoteProductId: remoteId });
    const remote = (await fake.storefront(shop)).filter((p) => p.handle === `podforge-${product.id}`);
    expect(remote).toHaveLength(1);
    expect(remote[0]?.variants.map((v) => [v.title, v.price])).toEqual([
      ['Black / S', '29.99'],
      ['Black / M', '29.99'],
      ['Red / S', '31.50'],
    ]);
    expect(remote[0]?.onlineStore).toBe(true);
    const after = (await client.get(`/api/products/${product.id}`)).json<TProduct>();
    expect(after).toMatchObject({ status: 'live', changesNotInStore: false });

    // Another workspace cannot touch it.
    expect(
      (await t.client().post(`/api/products/${product.id}/update-in-store`, { integrationId: store.id })).statusCode,
    ).toBe(404);
  });

  it('deleting a live product asks what to do in the store, then archives or deletes it there', async () => {
    const archived = await twoColourTee(t, client, 'Archive Me Tee');
    const deleted = await twoColourTee(t, client, 'Delete Me Tee');
    for (const p of [archived, deleted]) {
      const res = await client.post(`/api/products/${p.product.id}/publish`, { integrationIds: [store.id] });
      expect(res.json().results[0].ok, res.body).toBe(true);
    }
    const ask = await client.delete(`/api/products/${archived.product.id}`);
    expect(ask.statusCode).toBe(409);
    expect(ask.json().error).toMatch(/archive or delete/);
    expect(await productRow(t, archived.product.id)).toBeDefined();

    expect((await client.delete(`/api/products/${archived.product.id}?store=archive`)).statusCode).toBe(204);
    expect(await productRow(t, archived.product.id)).toBeUndefined();
    const [remote] = (await fake.storefront(shop)).filter((p) => p.handle === `podforge-${archived.product.id}`);
    expect(remote).toMatchObject({ status: 'ARCHIVED', onlineStore: false });

    expect((await client.delete(`/api/products/${deleted.product.id}?store=delete`)).statusCode).toBe(204);
    expect((await fake.products(shop)).filter((p) => p.handle === `podforge-${deleted.product.id}`)).toEqual([]);

    // A product that is not live is deleted as before, with no question.
    const draft = await twoColourTee(t, client, 'Draft Tee');
    expect((await client.delete(`/api/products/${draft.product.id}`)).statusCode).toBe(204);
    expect((await client.delete(`/api/products/${draft.product.id}?store=bogus`)).statusCode).toBe(400);
  });
});

describe('scopes (apis.md E3)', () => {
  it('a store connected without write_publications cannot publish: the error names the scope', async () => {
    const narrow = await appFor('write_products,read_orders');
    try {
      const client = narrow.client();
      const store = await connect(narrow, client, 'narrow-shop.myshopify.com');
      const { product } = await twoColourTee(narrow, client, 'Narrow Tee');
      const res = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
      const [result] = res.json().results;
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/write_publications/);
      expect((await productRow(narrow, product.id))?.status).toBe('ready');
    } finally {
      await narrow.close();
    }
  });
});

describe('a restart (the same database, a new process)', () => {
  it('keeps the sandbox: its products, pictures and tokens; and runs a push queued before it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-restart-'));
    const database = await openTestDatabase();
    const boot = async (env: Record<string, string>) => {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', APP_URL: APP, ...env });
      config.webDistDir = null;
      const built = await buildApp({ config, database, logger: false });
      await built.app.ready();
      built.deps.shopify.client = null;
      return built;
    };
    try {
      // First process: connect the sandbox, push one product; a second push is only queued (no worker here).
      const first = await boot({ JOBS_WORKER: 'false', STORE_PUSH_WAIT_SECONDS: '0' });
      const asApp = { ...t, app: first.app, deps: first.deps } as TestApp;
      const client = new TestClient(first.app);
      const shop = 'restart-shop.myshopify.com';
      const start = await client.get(`/auth/shopify/start?shop=${shop}`);
      const relayed = await client.get(start.headers.location as string);
      const back = new URL(relayed.headers.location as string);
      expect((await client.get(back.pathname + back.search)).headers.location).toBe('/integrations?connected=shopify');
      const [store] = (await client.get('/api/integrations')).json<TIntegration[]>();
      if (!store) throw new Error('no sandbox store');
      const pushed = await twoColourTee(asApp, client, 'Restart Tee');
      const queued = await twoColourTee(asApp, client, 'Queued Tee');
      await startWorker(first.deps, storePushJob);
      first.deps.config.storePushWaitSeconds = 25;
      const ok = await client.post(`/api/products/${pushed.product.id}/publish`, { integrationIds: [store.id] });
      expect(ok.json().results[0], ok.body).toMatchObject({ ok: true });
      await first.app.close();

      const second = await boot({ JOBS_WORKER: 'false', STORE_PUSH_WAIT_SECONDS: '0' });
      const client2 = new TestClient(second.app);
      client2.cookie = client.cookie;
      const running = await client2.post(`/api/products/${queued.product.id}/publish`, { integrationIds: [store.id] });
      expect(running.json().results[0]).toMatchObject({ ok: false, state: 'running', error: null });
      const progress = (await client2.get(`/api/products/${queued.product.id}/pushes`)).json();
      expect(progress.pushes).toMatchObject([{ state: 'running', progress: 'Queued' }]);
      await second.app.close();

      // After the restart: the sandbox still has the first product, its pictures and the store's token, and the
      // queued push runs on this process's workers.
      const third = await boot({});
      const client3 = new TestClient(third.app);
      client3.cookie = client.cookie;
      await startWorker(third.deps, storePushJob);
      for (let i = 0; i < 200; i++) {
        const state = (await client3.get(`/api/products/${queued.product.id}/pushes`)).json().pushes[0]?.state;
        if (state !== 'running') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await client3.get(`/api/products/${queued.product.id}/pushes`)).json().pushes).toMatchObject([
        { state: 'published', error: null },
      ]);
      const listed = (await client3.get('/api/shopify/sandbox/products')).json();
      const titles = listed.stores[0].products.map((p: { title: string }) => p.title).sort();
      expect(titles).toEqual(['Queued Tee', 'Restart Tee']);
      const restart = listed.stores[0].products.find((p: { title: string }) => p.title === 'Restart Tee');
      expect(restart).toMatchObject({ onlineStore: true, options: ['Color', 'Size'], images: 2 });
      expect(restart.variants.every((v: { availableForSale: boolean }) => v.availableForSale)).toBe(true);
      const picture = await client3.get(restart.variants[0].image);
      expect(picture.statusCode).toBe(200);
      expect(picture.headers['content-type']).toBe('image/png');
      expect(picture.rawPayload.equals(await bytesOf(client3, pushed.black))).toBe(true);

      // Deleted here and archived there: the sandbox page still shows the listing, archived and off the store.
      expect((await client3.delete(`/api/products/${pushed.product.id}?store=archive`)).statusCode).toBe(204);
      const after = (await client3.get('/api/shopify/sandbox/products')).json();
      expect(after.stores[0].products.find((p: { title: string }) => p.title === 'Restart Tee')).toMatchObject({
        status: 'ARCHIVED',
        onlineStore: false,
      });
      await third.app.close();
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
