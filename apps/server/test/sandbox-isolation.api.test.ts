import type { TIntegration, TOrderPage, TProductDetail } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, orders, shopifyWebhookEvents } from '../src/db/schema';
import type { FakeShopify } from '../src/integrations/shopify/fake-server';
import { webhookHmac } from '../src/integrations/shopify/hmac';
import { SANDBOX_API_SECRET } from '../src/modules/shopify/shopify.service';
import { startShopifyWebhookWorker } from '../src/modules/shopify/shopify-webhooks.worker';
import { insertDesign, solidPng } from './fixtures/designs';
import { waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * The built-in sandboxes belong to a workspace: the same sandbox shop name typed by two workspaces is two shops, and
 * a sandbox webhook is taken only when signed with the secret made for that connection (the old public constant,
 * or another connection's secret, is answered 401 and changes nothing).
 */

const APP = 'http://podforge.test';
let t: TestApp;
let shopify: FakeShopify;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP } });
  await startShopifyWebhookWorker(t.deps, { pollingIntervalSeconds: 0.5 });
  shopify = (await t.deps.shopify.sandboxServer()) as FakeShopify;
});
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
