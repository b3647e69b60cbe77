import type { TDashboardStats, TOrderPage } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, orders, webhookEvents } from '../src/db/schema';
import { forgetOldWebhookEvents } from '../src/modules/orders/fulfilment';
import { createTestApp, type TestApp } from './helpers';

/** The Orders tab pages through every order, newest first, and a filter pages over its own total. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A new workspace with a connected Shopify store (rows only: the orders are inserted by the test). */
async function sellerWithStore(shop: string) {
  const client = t.client();
  const ws = await client.workspaceId(t.deps.db);
  const [store] = await t.deps.db
    .insert(integrations)
    .values({ workspaceId: ws, kind: 'store', platform: 'shopify', externalId: shop, status: 'connected' })
    .returning({ id: integrations.id });
  return { client, ws, store };
}

describe('GET /api/orders', () => {
  it('pages through 45 orders newest first, filters with its own total, and refuses a bad page', async () => {
    const { client, ws, store } = await sellerWithStore('p.myshopify.com');
    const start = Date.parse('2026-11-01T00:00:00Z');
    await t.deps.db.insert(orders).values(
      Array.from({ length: 45 }, (_, i) => ({
        workspaceId: ws,
        integrationId: store?.id ?? '',
        remoteOrderId: String(i + 1),
        name: `#${1001 + i}`,
        status: i % 3 === 0 ? 'delivered' : 'sent',
        currency: 'USD',
        revenue: '20.00',
        // Two orders share each minute: the list still has one order, so no order shows twice or never.
        orderedAt: new Date(start + Math.floor(i / 2) * 60_000),
      })),
    );

    const first = (await client.get('/api/orders')).json<TOrderPage>();
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: 45, totalPages: 3 });
    expect(first.items[0]?.name).toBe('#1045');
    const pages = [first];
    for (const page of [2, 3]) pages.push((await client.get(`/api/orders?page=${page}`)).json<TOrderPage>());
    const names = pages.flatMap((p) => p.items.map((o) => o.name));
    expect(pages.map((p) => p.items.length)).toEqual([20, 20, 5]);
    expect(new Set(names).size).toBe(45);
    expect(names.slice(-2).sort()).toEqual(['#1001', '#1002']);

    const delivered = (await client.get('/api/orders?status=delivered&pageSize=10&page=2')).json<TOrderPage>();
    expect(delivered).toMatchObject({ page: 2, pageSize: 10, total: 15, totalPages: 2 });
    expect(delivered.items).toHaveLength(5);
    expect(delivered.items.every((o) => o.status === 'delivered')).toBe(true);

    const past = (await client.get('/api/orders?page=9')).json<TOrderPage>();
    expect(past).toMatchObject({ items: [], total: 45, totalPages: 3 });
    const bad = await client.get('/api/orders?pageSize=500');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('pageSize');

    // Another workspace sees none of them.
    expect((await t.client().get('/api/orders')).json<TOrderPage>()).toMatchObject({ items: [], total: 0 });
  });

  it('subtracts no cost charged in another currency: no profit on the order, none on the dashboard', async () => {
    const { client, ws, store } = await sellerWithStore('eu.myshopify.com');
    const order = (n: number, cost: string, costCurrency: string) => ({
      workspaceId: ws,
      integrationId: store?.id ?? '',
      remoteOrderId: String(n),
      name: `#${1000 + n}`,
      status: 'sent',
      currency: 'EUR',
      revenue: '30.00',
      cost,
      costCurrency,
      orderedAt: new Date(),
    });
    await t.deps.db.insert(orders).values([order(1, '12.50', 'EUR'), order(2, '13.95', 'USD')]);

    const { items } = (await client.get('/api/orders')).json<TOrderPage>();
    const byName = Object.fromEntries(items.map((o) => [o.name, o]));
    // 30.00 - 12.50 - Shopify's default fee (2.9% + 0.30 = 1.17): the price editor's formula.
    expect(byName['#1001']).toMatchObject({ cost: '12.50', costCurrency: 'EUR', storeFee: '1.17', profit: '16.33' });
    expect(byName['#1002']).toMatchObject({ cost: '13.95', costCurrency: 'USD', profit: null });
    const stats = (await client.get('/api/dashboard/stats')).json<TDashboardStats>();
    expect(stats.store).toMatchObject({ orders: 2, sales: { amount: '60.00', currency: 'EUR' }, profit: null });
  });
});

describe('dashboard profit', () => {
  it('counts only the orders whose printer charge is known: one still without it adds sales, no profit', async () => {
    const { client, ws, store } = await sellerWithStore('known.myshopify.com');
    const base = {
      workspaceId: ws,
      integrationId: store?.id ?? '',
      status: 'sent',
      currency: 'USD',
      orderedAt: new Date(),
    };
    await t.deps.db.insert(orders).values([
      { ...base, remoteOrderId: '1', name: '#1001', revenue: '30.00', cost: '10.00', costCurrency: 'USD' },
      { ...base, remoteOrderId: '2', name: '#1002', revenue: '40.00' },
    ]);
    const stats = (await client.get('/api/dashboard/stats')).json<TDashboardStats>();
    expect(stats.store).toMatchObject({
      orders: 2,
      sales: { amount: '70.00', currency: 'USD' },
      // 30.00 - 10.00 - the store fee (1.17).
      profit: { amount: '18.83', currency: 'USD' },
    });
  });
});

describe('webhook deliveries taken', () => {
  it('are remembered 30 days to recognise a late duplicate, then forgotten', async () => {
    const day = 24 * 3600_000;
    const now = new Date();
    await t.deps.db.insert(webhookEvents).values([
      { source: 'printful', eventId: 'old', topic: 'shipment_sent', receivedAt: new Date(now.getTime() - 31 * day) },
      {
        source: 'woocommerce',
        eventId: 'recent',
        topic: 'order.created',
        receivedAt: new Date(now.getTime() - 29 * day),
      },
    ]);
    await forgetOldWebhookEvents({ db: t.deps.db, now: () => now });
    const left = await t.deps.db.select({ eventId: webhookEvents.eventId }).from(webhookEvents);
    expect(left.map((r) => r.eventId)).toEqual(['recent']);
  });
});
