import type { TDashboardStats, TIntegration, TProduct } from '@podforge/contract';
import { skuFor } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrations, oauthStates, orders, products, publications } from '../src/db/schema';
import { ShopifyClient } from '../src/integrations/shopify/client';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorker } from '../src/jobs/workers';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';

const KEY = 'shp-key';
const SECRET = 'shp-secret';
const APP = 'http://podforge.test';

let fake: FakeShopify;
let t: TestApp;
const sleeps: number[] = [];
/** Time the client slept: the fake's clock moves on by it, so its cost bucket refills as Shopify's would. */
let slept = 0;

beforeAll(async () => {
  fake = await startFakeShopify({
    apiKey: KEY,
    apiSecret: SECRET,
    redirectUriPrefixes: [`${APP}/auth/shopify/callback`],
    unknownShops: ['ghost.myshopify.com'],
    now: () => Date.now() + slept,
  });
  t = await createTestApp({
    env: {
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
      APP_URL: APP,
    },
  });
  // The same client with a recorded sleep: throttle waits take no time.
  t.deps.shopify.client = new ShopifyClient({
    ...(t.deps.shopify.client as ShopifyClient).options,
    sleep: async (ms) => {
      sleeps.push(ms);
      slept += ms;
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  sleeps.length = 0;
});

/** start -> the fake's authorize (auto-approve) -> the path and query of our callback. */
async function approve(client: TestClient, shop: string): Promise<string> {
  const start = await client.get(`/auth/shopify/start?shop=${shop}`);
  expect(start.statusCode).toBe(302);
  const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const callback = new URL(answer.headers.get('location') as string);
  expect(callback.origin + callback.pathname).toBe(`${APP}/auth/shopify/callback`);
  return callback.pathname + callback.search;
}

async function connect(client: TestClient, shop: string): Promise<TIntegration> {
  const res = await client.get(await approve(client, shop));
  expect(res.headers.location).toBe('/integrations?connected=shopify');
  const list = (await client.get('/api/integrations')).json<TIntegration[]>();
  const store = list.find((i) => i.platform === 'shopify' && i.isConnected);
  if (!store) throw new Error('no connected store');
  return store;
}

async function readyProduct(client: TestClient, title = 'Sunset Tee') {
  const ws = await client.workspaceId(t.deps.db);
  const { id: designId } = await insertDesign(t.deps, ws, await solidPng(300, 300, { r: 200, g: 30, b: 30 }));
  const mockup = await client.post('/api/mockups', {
    designId,
    productType: 'mug',
    templateId: 'mug-right',
    adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
  });
  expect(mockup.statusCode, mockup.body).toBe(201);
  const res = await client.post('/api/products', {
    title,
    description: 'A warm sunset <b>on</b> soft cotton.\n\nMachine wash & dry.',
    price: 20,
    tags: ['sunset', 'retro'],
    productType: 'tshirt',
    variants: [
      { option: 'Small', price: 20, sku: 'TS-S' },
      { option: 'Medium', price: 21.5, sku: 'TS-M' },
    ],
    designId,
    mockupId: mockup.json().id,
    status: 'ready',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

const productStatus = async (id: string) =>
  (await t.deps.db.select({ status: products.status }).from(products).where(eq(products.id, id)))[0]?.status;

describe('Shopify OAuth', () => {
  it('connects through the fake: state nonce, hmac, token exchange, encrypted token, connected and verified', async () => {
    const client = t.client();
    const start = await client.get('/auth/shopify/start?shop=happy-shop.myshopify.com');
    const url = new URL(start.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${fake.url}/happy-shop.myshopify.com/admin/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(KEY);
    expect(url.searchParams.get('redirect_uri')).toBe(`${APP}/auth/shopify/callback`);
    expect(url.searchParams.get('scope')).toBe(
      'write_products,write_publications,read_orders,write_merchant_managed_fulfillment_orders',
    );
    const state = url.searchParams.get('state') as string;
    const [row] = await t.deps.db.select().from(oauthStates).where(eq(oauthStates.state, state));
    expect(row?.workspaceId).toBe(await client.workspaceId(t.deps.db));

    const store = await connect(client, 'happy-shop.myshopify.com');
    expect(store).toMatchObject({ storeName: 'happy-shop', status: 'connected', sandbox: false, isConnected: true });
    const [saved] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
    expect(saved).toMatchObject({ kind: 'store', platform: 'shopify', externalId: 'happy-shop.myshopify.com' });
    expect(saved?.verifiedAt).toBeInstanceOf(Date);
    // Encrypted at rest: ciphertext in the row, the real token only after decryption.
    expect(saved?.accessTokenEnc).toMatch(/^v1\./);
    const plain = t.deps.cipher.decrypt(saved?.accessTokenEnc as string);
    expect(plain).toMatch(/^shpat_/);
    const dump = await t.deps.database.db.execute(`select * from integrations`);
    expect(JSON.stringify(dump)).not.toContain(plain);
  });

  it('refuses a reused, unknown or foreign state', async () => {
    const client = t.client();
    const callback = await approve(client, 'reuse-shop.myshopify.com');
    expect((await client.get(callback)).headers.location).toBe('/integrations?connected=shopify');
    // The same callback again: the nonce was used up.
    expect((await client.get(callback)).headers.location).toBe('/integrations?shopify_error=invalid_state');

    const forged = new URL(await approve(client, 'reuse-shop.myshopify.com'), APP);
    forged.searchParams.set('state', 'made-up');
    expect((await client.get(forged.pathname + forged.search)).headers.location).toBe(
      '/integrations?shopify_error=invalid_state',
    );

    // Another workspace's browser carrying this workspace's callback.
    const mine = await approve(client, 'reuse-shop.myshopify.com');
    const other = t.client();
    expect((await other.get(mine)).headers.location).toBe('/integrations?shopify_error=invalid_state');
    expect((await other.get('/api/integrations')).json()).toEqual([]);
  });

  it('refuses a tampered hmac, a swapped shop and a bad shop domain', async () => {
    const client = t.client();
    fake.tamperNextHmac();
    expect((await client.get(await approve(client, 'tamper-shop.myshopify.com'))).headers.location).toBe(
      '/integrations?shopify_error=invalid_hmac',
    );

    const swapped = new URL(await approve(client, 'tamper-shop.myshopify.com'), APP);
    swapped.searchParams.set('shop', 'evil-shop.myshopify.com');
    expect((await client.get(swapped.pathname + swapped.search)).headers.location).toBe(
      '/integrations?shopify_error=invalid_shop',
    );

    for (const shop of ['evil.com', 'Bad_Shop.myshopify.com', 'x.myshopify.com.evil.com', '']) {
      const res = await client.get(`/auth/shopify/start?shop=${encodeURIComponent(shop)}`);
      expect(res.headers.location, shop).toBe('/integrations?shopify_error=invalid_shop');
    }
    expect((await client.get('/api/integrations')).json()).toEqual([]);
  });
});

describe('GET /api/shopify/validate-domain', () => {
  it("answers the spec's message for a bad domain, 404 for a shop that does not exist, 200 otherwise", async () => {
    const client = t.client();
    for (const shop of ['', 'shop', 'my_shop.myshopify.com', 'shop.myshopify.co', '-x.myshopify.com']) {
      const res = await client.get(`/api/shopify/validate-domain?shop=${encodeURIComponent(shop)}`);
      expect(res.statusCode, shop).toBe(400);
      expect(res.json().error).toBe('Please enter a valid Shopify store domain (e.g., your-store.myshopify.com).');
    }
    const ghost = await client.get('/api/shopify/validate-domain?shop=ghost.myshopify.com');
    expect(ghost.statusCode).toBe(404);
    expect(ghost.json().error).toBe(
      'The Shopify store domain you entered does not exist. Please double-check your spelling.',
    );
    const ok = await client.get('/api/shopify/validate-domain?shop=real-shop.myshopify.com');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ valid: true, shop: 'real-shop.myshopify.com', sandbox: false });
  });
});

describe('POST /api/upload/shopify/:productId', () => {
  let client: TestClient;
  let store: TIntegration;
  const shop = 'push-shop.myshopify.com';

  beforeAll(async () => {
    client = t.client();
    store = await connect(client, shop);
  });

  it('creates the product with variants, prices, SKUs and its mockup; product live, publication published', async () => {
    const id = await readyProduct(client);
    const res = await client.post(`/api/upload/shopify/${id}`, {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, platform: 'shopify', integrationId: store.id });
    expect(body.remoteProductId).toMatch(/^gid:\/\/shopify\/Product\/\d+$/);
    expect(body.remoteUrl).toMatch(/^https:\/\/admin\.shopify\.com\/store\/push-shop\/products\/\d+$/);

    const [remote] = (await fake.products(shop)).filter((p) => p.handle === `podforge-${id}`);
    expect(remote).toMatchObject({
      id: body.remoteProductId,
      title: 'Sunset Tee',
      productType: 'tshirt',
      tags: ['sunset', 'retro'],
      status: 'ACTIVE',
      descriptionHtml: '<p>A warm sunset &lt;b&gt;on&lt;/b&gt; soft cotton.</p><p>Machine wash &amp; dry.</p>',
    });
    // Catalogue variants of the default blank, in the mockup's colour, with their deterministic SKUs.
    expect(remote?.variants.map((v) => [v.title, v.price, v.sku])).toEqual([
      ['White / S', '20.00', skuFor(id, 71002)],
      ['White / M', '21.50', skuFor(id, 71003)],
    ]);
    expect(remote?.media).toHaveLength(1);
    const [front] = (await fake.storefront(shop)).filter((p) => p.handle === `podforge-${id}`);
    expect(front).toMatchObject({ onlineStore: true, options: ['Color', 'Size'] });
    const image = await fetch(front?.images[0]?.url as string);
    expect(image.status).toBe(200);
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000);

    expect(await productStatus(id)).toBe('live');
    const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, id));
    expect(pub).toMatchObject({ status: 'published', remoteProductId: body.remoteProductId, error: null });
    expect(pub?.publishedAt).toBeInstanceOf(Date);
    // My Products' 'View in Store' goes where the push put it, on the product and in the list.
    expect((await client.get(`/api/products/${id}`)).json().storeUrl).toBe(body.remoteUrl);
    const listed = (await client.get('/api/products')).json<{ items: { id: string; storeUrl: string | null }[] }>();
    expect(listed.items.find((p) => p.id === id)?.storeUrl).toBe(body.remoteUrl);
    // Live: a second push is refused.
    expect((await client.post(`/api/upload/shopify/${id}`, {})).statusCode).toBe(409);
    const stats = (await client.get('/api/dashboard/stats')).json<TDashboardStats>();
    expect(stats.weeklyUploads).toBe(1);
  });

  it('a failed push keeps the error and the previous status; the retry updates, never duplicates', async () => {
    const id = await readyProduct(client, 'Retry Tee');
    fake.failNextProductSet('userError', 'Shop is temporarily frozen');
    const failed = await client.post(`/api/upload/shopify/${id}`, { integrationId: store.id });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe('Shopify refused the product: Shop is temporarily frozen');
    expect(await productStatus(id)).toBe('ready');
    const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, id));
    expect(pub).toMatchObject({ status: 'failed', error: 'Shopify refused the product: Shop is temporarily frozen' });

    // Shopify did the work but the answer was lost (as in a crash): the retry finds the same product by handle.
    fake.failNextProductSet('after-apply', 'connection reset');
    expect((await client.post(`/api/upload/shopify/${id}`, {})).statusCode).toBe(502);
    expect((await fake.products(shop)).filter((p) => p.handle === `podforge-${id}`)).toHaveLength(1);
    const created = (await fake.products(shop)).find((p) => p.handle === `podforge-${id}`);

    const retried = await client.post(`/api/upload/shopify/${id}`, {});
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().remoteProductId).toBe(created?.id);
    expect((await fake.products(shop)).filter((p) => p.title === 'Retry Tee')).toHaveLength(1);
    expect(await productStatus(id)).toBe('live');
    const rows = await t.deps.db.select().from(publications).where(eq(publications.productId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'published', error: null });
  });

  it('a product left processing by a process that ended can be pushed again after a while', async () => {
    const id = await readyProduct(client, 'Crash Tee');
    const old = new Date(Date.now() - 10 * 60_000);
    await t.deps.db.update(products).set({ status: 'processing', updatedAt: old }).where(eq(products.id, id));
    const res = await client.post(`/api/upload/shopify/${id}`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(await productStatus(id)).toBe('live');
  });

  it('waits out THROTTLED answers as extensions.cost says, then succeeds; gives up after a bound', async () => {
    const id = await readyProduct(client, 'Throttled Tee');
    fake.throttleNext(2);
    const res = await client.post(`/api/upload/shopify/${id}`, {});
    expect(res.statusCode, res.body).toBe(200);
    // Requested 10 with nothing available at 100/s: 100 ms (+50 margin) each time (then the pictures are polled).
    expect(sleeps.slice(0, 2)).toEqual([150, 150]);
    expect(sleeps.slice(2).every((ms) => ms === 500 || ms === 1000)).toBe(true);

    const id2 = await readyProduct(client, 'Always Throttled Tee');
    fake.throttleNext(50);
    const refused = await client.post(`/api/upload/shopify/${id2}`, {});
    fake.throttleNext(0);
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error).toMatch(/throttling/);
    expect(sleeps.filter((ms) => ms === 150)).toHaveLength(2 + 10);
    expect(await productStatus(id2)).toBe('ready');
  });

  it("answers 404 for another workspace's product or store", async () => {
    const id = await readyProduct(client, 'Private Tee');
    const other = t.client();
    expect((await other.post(`/api/upload/shopify/${id}`, {})).statusCode).toBe(404);
    const mine = await readyProduct(other, 'Other Tee');
    expect((await other.post(`/api/upload/shopify/${mine}`, { integrationId: store.id })).statusCode).toBe(404);
    expect((await other.get(`/api/shopify/sync?shop=${store.id}`)).statusCode).toBe(404);
    expect((await other.post(`/api/shopify/disconnect/${store.id}`, {})).statusCode).toBe(404);
  });
});

describe('POST /api/products/:id/publish', () => {
  it('pushes to every chosen store in one call; a product live in one store may go to another, never twice', async () => {
    const client = t.client();
    const first = await connect(client, 'first-shop.myshopify.com');
    await connect(client, 'second-shop.myshopify.com');
    const second = (await client.get('/api/integrations'))
      .json<TIntegration[]>()
      .find((i) => i.storeName !== null && i.id !== first.id && i.isConnected);
    if (!second) throw new Error('no second store');
    const id = await readyProduct(client, 'Two Shops Tee');

    const once = await client.post(`/api/products/${id}/publish`, { integrationIds: [first.id] });
    expect(once.statusCode, once.body).toBe(200);
    expect(once.json().results).toMatchObject([{ integrationId: first.id, ok: true, error: null }]);
    expect(await productStatus(id)).toBe('live');

    // Live in the first shop: the second still takes it; the first says why it is skipped.
    const both = await client.post(`/api/products/${id}/publish`, { integrationIds: [first.id, second.id] });
    expect(both.json().results).toMatchObject([
      { integrationId: first.id, ok: false, error: expect.stringMatching(/already live in this store/) },
      { integrationId: second.id, ok: true, error: null },
    ]);
    expect((await fake.products('first-shop.myshopify.com')).filter((p) => p.handle === `podforge-${id}`)).toHaveLength(
      1,
    );
    expect(
      (await fake.products('second-shop.myshopify.com')).filter((p) => p.handle === `podforge-${id}`),
    ).toHaveLength(1);
    expect(await productStatus(id)).toBe('live');

    const other = t.client();
    expect((await other.post(`/api/products/${id}/publish`, { integrationIds: [first.id] })).statusCode).toBe(404);
    const mine = await readyProduct(other, 'Mine');
    expect((await other.post(`/api/products/${mine}/publish`, { integrationIds: [first.id] })).statusCode).toBe(404);
    expect((await client.post(`/api/products/${id}/publish`, { integrationIds: [] })).statusCode).toBe(400);
  });
});

describe('a product in several stores (#28)', () => {
  it('uploads a live product to a store that does not have it yet, refuses one that does, and takes it out of one store', async () => {
    const client = t.client();
    const first = await connect(client, 'copies-one.myshopify.com');
    await connect(client, 'copies-two.myshopify.com');
    const second = (await client.get('/api/integrations'))
      .json<TIntegration[]>()
      .find((i) => i.storeName !== null && i.id !== first.id && i.isConnected);
    if (!second) throw new Error('no second store');
    const id = await readyProduct(client, 'Many Stores Tee');

    const one = await client.post(`/api/upload/shopify/${id}`, { integrationId: first.id });
    expect(one.statusCode, one.body).toBe(200);
    expect(await productStatus(id)).toBe('live');
    // Live in the first store: the Upload button (no store chosen) goes to the store that does not have it.
    const two = await client.post(`/api/upload/shopify/${id}`, {});
    expect(two.statusCode, two.body).toBe(200);
    expect(two.json().integrationId).toBe(second.id);
    const again = await client.post(`/api/upload/shopify/${id}`, { integrationId: first.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/already live in .*Update in store/);
    expect((await client.post(`/api/upload/shopify/${id}`, {})).statusCode).toBe(409);

    const product = (await client.get(`/api/products/${id}`)).json<TProduct>();
    expect(product.storeCopies.map((c) => [c.integrationId, c.status])).toEqual([
      [first.id, 'published'],
      [second.id, 'published'],
    ]);
    expect(product.storeCopies.every((c) => c.url?.startsWith('https://'))).toBe(true);

    // Out of the first store: archived there, still live in the second.
    const removed = await client.post(`/api/products/${id}/remove-from-store`, { integrationId: first.id });
    expect(removed.statusCode, removed.body).toBe(204);
    const firstShop = (await fake.products('copies-one.myshopify.com')).find((p) => p.handle === `podforge-${id}`);
    expect(firstShop?.status).toBe('ARCHIVED');
    const after = (await client.get(`/api/products/${id}`)).json<TProduct>();
    expect(after.status).toBe('live');
    expect(after.storeCopies.map((c) => c.integrationId)).toEqual([second.id]);
    const notThere = await client.post(`/api/products/${id}/remove-from-store`, { integrationId: first.id });
    expect(notThere.statusCode).toBe(409);
    expect(notThere.json().error).toMatch(/is not live in/);

    // Out of the last store: the product stays, ready to go again.
    const last = await client.post(`/api/products/${id}/remove-from-store`, {
      integrationId: second.id,
      removal: 'delete',
    });
    expect(last.statusCode, last.body).toBe(204);
    expect(await productStatus(id)).toBe('ready');
    expect((await fake.products('copies-two.myshopify.com')).filter((p) => p.handle === `podforge-${id}`)).toHaveLength(
      0,
    );

    const bad = await client.post(`/api/products/${id}/remove-from-store`, { integrationId: second.id, removal: 'x' });
    expect(bad.statusCode).toBe(400);
    const other = t.client();
    expect((await other.post(`/api/products/${id}/remove-from-store`, { integrationId: second.id })).statusCode).toBe(
      404,
    );
  });
});

describe('sync and webhooks', () => {
  it('reads orders into orders once (none of ours: not from Podforge), sets lastSyncAt, and the dashboard shows the sales', async () => {
    const client = t.client();
    const shop = 'sales-shop.myshopify.com';
    const store = await connect(client, shop);
    await fake.addOrder(shop, { total: '25.00' });
    await fake.addOrder(shop, { total: '40.50' });
    const first = await client.get(`/api/shopify/sync?shop=${store.id}`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ success: true, ordersRead: 2, ordersNew: 2 });
    await fake.addOrder(shop, { total: '10.00' });
    const second = (await client.get(`/api/shopify/sync?shop=${store.id}`)).json();
    expect(second).toMatchObject({ ordersRead: 3, ordersNew: 1 });
    const rows = await t.deps.db.select().from(orders).where(eq(orders.integrationId, store.id));
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.status)).toEqual(['external', 'external', 'external']);
    const listed = (await client.get('/api/integrations')).json<TIntegration[]>()[0];
    expect(listed?.lastSyncAt).toBe(second.lastSyncAt);
    const stats = (await client.get('/api/dashboard/stats')).json<TDashboardStats>();
    expect(stats.store).toMatchObject({ orders: 3, sales: { amount: '75.50', currency: 'USD' } });
    expect((await client.get('/api/shopify/sync?shop=not-an-id')).statusCode).toBe(404);
  });

  it('Sync pages through the orders of its read period, not only the newest page (issue #27)', async () => {
    const client = t.client();
    const shop = 'busy-shop.myshopify.com';
    const store = await connect(client, shop);
    const day = 24 * 3600_000;
    // One order from before the read period, then 65 recent ones: more than one page.
    await fake.addOrder(shop, { total: '9.00', createdAt: new Date(Date.now() - 400 * day) });
    for (let i = 0; i < 65; i++) {
      await fake.addOrder(shop, { total: '1.00', createdAt: new Date(Date.now() - (65 - i) * 60_000) });
    }
    const res = await client.get(`/api/shopify/sync?shop=${store.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ordersRead: 65, ordersNew: 65 });
  });

  it('verifies webhook HMACs: 401 when wrong, 200 for the privacy topics, uninstall disconnects', async () => {
    const client = t.client();
    const shop = 'hook-shop.myshopify.com';
    const store = await connect(client, shop);
    const send = (topic: string, body: string, hmac: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/shopify',
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-shop-domain': shop,
          'x-shopify-hmac-sha256': hmac,
        },
        payload: body,
      });
    const body = JSON.stringify({ shop_id: 1, shop_domain: shop });
    expect((await send('app/uninstalled', body, 'bm90IHRoZSBobWFj')).statusCode).toBe(401);
    expect((await send('app/uninstalled', `${body} `, fake.signWebhook(body))).statusCode).toBe(401);
    expect((await send('app/uninstalled', body, '')).statusCode).toBe(401);
    for (const topic of ['customers/data_request', 'customers/redact']) {
      expect((await send(topic, body, fake.signWebhook(body))).statusCode, topic).toBe(200);
    }
    expect((await client.get('/api/integrations')).json<TIntegration[]>()[0]?.isConnected).toBe(true);
    expect((await send('app/uninstalled', body, fake.signWebhook(body))).statusCode).toBe(200);
    // The work runs as a job (shopify-connection.api.test.ts covers the queue and duplicates).
    await startWorker(t.deps, shopifyWebhookJob, { pollingIntervalSeconds: 0.5 });
    for (let i = 0; i < 200; i++) {
      const [r] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
      if (r?.status === 'disconnected') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
    expect(row).toMatchObject({ status: 'disconnected', accessTokenEnc: null, verifiedAt: null });
    expect((await send('shop/redact', body, fake.signWebhook(body))).statusCode).toBe(200);
    // Nothing else was created for the webhook calls (no workspace cookie is set).
    expect((await send('customers/redact', body, fake.signWebhook(body))).headers['set-cookie']).toBeUndefined();
  });

  it('disconnect forgets the token and the store is no longer usable', async () => {
    const client = t.client();
    const store = await connect(client, 'bye-shop.myshopify.com');
    const res = await client.post(`/api/shopify/disconnect/${store.id}`, {});
    expect(res.statusCode).toBe(200);
    const listed = (await client.get('/api/integrations')).json<TIntegration[]>()[0];
    expect(listed).toMatchObject({ status: 'disconnected', isConnected: false });
    expect((await client.get(`/api/shopify/sync?shop=${store.id}`)).statusCode).toBe(409);
  });
});

describe('the built-in sandbox (no SHOPIFY_API_KEY)', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ env: { APP_URL: APP } });
  });
  afterAll(async () => {
    await s.close();
  });

  it('relays the approval only for a flow this workspace started, so it can never redirect elsewhere', async () => {
    const client = s.client();
    const start = await client.get('/auth/shopify/start?shop=relay-shop.myshopify.com');
    const relay = new URL(start.headers.location as string, APP);
    const refusedTo = async (caller: TestClient, url: URL) => {
      const res = await caller.get(url.pathname + url.search);
      expect(res.statusCode).toBe(302);
      return res.headers.location as string;
    };
    // Another address in place of our callback: the browser goes back to Integrations, not there.
    const elsewhere = new URL(relay);
    elsewhere.searchParams.set('redirect_uri', 'https://evil.example/steal');
    expect(await refusedTo(client, elsewhere)).toMatch(/^\/integrations\?shopify_error=/);
    // Another shop, a state never issued, or another workspace replaying this one's link.
    const otherShop = new URL(relay.toString().replace('relay-shop', 'other-shop'));
    expect(await refusedTo(client, otherShop)).toMatch(/^\/integrations\?shopify_error=/);
    const forged = new URL(relay);
    forged.searchParams.set('state', 'not-a-state-we-issued');
    expect(await refusedTo(client, forged)).toMatch(/^\/integrations\?shopify_error=/);
    expect(await refusedTo(s.client(), relay)).toMatch(/^\/integrations\?shopify_error=/);
    // The flow's own link still reaches our callback.
    expect(new URL(await refusedTo(client, relay)).pathname).toBe('/auth/shopify/callback');
  });

  it('connects through the relayed approval, labels the store Sandbox, and lists what was pushed', async () => {
    const client = s.client();
    const ok = await client.get('/api/shopify/validate-domain?shop=any-name.myshopify.com');
    expect(ok.json()).toEqual({ valid: true, shop: 'any-name.myshopify.com', sandbox: true });
    const start = await client.get('/auth/shopify/start?shop=any-name.myshopify.com');
    expect(start.headers.location).toMatch(
      // The workspace's own shop of that name (see sandbox-isolation.api.test.ts).
      /^\/auth\/shopify\/sandbox\/any-name-[0-9a-f]{12}\.myshopify\.com\/admin\/oauth\/authorize\?/,
    );
    const relayed = await client.get(start.headers.location as string);
    const callback = new URL(relayed.headers.location as string);
    expect(callback.origin + callback.pathname).toBe(`${APP}/auth/shopify/callback`);
    expect((await client.get(callback.pathname + callback.search)).headers.location).toBe(
      '/integrations?connected=shopify',
    );
    const [store] = (await client.get('/api/integrations')).json<TIntegration[]>();
    expect(store).toMatchObject({ sandbox: true, isConnected: true, name: 'any-name (Sandbox)' });

    const ws = await client.workspaceId(s.deps.db);
    const { id: designId } = await insertDesign(s.deps, ws, await solidPng(64, 64, { r: 1, g: 2, b: 3 }));
    const created = await client.post('/api/products', {
      title: 'Sandbox Mug',
      description: 'Hot drinks.',
      price: 14.99,
      productType: 'mug',
      variants: [{ option: '11 oz', price: 14.99 }],
      designId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const pushed = await client.post(`/api/upload/shopify/${created.json().id}`, {});
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect(pushed.json().remoteUrl).toMatch(/^\/integrations\/shopify-sandbox#\d+$/);

    const listed = (await client.get('/api/shopify/sandbox/products')).json();
    expect(listed.sandbox).toBe(true);
    expect(listed.stores[0].products).toEqual([
      expect.objectContaining({
        title: 'Sandbox Mug',
        status: 'ACTIVE',
        onlineStore: true,
        options: ['Color', 'Size'],
        variants: [
          {
            title: 'White / 11 oz',
            price: '14.99',
            sku: expect.stringMatching(/^PF-[0-9A-F]{10}-19001$/),
            availableForSale: true,
            image: null,
          },
        ],
      }),
    ]);
    expect((await s.client().get('/api/shopify/sandbox/products')).json()).toEqual({ sandbox: true, stores: [] });

    // Another workspace connecting the same sandbox shop name does not see this one's products.
    const other = s.client();
    const otherStart = await other.get('/auth/shopify/start?shop=any-name.myshopify.com');
    const otherBack = new URL((await other.get(otherStart.headers.location as string)).headers.location as string);
    await other.get(otherBack.pathname + otherBack.search);
    const seen = (await other.get('/api/shopify/sandbox/products')).json();
    expect(seen.stores).toHaveLength(1);
    expect(seen.stores[0].products).toEqual([]);
  });
});
