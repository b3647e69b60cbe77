import type { TIntegration, TProductDetail } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, oauthStates, publications, shopifyWebhookEvents } from '../src/db/schema';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorker } from '../src/jobs/workers';
import { ShopifyService } from '../src/modules/shopify/shopify.service';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { insertDesign, solidPng } from './fixtures/designs';
import { waitFor as waitUntil } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * The Shopify connection (issue #10 points 4, 5, 6): expiring tokens and their refresh, the install request from
 * Shopify, webhook subscriptions and the receiver, drift from the store. One clock for the app and the fake, moved
 * by the tests (never waited for).
 */

const KEY = 'conn-key';
const SECRET = 'conn-secret';
/** A public https address: the app subscribes its shops to webhooks at connect. */
const APP = 'https://podforge.example';
const clock = { t: Date.parse('2026-11-23T09:00:00Z') };
const MIN = 60_000;

let fake: FakeShopify;
let t: TestApp;

/** Polls the database (the worker runs the job in the background); no fixed waits. */
const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, 20_000);

beforeAll(async () => {
  fake = await startFakeShopify({
    apiKey: KEY,
    apiSecret: SECRET,
    now: () => clock.t,
    // Shopify posts to the public callback; here that address is the app under test.
    webhookTransport: async (url, { headers, body }) => {
      const target = new URL(url);
      const res = await t.app.inject({ method: 'POST', url: target.pathname + target.search, headers, payload: body });
      return { status: res.statusCode };
    },
  });
  t = await createTestApp({
    now: () => new Date(clock.t),
    env: {
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
      APP_URL: APP,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function approve(app: TestApp, client: TestClient, shop: string, startUrl = `/auth/shopify/start?shop=${shop}`) {
  const start = await client.get(startUrl);
  expect(start.statusCode, start.body).toBe(302);
  const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const callback = new URL(answer.headers.get('location') as string);
  expect(callback.origin + callback.pathname).toBe(`${app.config.appUrl}/auth/shopify/callback`);
  return callback.pathname + callback.search;
}

async function connect(app: TestApp, client: TestClient, shop: string): Promise<TIntegration> {
  const res = await client.get(await approve(app, client, shop));
  expect(res.headers.location).toBe('/integrations?connected=shopify');
  const list = (await client.get('/api/integrations')).json<TIntegration[]>();
  const store = list.find((i) => i.platform === 'shopify' && i.isConnected && i.storeName === shop.split('.')[0]);
  if (!store) throw new Error(`no connected store in ${JSON.stringify(list)}`);
  return store;
}

const integrationRow = async (app: TestApp, id: string) =>
  (await app.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0];

async function readyProduct(app: TestApp, client: TestClient, title: string) {
  const ws = await client.workspaceId(app.deps.db);
  const { id: designId } = await insertDesign(app.deps, ws, await solidPng(300, 300, { r: 20, g: 90, b: 160 }));
  const mockup = await client.post('/api/mockups', {
    designId,
    productType: 'mug',
    templateId: 'mug-right',
    adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
  });
  expect(mockup.statusCode, mockup.body).toBe(201);
  const res = await client.post('/api/products', {
    title,
    description: 'Hot drinks, bright mornings.',
    price: 14.99,
    productType: 'mug',
    variants: [{ option: '11 oz', price: 14.99 }],
    designId,
    mockupId: mockup.json().id,
    status: 'ready',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** A token straight from the fake's OAuth (authorize, then the code), with the scopes asked for. */
async function grantDirectly(shop: string, scope: string, expiring = true): Promise<string> {
  const authorize = new URL(`${fake.url}/${shop}/admin/oauth/authorize`);
  authorize.search = new URLSearchParams({
    client_id: KEY,
    scope,
    redirect_uri: `${APP}/auth/shopify/callback`,
    state: 'x',
  }).toString();
  const approved = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
  const client = t.deps.shopify.client;
  if (!client) throw new Error('no client');
  return (await client.exchangeCode(shop, code, { expiring })).accessToken;
}

const productOf = async (client: TestClient, id: string) =>
  (await client.get(`/api/products/${id}`)).json<TProductDetail>();

/** Pushes through the one publish call and waits until the store has it (a push may run as a job). */
async function pushLive(client: TestClient, id: string, integrationId: string) {
  const res = await client.post(`/api/products/${id}/publish`, { integrationIds: [integrationId] });
  expect(res.statusCode, res.body).toBeLessThan(300);
  const product = await waitFor(
    () => productOf(client, id),
    (p) => p.status === 'live' || p.status === 'ready' || p.status === 'draft',
  );
  expect(product.status, JSON.stringify(res.json())).toBe('live');
  const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, id));
  return pub?.remoteProductId as string;
}

describe('tokens that last (expiring offline tokens)', () => {
  it('asks for an expiring offline token and keeps it with its refresh token, both encrypted, and its expiry', async () => {
    const client = t.client();
    const store = await connect(t, client, 'expiring-shop.myshopify.com');
    const row = await integrationRow(t, store.id);
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(row?.refreshTokenEnc).toMatch(/^v1\./);
    expect(t.deps.cipher.decrypt(row?.refreshTokenEnc as string)).toMatch(/^shprt_/);
    expect(row?.tokenExpiresAt?.getTime()).toBe(clock.t + 3600 * 1000);
    const dump = JSON.stringify(await t.deps.db.execute('select * from integrations'));
    expect(dump).not.toContain(t.deps.cipher.decrypt(row?.refreshTokenEnc as string));
  });

  it('a store still pushes 61 minutes after connecting: one refresh, the rotated pair stored', async () => {
    const client = t.client();
    const shop = 'later-shop.myshopify.com';
    const store = await connect(t, client, shop);
    const before = await integrationRow(t, store.id);
    const oldRefresh = t.deps.cipher.decrypt(before?.refreshTokenEnc as string);
    const id = await readyProduct(t, client, 'Later Mug');

    clock.t += 61 * MIN;
    // Shopify's view: the first token is dead after its hour.
    const stale = await fetch(`${fake.url}/${shop}/admin/api/2026-04/graphql.json`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Shopify-Access-Token': t.deps.cipher.decrypt(before?.accessTokenEnc as string),
      },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });
    expect(stale.status).toBe(401);
    expect((await stale.json()).errors).toMatch(/^\[API\] Invalid API key or access token/);
    const refreshesBefore = fake.auth.refreshes.length;
    await pushLive(client, id, store.id);
    expect(fake.auth.refreshes.slice(refreshesBefore)).toEqual([{ shop, ok: true }]);

    const after = await integrationRow(t, store.id);
    expect(after?.accessTokenEnc).not.toBe(before?.accessTokenEnc);
    expect(t.deps.cipher.decrypt(after?.refreshTokenEnc as string)).not.toBe(oldRefresh);
    expect(after?.tokenExpiresAt?.getTime()).toBe(clock.t + 3600 * 1000);
    expect(after?.status).toBe('connected');

    // Rotation: Shopify no longer takes the old refresh token.
    const reused = await fetch(`${fake.url}/${shop}/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_id: KEY,
        client_secret: SECRET,
        grant_type: 'refresh_token',
        refresh_token: oldRefresh,
      }),
    });
    expect(reused.status).toBe(400);
    expect((await reused.json()).error).toBe('invalid_grant');
  });

  it('refreshes once when two app instances need a fresh token at the same moment', async () => {
    const client = t.client();
    const shop = 'busy-shop.myshopify.com';
    const store = await connect(t, client, shop);
    clock.t += 58 * MIN; // inside the margin before expiry: both instances want a new token
    const row = await integrationRow(t, store.id);
    // A second instance: its own service on the same database, sharing no memory with the first.
    const other = new ShopifyService({
      db: t.deps.db,
      cipher: t.deps.cipher,
      config: t.deps.config,
      now: t.deps.now,
      storage: t.deps.storage,
    });
    const refreshesBefore = fake.auth.refreshes.length;
    const [a, b, c] = await Promise.all([
      t.deps.shopify.accessToken(row as NonNullable<typeof row>),
      other.accessToken(row as NonNullable<typeof row>),
      t.deps.shopify.accessToken(row as NonNullable<typeof row>),
    ]);
    expect(fake.auth.refreshes.slice(refreshesBefore)).toEqual([{ shop, ok: true }]);
    expect(new Set([a, b, c]).size).toBe(1);
    expect(await fake.auth.grantOf(a)).not.toBeNull();
    expect(t.deps.cipher.decrypt((await integrationRow(t, store.id))?.accessTokenEnc as string)).toBe(a);
  });

  it('a store connected before expiring tokens is moved once to an expiring pair, and the old token retired', async () => {
    const client = t.client();
    const shop = 'legacy-shop.myshopify.com';
    const store = await connect(t, client, shop);
    // The token the old code kept: non-expiring (the fake plays a custom app for that one grant).
    fake.auth.customApp = true;
    const legacy = await grantDirectly(shop, 'write_products,read_orders', false);
    fake.auth.customApp = false;
    await t.deps.db
      .update(integrations)
      .set({
        accessTokenEnc: t.deps.cipher.encrypt(legacy),
        refreshTokenEnc: null,
        tokenExpiresAt: null,
        refreshTokenExpiresAt: null,
      })
      .where(eq(integrations.id, store.id));

    expect((await client.get(`/api/shopify/sync?shop=${store.id}`)).statusCode).toBe(200);
    const row = await integrationRow(t, store.id);
    expect(row?.tokenExpiresAt?.getTime()).toBe(clock.t + 3600 * 1000);
    expect(row?.refreshTokenEnc).toMatch(/^v1\./);
    expect(t.deps.cipher.decrypt(row?.accessTokenEnc as string)).not.toBe(legacy);
    expect(await fake.auth.grantOf(legacy)).toBeNull();
    expect(row?.status).toBe('connected');
  });

  it('a refresh Shopify refuses asks the seller to reconnect the store', async () => {
    const client = t.client();
    const store = await connect(t, client, 'revoked-shop.myshopify.com');
    await t.deps.db
      .update(integrations)
      .set({ refreshTokenEnc: t.deps.cipher.encrypt('shprt_not-a-real-one') })
      .where(eq(integrations.id, store.id));
    clock.t += 61 * MIN;
    const res = await client.get(`/api/shopify/sync?shop=${store.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatch(/reconnect/i);
    expect((await integrationRow(t, store.id))?.status).toBe('error');

    // Reconnect: OAuth again for the same shop without typing it; another workspace's store is not found.
    expect((await t.client().get(`/auth/shopify/reconnect/${store.id}`)).statusCode).toBe(404);
    const callback = await approve(t, client, 'revoked-shop.myshopify.com', `/auth/shopify/reconnect/${store.id}`);
    expect((await client.get(callback)).headers.location).toBe('/integrations?connected=shopify');
    expect(await integrationRow(t, store.id)).toMatchObject({ status: 'connected' });
    expect((await client.get(`/api/shopify/sync?shop=${store.id}`)).statusCode).toBe(200);
  });
});

describe('custom apps keep non-expiring tokens (SHOPIFY_TOKEN_MODE=non-expiring)', () => {
  let customFake: FakeShopify;
  let c: TestApp;
  beforeAll(async () => {
    customFake = await startFakeShopify({
      apiKey: 'custom',
      apiSecret: 'custom-secret',
      customApp: true,
      now: () => clock.t,
    });
    c = await createTestApp({
      now: () => new Date(clock.t),
      env: {
        SHOPIFY_API_KEY: 'custom',
        SHOPIFY_API_SECRET: 'custom-secret',
        SHOPIFY_SHOP_BASE_URL: `${customFake.url}/{shop}`,
        SHOPIFY_TOKEN_MODE: 'non-expiring',
        APP_URL: 'http://localhost:3000',
      },
    });
  });
  afterAll(async () => {
    await c?.close();
    await customFake?.close();
  });

  it('stores no expiry and no refresh token, and the token keeps working days later', async () => {
    const client = c.client();
    const store = await connect(c, client, 'custom-shop.myshopify.com');
    const row = await integrationRow(c, store.id);
    expect(row).toMatchObject({ refreshTokenEnc: null, tokenExpiresAt: null });
    clock.t += 3 * 24 * 60 * MIN;
    const res = await client.get(`/api/shopify/sync?shop=${store.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(customFake.auth.refreshes).toEqual([]);
  });

  it('a public app may not ask for a non-expiring token (the fake refuses, as Shopify does)', async () => {
    const res = await fetch(`${fake.url}/x.myshopify.com/admin/oauth/access_token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: KEY, client_secret: SECRET, code: 'nope', expiring: '0' }),
    });
    expect(res.status).toBe(400);
  });
});

describe('install from Shopify (the App URL request)', () => {
  it('verifies the hmac and starts OAuth for the shop; the approval connects it', async () => {
    const client = t.client();
    const shop = 'installed-shop.myshopify.com';
    const install = new URL(fake.auth.installUrl(`${APP}/auth/shopify/install`, shop));
    const callback = await approve(t, client, shop, install.pathname + install.search);
    expect((await client.get(callback)).headers.location).toBe('/integrations?connected=shopify');
    const list = (await client.get('/api/integrations')).json<TIntegration[]>();
    expect(list).toEqual([expect.objectContaining({ storeName: 'installed-shop', isConnected: true })]);
  });

  it('refuses a tampered hmac, a stale timestamp and a bad shop, and starts nothing', async () => {
    const client = t.client();
    const shop = 'tampered-shop.myshopify.com';
    const tampered = new URL(fake.auth.installUrl(`${APP}/auth/shopify/install`, shop, { tamper: true }));
    const res = await client.get(tampered.pathname + tampered.search);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/integrations?shopify_error=invalid_hmac');

    const stale = new URL(fake.auth.installUrl(`${APP}/auth/shopify/install`, shop));
    clock.t += 5 * MIN;
    expect((await client.get(stale.pathname + stale.search)).headers.location).toBe(
      '/integrations?shopify_error=invalid_hmac',
    );
    expect((await client.get('/auth/shopify/install?shop=evil.com')).headers.location).toBe(
      '/integrations?shopify_error=invalid_shop',
    );
    const ws = await client.workspaceId(t.deps.db);
    expect(await t.deps.db.select().from(oauthStates).where(eq(oauthStates.workspaceId, ws))).toEqual([]);
  });
});

describe('webhooks', () => {
  const hookShop = 'hooked-shop.myshopify.com';
  let client: TestClient;
  let store: TIntegration;
  const seen: string[] = [];

  beforeAll(async () => {
    // A module registers a topic through deps, as the orders module does for orders/paid.
    t.deps.shopifyWebhooks.on('orders/paid', async (event) => {
      seen.push(`${event.topic} ${event.shop} ${(event.payload as { id: number }).id}`);
    });
    client = t.client();
    store = await connect(t, client, hookShop);
  });

  it('subscribes the shop at connect to the topics Podforge handles, at its public https address', async () => {
    const subs = fake.webhooks.subscriptions(hookShop);
    expect(subs.map((s) => s.topic).sort()).toEqual([
      'APP_UNINSTALLED',
      'ORDERS_CANCELLED',
      'ORDERS_PAID',
      'PRODUCTS_DELETE',
      'PRODUCTS_UPDATE',
    ]);
    for (const s of subs) expect(s).toMatchObject({ uri: `${APP}/api/webhooks/shopify`, format: 'JSON' });
  });

  it('answers at once and leaves the work to a job; a duplicate (one event id) is recorded and handled once', async () => {
    fake.webhooks.duplicateNext();
    const deliveries = await fake.webhooks.emit(hookShop, 'orders/paid', {
      id: 4242,
      shipping_address: { name: 'Ada Lovelace', address1: '12 Analytical Row' },
    });
    expect(deliveries.map((d) => d.status)).toEqual([200, 200]);
    expect(deliveries[0]?.eventId).toBe(deliveries[1]?.eventId);
    expect(deliveries[0]?.webhookId).not.toBe(deliveries[1]?.webhookId);
    const rows = await t.deps.db
      .select()
      .from(shopifyWebhookEvents)
      .where(eq(shopifyWebhookEvents.eventId, `orders/paid|${deliveries[0]?.eventId}`));
    expect(rows).toHaveLength(1);
    // No worker runs yet: nothing was done inside the request. The buyer's address is stored encrypted only.
    expect(rows[0]?.processedAt).toBeNull();
    expect(seen).toEqual([]);
    expect(rows[0]?.payload).toBeNull();
    expect(rows[0]?.payloadEnc).toBeTruthy();
    expect(JSON.stringify(rows[0])).not.toContain('Lovelace');

    await startWorker(t.deps, shopifyWebhookJob, { pollingIntervalSeconds: 0.5 });
    await waitFor(
      async () => seen.length,
      (n) => n > 0,
    );
    const [done] = await waitFor(
      () =>
        t.deps.db
          .select()
          .from(shopifyWebhookEvents)
          .where(eq(shopifyWebhookEvents.eventId, `orders/paid|${deliveries[0]?.eventId}`)),
      (r) => r[0]?.processedAt != null,
    );
    expect(done?.topic).toBe('orders/paid');
    expect(seen).toEqual([`orders/paid ${hookShop} 4242`]);
    // Processed: the ids stay to recognise a late duplicate, the body goes.
    expect(done).toMatchObject({ payload: null, payloadEnc: null });
  });

  it('answers 401 to a bad hmac and 200 to the compliance topics', async () => {
    const url = `${APP}/api/webhooks/shopify`;
    const body = { shop_id: 1, shop_domain: hookShop };
    for (const topic of ['customers/data_request', 'customers/redact', 'shop/redact']) {
      expect((await fake.webhooks.sendTo(url, hookShop, topic, body, { tamper: true })).status, topic).toBe(401);
    }
    for (const topic of ['customers/data_request', 'customers/redact']) {
      expect((await fake.webhooks.sendTo(url, hookShop, topic, body)).status, topic).toBe(200);
    }
  });

  it('app/uninstalled disconnects the store and forgets its tokens', async () => {
    const other = t.client();
    const shop = 'leaving-shop.myshopify.com';
    const leaving = await connect(t, other, shop);
    await fake.uninstall(shop);
    const row = await waitFor(
      () => integrationRow(t, leaving.id),
      (r) => r?.status === 'disconnected',
    );
    expect(row).toMatchObject({ accessTokenEnc: null, refreshTokenEnc: null, tokenExpiresAt: null, verifiedAt: null });
    const listed = (await other.get('/api/integrations')).json<TIntegration[]>()[0];
    expect(listed).toMatchObject({ status: 'disconnected', isConnected: false });
  });

  it('a late app/uninstalled from before the store was connected again leaves the store connected', async () => {
    const other = t.client();
    const shop = 'back-again-shop.myshopify.com';
    const back = await connect(t, other, shop);
    // Shopify sent the uninstall of an earlier install late: it happened ten minutes before this connection.
    const now = clock.t;
    clock.t -= 10 * MIN;
    const late = await fake.webhooks.sendTo(`${APP}/api/webhooks/shopify`, shop, 'app/uninstalled', { id: 1 });
    clock.t = now;
    expect(late.status).toBe(200);
    await waitFor(
      async () =>
        (
          await t.deps.db
            .select()
            .from(shopifyWebhookEvents)
            .where(eq(shopifyWebhookEvents.eventId, `app/uninstalled|${late.eventId}`))
        )[0]?.processedAt,
      (at) => at != null,
    );
    expect(await integrationRow(t, back.id)).toMatchObject({ status: 'connected' });
  });

  it('a product deleted in the store is marked so, returns to ready, and can be pushed again', async () => {
    const id = await readyProduct(t, client, 'Deleted Mug');
    const remoteId = await pushLive(client, id, store.id);
    expect((await fake.webhooks.deleteInAdmin(hookShop, remoteId)).map((d) => d.status)).toEqual([200]);
    const product = await waitFor(
      () => productOf(client, id),
      (p) => p.status !== 'live',
    );
    expect(product).toMatchObject({ status: 'ready', storeNotice: 'Deleted in store', storeUrl: null });
    const listed = (await client.get('/api/products')).json<{ items: { id: string; storeNotice: string | null }[] }>();
    expect(listed.items.find((p) => p.id === id)?.storeNotice).toBe('Deleted in store');

    await pushLive(client, id, store.id);
    expect((await fake.products(hookShop)).filter((p) => p.handle === `podforge-${id}`)).toHaveLength(1);
    expect((await productOf(client, id)).storeNotice).toBeNull();
  });

  it('a product archived in the store is marked so and returns to ready; a price edit is reported', async () => {
    const id = await readyProduct(t, client, 'Archived Mug');
    const remoteId = await pushLive(client, id, store.id);
    await fake.webhooks.editInAdmin(hookShop, remoteId, { price: '19.00' });
    const edited = await waitFor(
      () => productOf(client, id),
      (p) => p.storeNotice !== null,
    );
    expect(edited).toMatchObject({ status: 'live', storeNotice: 'Price changed in store' });

    await fake.webhooks.editInAdmin(hookShop, remoteId, { status: 'ARCHIVED' });
    const archived = await waitFor(
      () => productOf(client, id),
      (p) => p.status !== 'live',
    );
    expect(archived).toMatchObject({ status: 'ready', storeNotice: 'Archived in store' });
    await pushLive(client, id, store.id);
    expect((await fake.products(hookShop)).find((p) => p.id === remoteId)?.status).toBe('ACTIVE');
  });
});

describe('no public address: no subscriptions; Sync finds what changed in the store', () => {
  let s: TestApp;
  let client: TestClient;
  let store: TIntegration;
  const shop = 'local-shop.myshopify.com';

  beforeAll(async () => {
    s = await createTestApp({
      now: () => new Date(clock.t),
      env: {
        SHOPIFY_API_KEY: KEY,
        SHOPIFY_API_SECRET: SECRET,
        SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
        APP_URL: 'http://localhost:3000',
      },
    });
    client = s.client();
    store = await connect(s, client, shop);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('subscribes nothing when APP_URL is not public https', () => {
    expect(fake.webhooks.subscriptions(shop)).toEqual([]);
  });

  it('Sync marks deleted, archived and edited listings', async () => {
    const push = async (title: string) => {
      const id = await readyProduct(s, client, title);
      const res = await client.post(`/api/products/${id}/publish`, { integrationIds: [store.id] });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const p = await waitFor(
        () => productOf(client, id),
        (x) => x.status === 'live',
      );
      const [pub] = await s.deps.db.select().from(publications).where(eq(publications.productId, p.id));
      return { id, remoteId: pub?.remoteProductId as string };
    };
    const gone = await push('Gone Mug');
    const shelved = await push('Shelved Mug');
    const repriced = await push('Repriced Mug');
    const renamed = await push('Renamed Mug');
    const same = await push('Same Mug');
    // The merchant's edits reach no one (no subscriptions) until Sync looks.
    expect(await fake.webhooks.deleteInAdmin(shop, gone.remoteId)).toEqual([]);
    await fake.webhooks.editInAdmin(shop, shelved.remoteId, { status: 'ARCHIVED' });
    await fake.webhooks.editInAdmin(shop, repriced.remoteId, { price: '21.00' });
    await fake.webhooks.editInAdmin(shop, renamed.remoteId, { title: 'A New Name' });

    const res = await client.get(`/api/shopify/sync?shop=${store.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ listingsChecked: 5, listingsRemoved: 2, listingsChanged: 2 });
    expect(await productOf(client, gone.id)).toMatchObject({ status: 'ready', storeNotice: 'Deleted in store' });
    expect(await productOf(client, shelved.id)).toMatchObject({ status: 'ready', storeNotice: 'Archived in store' });
    expect(await productOf(client, repriced.id)).toMatchObject({
      status: 'live',
      storeNotice: 'Price changed in store',
    });
    expect(await productOf(client, renamed.id)).toMatchObject({
      status: 'live',
      storeNotice: 'Title changed in store',
    });
    expect(await productOf(client, same.id)).toMatchObject({ status: 'live', storeNotice: null });
  });
});

describe('the fake Shopify holds the app to its scopes and to https (apis.md E4)', () => {
  it('refuses webhook subscriptions without the scope, to http or local addresses, and for unknown topics', async () => {
    const shop = 'scoped-shop.myshopify.com';
    // A token granted write_products only.
    const accessToken = await grantDirectly(shop, 'write_products');
    const client = t.deps.shopify.client;
    if (!client) throw new Error('no client');
    const subscribe = (topic: string, url = `${APP}/api/webhooks/shopify`) =>
      client.webhookSubscriptionCreate(shop, accessToken, topic, url);

    await subscribe('PRODUCTS_DELETE');
    await subscribe('PRODUCTS_DELETE'); // the same again counts as made
    await expect(subscribe('ORDERS_PAID')).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(subscribe('APP_UNINSTALLED', 'http://podforge.example/api/webhooks/shopify')).rejects.toThrow(
      /Address protocol http:\/\/ is not supported/,
    );
    await expect(subscribe('APP_UNINSTALLED', 'https://localhost/api/webhooks/shopify')).rejects.toThrow(/local/);
    // Not a WebhookSubscriptionTopic: Shopify's schema refuses the variable before anything runs.
    await expect(subscribe('NOT_A_TOPIC')).rejects.toThrow(
      /Variable \$topic of type WebhookSubscriptionTopic! was provided invalid value/,
    );
    expect(fake.webhooks.subscriptions(shop).map((s) => s.topic)).toEqual(['PRODUCTS_DELETE']);
  });
});
