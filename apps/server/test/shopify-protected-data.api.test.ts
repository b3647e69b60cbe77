import type { TIntegration, TOrderPage } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { PROTECTED_DATA_PROBLEM } from '../src/modules/shopify/shopify.service';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Issue #27, breakage 3: a public app Shopify has not approved for protected customer data. Shopify refuses its
 * orders webhooks (a userError) and withholds the customer and the shipping address from its reads (ACCESS_DENIED,
 * field by field). The connection says so on the store (the card and Orders show `problem`), and Sync still reads
 * the orders without those fields instead of failing.
 */

const KEY = 'pcd-key';
const SECRET = 'pcd-secret';
const APP = 'https://podforge.example';
const shop = 'unapproved-shop.myshopify.com';

let fake: FakeShopify;
let t: TestApp;
let client: TestClient;

beforeAll(async () => {
  fake = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET, protectedCustomerData: 'none' });
  t = await createTestApp({
    env: {
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
      APP_URL: APP,
    },
  });
  client = t.client();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function connect(): Promise<TIntegration> {
  const start = await client.get(`/auth/shopify/start?shop=${shop}`);
  const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
  const callback = new URL(answer.headers.get('location') as string);
  const res = await client.get(callback.pathname + callback.search);
  expect(res.headers.location).toBe('/integrations?connected=shopify');
  const list = (await client.get('/api/integrations')).json<TIntegration[]>();
  const store = list.find((i) => i.platform === 'shopify' && i.isConnected);
  if (!store) throw new Error('not connected');
  return store;
}

describe('protected customer data not approved (issue #27, 3)', () => {
  it('says so on the store at connect: the orders webhooks were refused, the other topics taken', async () => {
    const store = await connect();
    expect(store.problem).toBe(PROTECTED_DATA_PROBLEM);
    expect(store.problem).toMatch(/Partner Dashboard .*Protected customer data/);
    expect(
      fake.webhooks
        .subscriptions(shop)
        .map((s) => s.topic)
        .sort(),
    ).toEqual(['APP_UNINSTALLED', 'PRODUCTS_DELETE', 'PRODUCTS_UPDATE']);
  });

  it('Sync reads the orders without customer and address instead of failing, and the store keeps saying why', async () => {
    const [store] = (await client.get('/api/integrations')).json<TIntegration[]>();
    const placed = await fake.orders.placePaidOrder(shop, {
      lines: [{ title: 'Somebody else’s mug', price: '12.00', quantity: 1 }],
      address: { name: 'Ada Lovelace', address1: '12 Analytical Row', city: 'London', country_code: 'GB', zip: 'N1' },
    });
    const res = await client.get(`/api/shopify/sync?shop=${store?.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ordersRead: 1, ordersNew: 1 });
    const orders = (await client.get('/api/orders?page=1')).json<TOrderPage>();
    expect(orders.items.map((o) => o.name)).toEqual([placed.name]);
    expect(JSON.stringify(orders)).not.toContain('Lovelace');
    const [after] = (await client.get('/api/integrations')).json<TIntegration[]>();
    expect(after?.problem).toBe(PROTECTED_DATA_PROBLEM);
  });

  it('once Shopify approves the app, connecting again subscribes the orders webhooks and clears the problem', async () => {
    fake.setProtectedCustomerData('level2');
    const store = await connect();
    expect(store.problem).toBeNull();
    expect(fake.webhooks.subscriptions(shop).map((s) => s.topic)).toEqual(
      expect.arrayContaining(['ORDERS_PAID', 'ORDERS_CANCELLED']),
    );
  });

  it('an order Sync read without its address takes the address on the next read, once Shopify gives it', async () => {
    const before = (await client.get('/api/orders?page=1')).json<TOrderPage>();
    expect(before.items[0]?.addressErased).toBe(true);
    const [store] = (await client.get('/api/integrations')).json<TIntegration[]>();
    const res = await client.get(`/api/shopify/sync?shop=${store?.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ordersRead: 1, ordersNew: 0 });
    const after = (await client.get('/api/orders?page=1')).json<TOrderPage>();
    expect(after.items.map((o) => [o.id, o.addressErased])).toEqual([[before.items[0]?.id, false]]);
  });
});
