import type { TIntegration, TWooSandboxProducts } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, orders as ordersTable, products, publications } from '../src/db/schema';
import { type FakeWoo, startFakeWooCommerce, wooSignature } from '../src/integrations/woocommerce/fake-server';
import { startWorker } from '../src/jobs/workers';
import { storePushJob } from '../src/modules/products/store-push';
import { twoColourTee as makeTee } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { settledPush, withoutPushWait } from './support/pushes';

/**
 * WooCommerce: a real store (the fake at its address through WOOCOMMERCE_STORE_BASE_URL) and the built-in sandbox
 * store. The app listens on loopback so the sandbox store can download the pictures from it, as a real store
 * downloads them from APP_URL.
 */

const REAL = { host: 'shop.example.com', key: `ck_${'a'.repeat(40)}`, secret: `cs_${'b'.repeat(40)}` };
let t: TestApp;
let real: FakeWoo;
let sandbox: FakeWoo;

beforeAll(async () => {
  real = await startFakeWooCommerce({
    stores: [{ host: REAL.host, name: 'Example Shop', consumerKey: REAL.key, consumerSecret: REAL.secret }],
  });
  t = await createTestApp({ env: { WOOCOMMERCE_STORE_BASE_URL: `${real.url}/{host}` } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  sandbox = await t.deps.woocommerce.sandboxServer();
  // Pushes are jobs: the queue and its workers start here rather than inside the first test.
  await startWorker(t.deps, storePushJob);
});
afterAll(async () => {
  await t.close();
  await real.close();
});

async function connectSandbox(client: TestClient): Promise<TIntegration> {
  const res = await client.post('/api/woocommerce/connect', { sandbox: true });
  expect(res.statusCode, res.body).toBe(201);
  const list = (await client.get('/api/integrations')).json<TIntegration[]>();
  const store = list.find((i) => i.id === res.json().integrationId);
  if (!store) throw new Error('not listed');
  return store;
}

const twoColourTee = (client: TestClient, title = 'Sunset Tee') =>
  makeTee(t, client, { title, tags: ['sunset'], color: { r: 30, g: 90, b: 200 } });

const held = async (client: TestClient) =>
  (await client.get('/api/woocommerce/sandbox/products')).json<TWooSandboxProducts>();

describe('WooCommerce connect', () => {
  it('checks the keys with a call before saving; wrong keys and http addresses save nothing', async () => {
    const client = t.client();
    const wrong = await client.post('/api/woocommerce/connect', {
      storeUrl: `https://${REAL.host}`,
      consumerKey: REAL.key,
      consumerSecret: `cs_${'c'.repeat(40)}`,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toContain('the store refused these keys');
    const http = await client.post('/api/woocommerce/connect', {
      storeUrl: `http://${REAL.host}`,
      consumerKey: REAL.key,
      consumerSecret: REAL.secret,
    });
    expect(http.statusCode).toBe(400);
    expect(http.json().error).toContain('https://');
    const ws = await client.workspaceId(t.deps.db);
    expect(await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws))).toHaveLength(0);

    const ok = await client.post('/api/woocommerce/connect', {
      storeUrl: `https://${REAL.host}/`,
      consumerKey: REAL.key,
      consumerSecret: REAL.secret,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, ok.json().integrationId));
    expect(row).toMatchObject({
      platform: 'woocommerce',
      externalId: `https://${REAL.host}`,
      storeName: 'Example Shop',
    });
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(REAL.secret);
    // An order.created webhook with a secret of our own, delivered to this app.
    const [hook] = real.webhooks(REAL.host);
    expect(hook).toMatchObject({ topic: 'order.created', status: 'active' });
    expect(hook?.delivery_url).toMatch(new RegExp(`/api/webhooks/woocommerce/${row?.id}$`));
  });

  it('connects the sandbox store, labelled Sandbox', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    expect(store).toMatchObject({ platform: 'woocommerce', sandbox: true, isConnected: true });
    expect(store.storeName).toBe('Podforge Sandbox Store (Sandbox)');
  });
});

describe('WooCommerce push', () => {
  it('makes a variable product: Color and Size, variations by batch with string prices, SKUs and pictures', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const product = await twoColourTee(client);
    const res = await client.post(`/api/products/${product.id}/publish`, { integrationIds: [store.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results[0]).toMatchObject({ ok: true, platform: 'woocommerce' });
    const [pushed] = (await held(client)).stores[0]?.products ?? [];
    expect(pushed).toMatchObject({ name: 'Sunset Tee', type: 'variable', status: 'publish', tags: ['sunset'] });
    expect(pushed?.attributes.map((a) => a.name)).toEqual(['Color', 'Size']);
    expect(pushed?.attributes[0]?.options.sort()).toEqual(['Black', 'Navy']);
    expect(pushed?.images).toHaveLength(2);
    expect(pushed?.variations).toHaveLength(product.variants.length);
    for (const v of product.variants) {
      const remote = pushed?.variations.find((x) => x.sku === v.sku);
      expect(remote?.regular_price).toBe(v.price.toFixed(2));
      expect(remote?.attributes).toEqual([
        { name: 'Color', option: v.color },
        { name: 'Size', option: v.size },
      ]);
    }
    // Navy is the main picture (first); its variations show it.
    const navy = pushed?.variations.find((x) => x.attributes[0]?.option === 'Navy');
    expect(navy?.image?.id).toBe(pushed?.images[0]?.id);
    const picture = await client.get(pushed?.images[0]?.src as string);
    expect(picture.headers['content-type']).toBe('image/png');
    expect((await t.client().get(pushed?.images[0]?.src as string)).statusCode).toBe(404);
    const [row] = await t.deps.db.select().from(products).where(eq(products.id, product.id));
    expect(row?.status).toBe('live');
    // The file's first mockups draw the templates cold, which takes most of a loaded machine's 30 s.
  }, 90_000);

  it('a create whose answer was lost is found by SKU: no second product', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const product = await twoColourTee(client, 'Lost Woo Tee');
    sandbox.failNextCreateAfterCreating();
    const failed = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
    expect(failed.statusCode).toBe(502);
    const again = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
    expect(again.statusCode, again.body).toBe(200);
    const host = new URL((await storeUrl(store.id)) as string).host;
    expect(sandbox.products(host).filter((p) => p.name === 'Lost Woo Tee')).toHaveLength(1);
    expect(sandbox.products(host).find((p) => p.name === 'Lost Woo Tee')?.variations).toHaveLength(
      product.variants.length,
    );
  }, 120_000);

  it('a product goes live only after its variations: a failed batch leaves a draft, the retry publishes it (#27.10)', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const product = await twoColourTee(client, 'Draft First Tee');
    const host = new URL((await storeUrl(store.id)) as string).host;
    sandbox.failNextVariationBatch();
    const failed = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
    expect(failed.statusCode).toBe(502);
    const [half] = sandbox.products(host).filter((p) => p.name === 'Draft First Tee');
    expect(half?.status).toBe('draft');
    expect(half?.variations).toHaveLength(0);
    const again = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
    expect(again.statusCode, again.body).toBe(200);
    const made = sandbox.products(host).filter((p) => p.name === 'Draft First Tee');
    expect(made).toHaveLength(1);
    expect(made[0]?.status).toBe('publish');
    expect(made[0]?.variations).toHaveLength(product.variants.length);
  }, 120_000);

  it('a push is a job: the upload answers at once, a failure shows its reason, the retry finishes the same product', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const product = await twoColourTee(client, 'Queued Woo Tee');
    const host = new URL((await storeUrl(store.id)) as string).host;
    const settled = () => settledPush(client, product.id, store.id);
    await withoutPushWait(t, async () => {
      sandbox.failNextCreateAfterCreating();
      const first = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
      expect(first.statusCode, first.body).toBe(202);
      expect(first.json()).toMatchObject({ success: false, state: 'running', platform: 'woocommerce' });
      const failed = await settled();
      expect(failed.state).toBe('failed');
      expect(failed.error).toMatch(/^WooCommerce: /);
      const [row] = await t.deps.db.select().from(products).where(eq(products.id, product.id));
      expect(row?.status).toBe('ready');

      const again = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
      expect(again.statusCode, again.body).toBe(202);
      const done = await settled();
      expect(done).toMatchObject({ state: 'published', error: null });
      const made = sandbox.products(host).filter((p) => p.name === 'Queued Woo Tee');
      expect(made).toHaveLength(1);
      expect(done.remoteProductId).toBe(String(made[0]?.id));
    });
  }, 90_000);

  it('Update in store reprices the same product', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const product = await twoColourTee(client, 'Reprice Tee');
    const pushed = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
    expect(pushed.statusCode, pushed.body).toBe(200);
    expect((await client.patch(`/api/products/${product.id}`, { price: 29 })).statusCode).toBe(200);
    const res = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().remoteProductId).toBe(pushed.json().remoteProductId);
    const remote = (await held(client)).stores[0]?.products.find((p) => String(p.id) === res.json().remoteProductId);
    expect(Math.min(...(remote?.variations.map((v) => Number(v.regular_price)) ?? []))).toBe(29);
  });

  it('deleting a live product drafts or deletes it in the store (a removal job), then the product goes', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const host = new URL((await storeUrl(store.id)) as string).host;
    const drafted = await twoColourTee(client, 'Leaving Woo Tee');
    const deleted = await twoColourTee(client, 'Gone Woo Tee');
    const ids: number[] = [];
    for (const p of [drafted, deleted]) {
      const pushed = await client.post(`/api/upload/woocommerce/${p.id}`, { integrationId: store.id });
      expect(pushed.statusCode, pushed.body).toBe(200);
      ids.push(Number(pushed.json().remoteProductId));
    }
    expect((await client.delete(`/api/products/${drafted.id}`)).statusCode).toBe(409);
    expect((await client.delete(`/api/products/${drafted.id}?store=archive`)).statusCode).toBe(204);
    expect(sandbox.products(host).find((p) => p.id === ids[0])?.status).toBe('draft');
    expect((await client.get(`/api/products/${drafted.id}`)).statusCode).toBe(404);
    expect((await client.delete(`/api/products/${deleted.id}?store=delete`)).statusCode).toBe(204);
    expect(sandbox.products(host).some((p) => p.id === ids[1])).toBe(false);
    expect((await client.get(`/api/products/${deleted.id}`)).statusCode).toBe(404);
  });

  it('a real store needs a public APP_URL to fetch pictures: said before anything is sent', async () => {
    const client = t.client();
    const ok = await client.post('/api/woocommerce/connect', {
      storeUrl: `https://${REAL.host}`,
      consumerKey: REAL.key,
      consumerSecret: REAL.secret,
    });
    const product = await twoColourTee(client, 'Private Tee');
    const before = real.calls.length;
    const res = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: ok.json().integrationId });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toContain('set APP_URL');
    expect(real.calls.length).toBe(before);
  });
});

async function storeUrl(id: string) {
  const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, id));
  return row?.externalId;
}

describe('WooCommerce order webhooks', () => {
  it('a signed order.created is recorded; a bad signature answers 401', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const host = new URL((await storeUrl(store.id)) as string).host;
    const { orderId, deliveries } = await sandbox.placeOrder(host, {
      lineItems: [{ sku: 'X-1', quantity: 2, price: '24.50' }],
    });
    expect(deliveries.map((d) => d.status)).toEqual([200]);
    const orders = await t.deps.db.select().from(ordersTable).where(eq(ordersTable.integrationId, store.id));
    expect(orders).toMatchObject([
      { remoteOrderId: String(orderId), revenue: '49.00', currency: 'USD', status: 'external' },
    ]);

    const body = JSON.stringify({ id: 999, total: '1.00' });
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/woocommerce/${store.id}`,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-signature': wooSignature(body, 'not-the-secret'),
      },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    // The ping WooCommerce sends to a webhook it has just saved (a form body) is answered 200, and changes nothing.
    const ping = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/woocommerce/${store.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'webhook_id=12',
    });
    expect(ping.statusCode).toBe(200);
    expect(await t.deps.db.select().from(ordersTable).where(eq(ordersTable.integrationId, store.id))).toHaveLength(1);
    const pubs = await t.deps.db.select().from(publications).where(eq(publications.integrationId, store.id));
    expect(pubs).toHaveLength(0);
  });
});
