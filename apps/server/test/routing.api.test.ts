import type { TGelatoSandboxOrder, TOrder, TOrderPage, TPrinterQuote, TProductQuotes } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfillmentWebhooks } from '../src/db/schema';
import type { FakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { gelatoSandboxTickJob } from '../src/modules/gelato/gelato-sandbox.jobs';
import { printerExternalId } from '../src/modules/orders/fulfilment';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { type ShopifySeller, shopifySeller, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp } from './helpers';

/**
 * Point 5 of #29: `GET /api/products/:id/quotes` asks every connected printer (here the built-in Printful and
 * Gelato sandboxes) for the same blank matched by type, colour and size, and the workspace's routing rule picks
 * each order's printer from those quotes; the order shows which and why, reaches that printer once (Gelato: a
 * draft, then confirmed) and comes back shipped with tracking.
 */

const APP = 'http://podforge.test';
let t: TestApp;
let shopify: FakeShopify;

beforeAll(async () => {
  t = await createTestApp({
    env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0', GELATO_SANDBOX_SHIP_SECONDS: '0' },
  });
  await startWorkers(t.deps, [...ORDER_JOBS, printfulSandboxTickJob, gelatoSandboxTickJob, shopifyWebhookJob], {
    pollingIntervalSeconds: 0.5,
  });
  shopify = (await t.deps.shopify.sandboxServer()) as FakeShopify;
});
afterAll(async () => {
  await t.close();
});

type Seller = ShopifySeller;

/** A workspace with a sandbox shop, a white tee (S, M) pushed to it, and the Gelato sandbox connected. */
async function seller(typed: string): Promise<Seller> {
  const client = t.client();
  const made = await shopifySeller(
    t,
    client,
    typed,
    { r: 20, g: 90, b: 200 },
    {
      title: 'Wave Tee',
      description: 'A blue wave.',
      price: 25,
      variants: [
        { option: 'Small', price: 25 },
        { option: 'Medium', price: 25 },
      ],
    },
  );
  const connected = await client.post('/api/gelato/connect', { mode: 'sandbox', email: 'seller@example.com' });
  expect(connected.statusCode, connected.body).toBe(200);
  return made;
}

const quotes = async (s: Seller, query: string) => {
  const res = await s.client.get(`/api/products/${s.productId}/quotes?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TProductQuotes>();
};

describe('quotes across printers', () => {
  it('every connected printer quotes the same blank with its own cost, shipping and delivery; one that cannot says why', async () => {
    const s = await seller('quotes-shop.myshopify.com');
    const us = await quotes(s, 'country=US');
    const byId = Object.fromEntries(us.quotes.map((q) => [q.provider, q]));
    expect(Object.keys(byId).sort()).toEqual(['gelato-sandbox', 'sandbox']);
    for (const q of us.quotes) {
      expect(q.ok, JSON.stringify(q)).toBe(true);
      if (!q.ok) continue;
      expect(q.total).toBe((Number(q.products) + Number(q.shipping)).toFixed(2));
      expect(q.maxDeliveryDays).toBeGreaterThanOrEqual(q.minDeliveryDays as number);
    }
    // Gelato's figures are its quote endpoint's (the fake's tee white S from its US hub), not ours.
    const gelato = byId['gelato-sandbox'];
    expect(gelato).toMatchObject({ ok: true, currency: 'USD', products: '10.26', shipping: '4.31' });
    expect(gelato?.ok && gelato.shippingMethod).toMatch(/from US/);
    // Printful's: the catalogue's cost of the variant and /v2/shipping-rates.
    expect(byId.sandbox).toMatchObject({ ok: true, currency: 'USD', shipping: '4.75' });

    // Gelato makes no tees for Japan: it says so; Printful quotes international shipping.
    const jp = await quotes(s, 'country=JP');
    const gjp = jp.quotes.find((q) => q.provider === 'gelato-sandbox');
    expect(gjp).toMatchObject({ ok: false });
    expect(gjp?.ok === false && gjp.reason).toMatch(/JP/);

    // Bad input and another workspace's product.
    expect((await s.client.get(`/api/products/${s.productId}/quotes?country=USA`)).statusCode).toBe(400);
    expect((await t.client().get(`/api/products/${s.productId}/quotes?country=US`)).statusCode).toBe(404);
  }, 120_000);
});

describe('a blank not yet saved is quoted by the printer its orders would go to', () => {
  it('answers the network’s printer’s own cost and shipping for one catalogue variant; bad input names the field', async () => {
    const client = t.client();
    // A fresh workspace: no printer of its own, so Printful's built-in sandbox (what its orders would go to).
    const res = await client.get(
      '/api/quotes/blank?network=printful&catalogProductId=71&catalogVariantId=71001&country=US',
    );
    expect(res.statusCode, res.body).toBe(200);
    const q = res.json<TPrinterQuote>();
    expect(q).toMatchObject({ ok: true, provider: 'sandbox', currency: 'USD', shipping: '4.75' });
    expect(q.ok && q.total).toBe(q.ok && (Number(q.products) + Number(q.shipping)).toFixed(2));

    const unknown = await client.get(
      '/api/quotes/blank?network=printful&catalogProductId=71&catalogVariantId=1&country=US',
    );
    expect(unknown.json()).toMatchObject({ ok: false, provider: 'sandbox' });
    const bad = await client.get(
      '/api/quotes/blank?network=acme&catalogProductId=71&catalogVariantId=71001&country=US',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/network/);
  }, 60_000);
});

describe('the routing rule picks each order’s printer', () => {
  const ordersOf = async (s: Seller) => (await s.client.get('/api/orders')).json<TOrderPage>().items;
  const shippedOrder = (s: Seller, name: string) =>
    waitFor(
      async () => (await ordersOf(s)).find((o) => o.name === name) as TOrder,
      (o) => Boolean(o && ['shipped', 'delivered'].includes(o.status)),
    );
  const sell = async (s: Seller, sku: string) => {
    const placed = await s.client.post('/api/shopify/sandbox/orders', {
      integrationId: s.storeId,
      lines: [{ sku, quantity: 1 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    return placed.json<{ name: string; remoteOrderId: string }>();
  };

  it('cheapest, then fastest: each order goes to the printer its quotes pick, once, says why, and comes back shipped with tracking', async () => {
    const s = await seller('route-shop.myshopify.com');
    const us = await quotes(s, 'country=US');
    const ok = us.quotes.filter((q) => q.ok);
    const cheapest = [...ok].sort((a, b) => Number(a.ok && a.total) - Number(b.ok && b.total))[0];
    const fastest = [...ok].sort((a, b) => Number(a.ok && a.maxDeliveryDays) - Number(b.ok && b.maxDeliveryDays))[0];
    // The fakes' figures: Printful's tee is cheaper to the US, Gelato's arrives sooner.
    expect([cheapest?.provider, fastest?.provider]).toEqual(['sandbox', 'gelato-sandbox']);

    expect((await s.client.put('/api/routing', { mode: 'cheapest' })).json()).toEqual({
      mode: 'cheapest',
      provider: null,
    });
    const first = await shippedOrder(s, (await sell(s, s.skus[0] as string)).name);
    expect(first.fulfillmentProvider).toBe('sandbox');
    expect(first.printerReason).toMatch(
      /^Cheapest to US: Printful sandbox 14\.00 USD .*; then Gelato sandbox 14\.57 USD/,
    );

    await s.client.put('/api/routing', { mode: 'fastest' });
    const placed = await sell(s, s.skus[0] as string);
    const second = await shippedOrder(s, placed.name);
    expect(second.fulfillmentProvider).toBe('gelato-sandbox');
    expect(second.printerReason).toMatch(/^Fastest to US: Gelato sandbox 14\.57 USD .*3–5 days/);
    // Gelato got it once, as a draft confirmed into an order; its tracking is the order's and the shop's.
    const { orders } = (await s.client.get('/api/gelato/sandbox/orders')).json<{ orders: TGelatoSandboxOrder[] }>();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ externalId: printerExternalId(second.id), orderType: 'order' });
    expect(orders[0]?.items).toEqual([
      {
        productUid: 'apparel_product_gca_t-shirt_gsc_crewneck_gcu_unisex_gqa_classic_gsi_s_gco_white_gpr_4-0',
        quantity: 1,
        files: [expect.stringContaining(`/api/print-files/${s.productId}/front.png?`)],
      },
    ]);
    expect(orders[0]?.shipments[0]?.trackingNumber).toBe(second.trackingNumber);
    expect(second.carrier).toBe('USPS Ground Advantage');
    // Gelato billed in the store's currency (its own figure, VAT-free to the US): comparable with the revenue.
    expect(second).toMatchObject({ costCurrency: 'USD', cost: orders[0]?.cost?.total });
    const remote = await waitFor(
      async () => (await shopify.orders.orders(s.shop)).find((o) => String(o.id) === placed.remoteOrderId),
      (o) => (o?.fulfillments.length ?? 0) > 0,
    );
    expect(remote?.fulfillments[0]?.trackingInfo.number).toBe(second.trackingNumber);
  }, 120_000);

  it('fixed: always the named printer; a fixed printer not connected fails the order with the reason', async () => {
    const s = await seller('fixed-shop.myshopify.com');
    expect((await s.client.put('/api/routing', { mode: 'fixed' })).statusCode).toBe(400);
    expect((await s.client.put('/api/routing', { mode: 'fixed', provider: 'nope' })).statusCode).toBe(400);
    await s.client.put('/api/routing', { mode: 'fixed', provider: 'gelato' });
    await s.client.post('/api/shopify/sandbox/orders', {
      integrationId: s.storeId,
      lines: [{ sku: s.skus[1] as string, quantity: 1 }],
    });
    const failed = await waitFor(
      async () => (await s.client.get('/api/orders')).json<TOrderPage>().items[0] as TOrder,
      (o) => o?.status === 'failed',
    );
    expect(failed.failureReason).toMatch(/Gelato, which is not connected/);

    await s.client.put('/api/routing', { mode: 'fixed', provider: 'sandbox' });
    expect((await s.client.get('/api/routing')).json()).toEqual({ mode: 'fixed', provider: 'sandbox' });
    await s.client.post('/api/shopify/sandbox/orders', {
      integrationId: s.storeId,
      lines: [{ sku: s.skus[0] as string, quantity: 1 }],
    });
    const sent = await waitFor(
      async () =>
        (await s.client.get('/api/orders')).json<TOrderPage>().items.find((o) => o.id !== failed.id) as TOrder,
      (o) => Boolean(o && ['shipped', 'delivered'].includes(o.status)),
    );
    expect(sent).toMatchObject({
      fulfillmentProvider: 'sandbox',
      printerReason: 'Routing rule: always Printful sandbox',
    });
  }, 120_000);

  it('manual approval: the Gelato draft waits (nothing made); a forged "shipped" webhook moves nothing; approved, it ships', async () => {
    const s = await seller('approve-shop.myshopify.com');
    await s.client.patch('/api/settings', { orderConfirmation: { mode: 'manual', delayMinutes: 60 } });
    await s.client.put('/api/routing', { mode: 'fixed', provider: 'gelato-sandbox' });
    const placed = await sell(s, s.skus[1] as string);
    const waiting = await waitFor(
      async () => (await ordersOf(s)).find((o) => o.name === placed.name) as TOrder,
      (o) => o?.status === 'waiting_approval',
    );
    expect(waiting.fulfillmentProvider).toBe('gelato-sandbox');
    const draft = (await s.client.get('/api/gelato/sandbox/orders')).json<{ orders: TGelatoSandboxOrder[] }>().orders;
    expect(draft).toMatchObject([{ externalId: printerExternalId(waiting.id), orderType: 'draft', status: 'draft' }]);

    // Gelato signs nothing: a body claiming 'shipped' reaches the URL, is taken, and the order is read back instead.
    const ws = await s.client.workspaceId(t.deps.db);
    const [hook] = await t.deps.db.select().from(fulfillmentWebhooks).where(eq(fulfillmentWebhooks.workspaceId, ws));
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/printful/${hook?.id}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({
        id: 'os_forged_1',
        event: 'order_status_updated',
        orderId: draft[0]?.id,
        orderReferenceId: printerExternalId(waiting.id),
        fulfillmentStatus: 'shipped',
        items: [{ itemReferenceId: 'x', fulfillmentStatus: 'shipped', fulfillments: [{ trackingCode: 'FAKE1' }] }],
      }),
    });
    expect(forged.statusCode).toBe(200);
    // Taken (a job reads the order back): give the worker time, then nothing has moved.
    await new Promise((r) => setTimeout(r, 2500));
    const still = (await ordersOf(s)).find((o) => o.id === waiting.id);
    expect(still).toMatchObject({ status: 'waiting_approval', trackingNumber: null });

    expect((await s.client.post(`/api/orders/${waiting.id}/approve`, {})).statusCode).toBe(202);
    const shipped = await shippedOrder(s, placed.name);
    expect(shipped.trackingNumber).toMatch(/^GT/);
    const after = (await s.client.get('/api/gelato/sandbox/orders')).json<{ orders: TGelatoSandboxOrder[] }>().orders;
    expect(after).toHaveLength(1);
    expect(after[0]?.orderType).toBe('order');
  }, 120_000);
});
