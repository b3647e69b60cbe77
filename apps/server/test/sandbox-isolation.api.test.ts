import type { TIntegration, TOrderPage, TPrintfulSandboxOrder, TProductDetail } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fulfillmentWebhooks,
  integrations,
  orders,
  sandboxStates,
  shopifyWebhookEvents,
  storeSettings,
  webhookEvents,
} from '../src/db/schema';
import type { FakeEtsy } from '../src/integrations/etsy/fake-server';
import { signPrintfulWebhook } from '../src/integrations/printful/fake-orders';
import type { FakeShopify } from '../src/integrations/shopify/fake-server';
import { webhookHmac } from '../src/integrations/shopify/hmac';
import { wooSignature } from '../src/integrations/woocommerce/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { readEtsyOrders } from '../src/modules/etsy/etsy-receipts';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { storePushJob } from '../src/modules/products/store-push';
import { SANDBOX_API_SECRET } from '../src/modules/shopify/shopify.service';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { SandboxState } from '../src/modules/stores/sandbox-state';
import { insertDesign, solidPng } from './fixtures/designs';
import { twoColourTee, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * The built-in sandboxes belong to a workspace: the same sandbox shop name typed by two workspaces is two shops, and
 * a sandbox webhook is taken only when signed with the secret made for that connection (the old public constant,
 * or another connection's secret, is answered 401 and changes nothing).
 */

const APP = 'http://podforge.test';
let t: TestApp;
let shopify: FakeShopify;

const SLOW = 180_000;

beforeAll(async () => {
  // Printed parcels stay in production: a forged shipment must not move them.
  t = await createTestApp({ env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '3600' } });
  t.deps.etsy.sandboxOptions = { limits: { perSecond: 10_000, perDay: 1_000_000 } };
  // The WooCommerce sandbox delivers its webhooks to this app's own address.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  await startWorkers(t.deps, [storePushJob, ...ORDER_JOBS, printfulSandboxTickJob, shopifyWebhookJob], {
    pollingIntervalSeconds: 0.5,
  });
  shopify = (await t.deps.shopify.sandboxServer()) as FakeShopify;
}, SLOW);
afterAll(async () => {
  await t.close();
});

type Seller = { client: TestClient; store: TIntegration; sku: string };

/** A workspace that connected the sandbox shop `shop` (as typed) and pushed a one-variant mug to it. */
async function shopifySeller(shop: string): Promise<Seller> {
  const client = t.client();
  const start = await client.get(`/auth/shopify/start?shop=${shop}`);
  const relayed = await client.get(start.headers.location as string);
  const back = new URL(relayed.headers.location as string);
  expect((await client.get(back.pathname + back.search)).headers.location).toBe('/integrations?connected=shopify');
  const store = (await client.get('/api/integrations')).json<TIntegration[]>()[0] as TIntegration;
  const ws = await client.workspaceId(t.deps.db);
  const { id: designId } = await insertDesign(t.deps, ws, await solidPng(64, 64, { r: 9, g: 9, b: 9 }));
  const created = await client.post('/api/products', {
    title: 'Isolated Mug',
    description: 'Hot drinks.',
    price: 14,
    productType: 'mug',
    variants: [{ option: '11 oz', price: 14 }],
    designId,
  });
  expect(created.statusCode, created.body).toBe(201);
  const pushed = await client.post(`/api/upload/shopify/${created.json().id}`, {});
  expect(pushed.statusCode, pushed.body).toBe(200);
  const detail = (await client.get(`/api/products/${created.json().id}`)).json<TProductDetail>();
  return { client, store, sku: detail.variants[0]?.sku as string };
}

const shopOf = async (store: TIntegration) =>
  (
    await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id))
  )[0] as typeof integrations.$inferSelect;
const ordersOf = async (s: Seller) => (await s.client.get('/api/orders')).json<TOrderPage>().items;
const deliverShopify = (shop: string, topic: string, body: string, secret: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/shopify',
    payload: body,
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': webhookHmac(body, secret),
      'x-shopify-shop-domain': shop,
      'x-shopify-event-id': crypto.randomUUID(),
    },
  });

describe('the Shopify sandbox', () => {
  let a: Seller;
  let b: Seller;
  beforeAll(async () => {
    a = await shopifySeller('same-name.myshopify.com');
    b = await shopifySeller('same-name.myshopify.com');
  });

  it('gives two workspaces typing the same shop name a shop each; a test order reaches only its own Orders', async () => {
    const shopA = (await shopOf(a.store)).externalId;
    const shopB = (await shopOf(b.store)).externalId;
    expect(shopA).not.toBe(shopB);
    expect(shopA).toMatch(/^same-name-[0-9a-f]{12}\.myshopify\.com$/);
    // The seller still sees the name they typed.
    expect(a.store.name).toBe('same-name (Sandbox)');
    expect((await shopify.products(shopA)).map((p) => p.title)).toEqual(['Isolated Mug']);
    expect((await shopify.products(shopB)).map((p) => p.title)).toEqual(['Isolated Mug']);

    // The legitimately signed flow: the test order placed from the sandbox page arrives in A's Orders.
    const placed = await a.client.post('/api/shopify/sandbox/orders', {
      integrationId: a.store.id,
      lines: [{ sku: a.sku, quantity: 1 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const [mine] = await waitFor(
      () => ordersOf(a),
      (list) => list.length === 1,
    );
    expect(mine?.externalId).toBe(placed.json().remoteOrderId);
    const fromB = await b.client.post('/api/shopify/sandbox/orders', {
      integrationId: b.store.id,
      lines: [{ sku: b.sku, quantity: 2 }],
    });
    expect(fromB.statusCode, fromB.body).toBe(201);
    await waitFor(
      () => ordersOf(b),
      (list) => list.length === 1,
    );
    // Each shop holds its own order only, and neither workspace sees the other's.
    expect((await shopify.orders.orders(shopA)).map((o) => o.id)).toEqual([Number(placed.json().remoteOrderId)]);
    expect((await ordersOf(a)).map((o) => o.externalId)).toEqual([placed.json().remoteOrderId]);
    expect((await ordersOf(b)).map((o) => o.externalId)).toEqual([fromB.json().remoteOrderId]);
  });

  it('refuses orders/paid and app/uninstalled signed with the old constant or another secret, and changes nothing', async () => {
    const shopA = (await shopOf(a.store)).externalId;
    const before = await t.deps.db.select().from(orders);
    const events = await t.deps.db.select().from(shopifyWebhookEvents);
    // A paid order as the sandbox would send it, for a SKU A sells.
    const [sent] = shopify.orders.deliveries.filter((d) => d.shop === shopA && d.topic === 'orders/paid');
    const forged = JSON.stringify({ ...JSON.parse(sent?.body as string), id: 999_000_111, name: '#FORGED' });
    const bSecret = t.deps.cipher.decrypt((await shopOf(b.store)).webhookSecretEnc as string);
    for (const secret of [SANDBOX_API_SECRET, 'podforge-sandbox-secret', 'any-other-secret', bSecret]) {
      expect((await deliverShopify(shopA, 'orders/paid', forged, secret)).statusCode, secret).toBe(401);
      const bye = JSON.stringify({ id: 1, domain: shopA });
      expect((await deliverShopify(shopA, 'app/uninstalled', bye, secret)).statusCode, secret).toBe(401);
    }
    // Unsigned, or naming no shop: refused too.
    const bare = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/shopify',
      payload: forged,
      headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/paid' },
    });
    expect(bare.statusCode).toBe(401);
    expect(await t.deps.db.select().from(orders)).toHaveLength(before.length);
    expect(await t.deps.db.select().from(shopifyWebhookEvents)).toHaveLength(events.length);
    expect((await shopOf(a.store)).status).toBe('connected');
    expect((await a.client.get('/api/integrations')).json<TIntegration[]>()[0]?.isConnected).toBe(true);
  });

  it('keeps the secret per connection, encrypted; a connection made before secrets gets one at first use', async () => {
    const rowA = await shopOf(a.store);
    const rowB = await shopOf(b.store);
    expect(rowA.webhookSecretEnc).toBeTruthy();
    const secretA = t.deps.cipher.decrypt(rowA.webhookSecretEnc as string);
    expect(secretA).not.toBe(t.deps.cipher.decrypt(rowB.webhookSecretEnc as string));
    expect(rowA.webhookSecretEnc).not.toContain(secretA);

    // As a row connected before this change is (no secret): its test order still arrives, signed with a new one.
    const old = await shopifySeller('older-shop.myshopify.com');
    await t.deps.db.update(integrations).set({ webhookSecretEnc: null }).where(eq(integrations.id, old.store.id));
    const placed = await old.client.post('/api/shopify/sandbox/orders', {
      integrationId: old.store.id,
      lines: [{ sku: old.sku, quantity: 1 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    await waitFor(
      () => ordersOf(old),
      (list) => list.length === 1,
    );
    expect((await shopOf(old.store)).webhookSecretEnc).toBeTruthy();
    const shop = (await shopOf(old.store)).externalId;
    expect((await deliverShopify(shop, 'app/uninstalled', '{}', SANDBOX_API_SECRET)).statusCode).toBe(401);
    expect((await shopOf(old.store)).status).toBe('connected');
  });
});

const ordersOfClient = async (client: TestClient) => (await client.get('/api/orders')).json<TOrderPage>().items;
const tee = (client: TestClient, title: string) =>
  twoColourTee(t, client, { title, tags: ['isolated'], color: { r: 40, g: 120, b: 60 } });

describe('the Printful sandbox', () => {
  it(
    'refuses a printer event signed with another workspace’s secret or any other, and changes nothing',
    async () => {
      // The Shopify sellers' test orders went to the Printful sandbox, each workspace with its own webhook secret.
      const a = await shopifySeller('printer-a.myshopify.com');
      const b = await shopifySeller('printer-b.myshopify.com');
      for (const s of [a, b]) {
        const set = await s.client.patch('/api/settings', {
          orderConfirmation: { mode: 'automatic', delayMinutes: 60 },
        });
        expect(set.statusCode, set.body).toBe(200);
        const placed = await s.client.post('/api/shopify/sandbox/orders', {
          integrationId: s.store.id,
          lines: [{ sku: s.sku, quantity: 1 }],
        });
        expect(placed.statusCode, placed.body).toBe(201);
        await waitFor(
          async () => (await ordersOf(s))[0]?.status,
          (status) => status === 'sent' || status === 'in_production',
          120_000,
        );
      }
      const configOf = async (s: Seller) =>
        (
          await t.deps.db
            .select()
            .from(fulfillmentWebhooks)
            .where(eq(fulfillmentWebhooks.workspaceId, await s.client.workspaceId(t.deps.db)))
        )[0];
      const configA = await configOf(a);
      const secretB = t.deps.cipher.decrypt((await configOf(b))?.secretEnc as string);
      expect(secretB).not.toBe(t.deps.cipher.decrypt(configA?.secretEnc as string));
      const [printed] = (await a.client.get('/api/printful/sandbox/orders')).json<TPrintfulSandboxOrder[]>();
      const body = JSON.stringify({
        type: 'order_failed',
        created: Math.floor(Date.now() / 1000),
        retries: 0,
        store_id: 1,
        data: {
          order: { id: Number(printed?.id), external_id: printed?.externalId, status: 'failed' },
          reason: 'Forged',
        },
      });
      const events = await t.deps.db.select().from(webhookEvents);
      const statusA = (await ordersOf(a))[0]?.status;
      for (const secret of [secretB, 'podforge-sandbox-secret', 'any-other-secret']) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/webhooks/printful/${configA?.id}`,
          headers: { 'content-type': 'application/json', 'x-pf-webhook-signature': signPrintfulWebhook(body, secret) },
          payload: body,
        });
        expect(res.statusCode, secret).toBe(401);
      }
      expect(await t.deps.db.select().from(webhookEvents)).toHaveLength(events.length);
      expect((await ordersOf(a))[0]?.status).toBe(statusA);
    },
    SLOW,
  );
});

describe('the WooCommerce sandbox', () => {
  const connect = async (client: TestClient) => {
    const res = await client.post('/api/woocommerce/connect', { sandbox: true });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, res.json().integrationId));
    return row as typeof integrations.$inferSelect;
  };
  const secretOf = async (id: string) => {
    const [settings] = await t.deps.db.select().from(storeSettings).where(eq(storeSettings.integrationId, id));
    return t.deps.cipher.decrypt((settings?.data as { webhookSecretEnc?: string } | undefined)?.webhookSecretEnc ?? '');
  };

  it(
    'gives each workspace its own store; a webhook signed with anything but its secret is refused',
    async () => {
      const a = t.client();
      const b = t.client();
      const storeA = await connect(a);
      const storeB = await connect(b);
      expect(storeA.externalId).not.toBe(storeB.externalId);
      expect(await secretOf(storeA.id)).not.toBe(await secretOf(storeB.id));
      // The sandbox's own copy (its webhooks' secrets, the keys it issued) is kept sealed in the database too.
      const kept = await waitFor(
        async () => JSON.stringify(await t.deps.db.select().from(sandboxStates)),
        (json) => json.includes('woocommerce'),
      );
      expect(kept).not.toContain(await secretOf(storeA.id));
      expect(kept).not.toContain('"webhooks"');

      // A paid order.created as the store sends it, forged: another store's secret, any other, none.
      const body = JSON.stringify({
        id: 424242,
        number: '424242',
        status: 'processing',
        currency: 'USD',
        total: '25.00',
        date_created_gmt: new Date().toISOString(),
        shipping: {
          first_name: 'A',
          last_name: 'Buyer',
          address_1: '1 Main St',
          city: 'Austin',
          postcode: '73301',
          country: 'US',
        },
        line_items: [{ id: 1, sku: 'PF-ANY', quantity: 1, price: 25, name: 'Tee' }],
      });
      const before = await t.deps.db.select().from(orders);
      for (const signature of [
        wooSignature(body, await secretOf(storeB.id)),
        wooSignature(body, 'any-other-secret'),
        '',
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/webhooks/woocommerce/${storeA.id}`,
          headers: {
            'content-type': 'application/json',
            'x-wc-webhook-topic': 'order.created',
            'x-wc-webhook-signature': signature,
            'x-wc-webhook-delivery-id': crypto.randomUUID(),
          },
          payload: body,
        });
        expect(res.statusCode).toBe(401);
      }
      expect(await t.deps.db.select().from(orders)).toHaveLength(before.length);

      // The sandbox page's test order (signed by the store with A's secret) reaches A's Orders only.
      const product = await tee(a, 'Woo Isolated Tee');
      const pushed = await a.post(`/api/upload/woocommerce/${product.id}`, { integrationId: storeA.id });
      expect(pushed.statusCode, pushed.body).toBe(200);
      const placed = await a.post('/api/woocommerce/sandbox/orders', {
        integrationId: storeA.id,
        lines: [{ sku: product.variants[0]?.sku, quantity: 1 }],
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const mine = await waitFor(
        () => ordersOfClient(a),
        (list) => list.length === 1,
      );
      expect(mine[0]?.externalId).toBe(placed.json().remoteOrderId);
      expect(await ordersOfClient(b)).toEqual([]);
      // B's store does not sell A's product.
      const foreign = await b.post('/api/woocommerce/sandbox/orders', {
        integrationId: storeB.id,
        lines: [{ sku: product.variants[0]?.sku, quantity: 1 }],
      });
      expect(foreign.statusCode).toBe(400);
    },
    SLOW,
  );
});

describe('the sandboxes’ state', () => {
  it('is read from a plain row saved before it was sealed, and sealed at the next save', async () => {
    await t.deps.woocommerce.sandboxServer();
    const read = async () =>
      (await t.deps.db.select().from(sandboxStates).where(eq(sandboxStates.platform, 'woocommerce')))[0]?.state as {
        sealed?: string;
      };
    const sealed = await waitFor(read, (state) => typeof state?.sealed === 'string');
    const plain = JSON.parse(t.deps.cipher.decrypt(sealed.sealed as string));
    await t.deps.db.update(sandboxStates).set({ state: plain }).where(eq(sandboxStates.platform, 'woocommerce'));
    const kept = new SandboxState<unknown>(t.deps.db, t.deps.storage, 'woocommerce', t.deps.cipher);
    expect(await kept.load()).toEqual(plain);
    await kept.save(plain);
    const again = await read();
    expect(Object.keys(again)).toEqual(['sealed']);
    expect(await kept.load()).toEqual(plain);
  });
});

describe('the Etsy sandbox', () => {
  /** start -> the app's sandbox relay -> the fake's approval -> our callback. */
  const connect = async (client: TestClient, login?: string) => {
    const start = await client.get('/auth/etsy/start');
    const authorize = new URL(start.headers.location as string, APP);
    // Whatever seller the browser names, the relay approves as the workspace's own.
    if (login) authorize.searchParams.set('login', login);
    const relay = await client.get(authorize.pathname + authorize.search);
    const callback = new URL(relay.headers.location as string);
    expect((await client.get(callback.pathname + callback.search)).headers.location).toBe(
      '/integrations?connected=etsy',
    );
    const store = (await client.get('/api/integrations')).json<TIntegration[]>().find((i) => i.platform === 'etsy');
    const [row] = await t.deps.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, store?.id as string));
    return row as typeof integrations.$inferSelect;
  };

  it(
    'gives each workspace its own sandbox shop; a test order reaches only its own Orders',
    async () => {
      const fake = (await t.deps.etsy.sandboxServer()) as FakeEtsy;
      const a = t.client();
      const b = t.client();
      const shopA = await connect(a);
      const shopB = await connect(b);
      expect(shopA.externalId).not.toBe(shopB.externalId);
      expect(shopA.storeName).toBe('PodforgeSandboxShop (Sandbox)');
      // Connecting again finds the same shop; a browser naming another workspace's seller gets its own shop anyway.
      expect((await connect(a)).externalId).toBe(shopA.externalId);
      const ownerA = fake.snapshot().users.find((u) => u.shop_id === Number(shopA.externalId))?.login as string;
      expect((await connect(b, ownerA)).externalId).toBe(shopB.externalId);

      const product = await tee(a, 'Etsy Isolated Tee');
      const pushed = await a.post(`/api/upload/etsy/${product.id}`, { integrationId: shopA.id });
      expect(pushed.statusCode, pushed.body).toBe(200);
      expect(fake.listings(Number(shopA.externalId))).toHaveLength(1);
      expect(fake.listings(Number(shopB.externalId))).toEqual([]);
      const placed = await a.post('/api/etsy/sandbox/orders', {
        integrationId: shopA.id,
        lines: [{ sku: product.variants[0]?.sku, quantity: 1 }],
      });
      expect(placed.statusCode, placed.body).toBe(201);
      await readEtsyOrders(t.deps, shopA.id);
      await readEtsyOrders(t.deps, shopB.id);
      const mine = await waitFor(
        () => ordersOfClient(a),
        (list) => list.length === 1,
      );
      expect(mine[0]?.externalId).toBe(placed.json().remoteOrderId);
      expect(await ordersOfClient(b)).toEqual([]);
      expect(fake.receipts(Number(shopB.externalId))).toEqual([]);
      // B's shop does not sell A's listing.
      const foreign = await b.post('/api/etsy/sandbox/orders', {
        integrationId: shopB.id,
        lines: [{ sku: product.variants[0]?.sku, quantity: 1 }],
      });
      expect(foreign.statusCode).toBe(400);
    },
    SLOW,
  );
});
