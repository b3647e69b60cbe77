import type { TOrder, TOrderPage, TOrderStatus, TPrintfulSandboxOrder } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  fulfillmentWebhooks,
  orders,
  printfulSandboxOrders,
  printfulSandboxWebhooks,
  productVariants,
  publications,
  webhookEvents,
} from '../src/db/schema';
import { PrintfulClient } from '../src/integrations/printful/client';
import { signPrintfulWebhook } from '../src/integrations/printful/fake-orders';
import { startFakePrintful } from '../src/integrations/printful/fake-server';
import type { FakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { faults, printerExternalId } from '../src/modules/orders/fulfilment';
import { ORDER_JOBS, queuedPrinterEvent } from '../src/modules/orders/order-jobs';
import { pollPrinterOrders } from '../src/modules/orders/printer-poll';
import { printerWebhookPath } from '../src/modules/printers/fulfilment-provider';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { connectShopifySandbox, type ShopifySeller, shopifySeller, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp } from './helpers';

/**
 * A sale becomes a parcel, on the built-in sandboxes (no Shopify or Printful account): a paid test order in the
 * sandbox shop arrives as `orders/paid`, becomes one Printful v2 order in the Printful sandbox (kept in the
 * database), is confirmed as the workspace's setting says, printed, shipped (signed `shipment_sent`), and the
 * tracking goes back to the shop as its fulfilment. Every step runs as a pg-boss job.
 */

const APP = 'http://podforge.test';
let t: TestApp;
let shopify: FakeShopify;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0' } });
  await startWorkers(t.deps, [...ORDER_JOBS, printfulSandboxTickJob, shopifyWebhookJob], {
    pollingIntervalSeconds: 0.5,
  });
  shopify = (await t.deps.shopify.sandboxServer()) as FakeShopify;
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  faults.afterPrinterCreate = null;
});

type Seller = ShopifySeller;

/** A workspace with a connected sandbox shop and a tee pushed to it (two sizes). */
const seller = (typed: string, confirmation: 'automatic' | 'manual' | 'delay' = 'automatic'): Promise<Seller> =>
  shopifySeller(
    t,
    t.client(),
    typed,
    { r: 200, g: 30, b: 30 },
    {
      title: 'Sunset Tee',
      description: 'A warm sunset.',
      price: 24,
      variants: [
        { option: 'Small', price: 24 },
        { option: 'Medium', price: 26 },
      ],
    },
    confirmation,
  );

async function place(s: Seller, lines: { sku: string; quantity: number }[]) {
  const res = await s.client.post('/api/shopify/sandbox/orders', { integrationId: s.storeId, lines });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ remoteOrderId: string; name: string }>();
}

const listOrders = async (s: Seller) => (await s.client.get('/api/orders')).json<TOrderPage>().items;
const sandboxOrders = async (s: Seller) =>
  (await s.client.get('/api/printful/sandbox/orders')).json<TPrintfulSandboxOrder[]>();
const orderIn = (s: Seller, status: TOrderStatus | TOrderStatus[]) => {
  const wanted = Array.isArray(status) ? status : [status];
  return waitFor(
    async () => {
      // Printful sends no event for a delivery: it is read by the printer poll (modules/orders/printer-poll.ts).
      if (wanted.includes('delivered')) await pollPrinterOrders(t.deps);
      return (await listOrders(s))[0] as TOrder;
    },
    (o) => Boolean(o && wanted.includes(o.status)),
  );
};

// The first test of each app renders the first mockups: on a loaded machine that alone can pass the default 30 s.
describe('a paid order becomes one Printful order and a shipped parcel', () => {
  it('sends the variant ids, quantities, prices, print file URLs and address; ships; tracking goes to the shop', async () => {
    const s = await seller('loop-shop.myshopify.com');
    const placed = await place(s, [
      { sku: s.skus[0] as string, quantity: 2 },
      { sku: s.skus[1] as string, quantity: 1 },
    ]);

    const order = await orderIn(s, 'delivered');
    expect(order).toMatchObject({
      externalId: placed.remoteOrderId,
      name: placed.name,
      revenue: '74.00',
      fulfillmentProvider: 'sandbox',
      carrier: 'USPS',
      addressErased: false,
    });
    expect(order.trackingNumber).toMatch(/^9400/);
    expect(order.trackingUrl).toContain(order.trackingNumber as string);
    expect(order.lines.map((l) => [l.sku, l.quantity, l.price, l.fromPodforge])).toEqual([
      [s.skus[0], 2, '24.00', true],
      [s.skus[1], 1, '26.00', true],
    ]);
    expect(order.lines[0]?.mockupUrl).toMatch(/^\/api\/mockups\//);

    // The sandbox got exactly one order: catalogue variants, quantities, retail prices, signed print file URLs.
    const [pf, ...others] = await sandboxOrders(s);
    expect(others).toEqual([]);
    // Under our own order's id, unique across stores (#27.7), not the store's order number.
    expect(pf).toMatchObject({ externalId: printerExternalId(order.id), status: 'fulfilled' });
    expect(pf?.items.map((i) => [i.catalogVariantId, i.quantity, i.retailPrice])).toEqual([
      [71002, 2, '24.00'],
      [71003, 1, '26.00'],
    ]);
    const url = new URL(pf?.items[0]?.files[0]?.url as string);
    expect(url.origin).toBe(APP);
    expect(url.pathname).toBe(`/api/print-files/${s.productId}/front.png`);
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    const file = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(file.statusCode).toBe(200);

    // Printful's costs are the order's cost; profit is what is left after it and the store's fee (2.9% + 0.30).
    expect(order.cost).toBe(pf?.costs?.total);
    expect(order.storeFee).toBe('2.45');
    expect(order.profit).toBe((74 - Number(order.cost) - 2.45).toFixed(2));

    // One fulfilment in the shop, with carrier, tracking number and URL, the customer notified.
    const remote = await waitFor(
      async () => (await shopify.orders.orders(s.shop)).find((o) => String(o.id) === placed.remoteOrderId),
      (o) => (o?.fulfillments.length ?? 0) > 0,
    );
    expect(remote?.fulfillments).toHaveLength(1);
    expect(remote?.fulfillments[0]).toMatchObject({
      trackingInfo: { company: 'USPS', number: order.trackingNumber, url: order.trackingUrl },
      notifyCustomer: true,
    });
    expect(remote?.fulfillmentOrders.map((fo) => fo.status)).toEqual(['CLOSED']);

    // The address is ciphertext at rest.
    const [row] = await t.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(row?.shippingAddressEnc).toMatch(/^v1\./);
    expect(row?.shippingAddressEnc).not.toContain('Dearborn');
    // So it is in the built-in Printful sandbox (the recipient it was sent), and so is its webhook signing secret.
    const [kept] = await t.deps.db
      .select()
      .from(printfulSandboxOrders)
      .where(eq(printfulSandboxOrders.externalId, printerExternalId(order.id)));
    expect(kept?.body.recipient).toBeUndefined();
    expect(kept?.body.recipient_enc).toMatch(/^v1\./);
    expect(JSON.stringify(kept?.body)).not.toContain('Dearborn');
    const [hook] = await t.deps.db
      .select()
      .from(printfulSandboxWebhooks)
      .where(eq(printfulSandboxWebhooks.storeId, kept?.storeId ?? ''));
    expect(hook?.secretKey).toMatch(/^v1\./);

    // The dashboard's figures come from the order; conversion stays unknown.
    const stats = (await s.client.get('/api/dashboard/stats')).json();
    expect(stats.store).toMatchObject({
      orders: 1,
      sales: { amount: '74.00' },
      profit: { amount: order.profit },
      aov: { amount: '74.00' },
      conversionRate: null,
    });
    expect((await s.client.get(`/api/orders?status=delivered`)).json().items).toHaveLength(1);
    expect((await s.client.get(`/api/orders?status=failed`)).json()).toMatchObject({ items: [], total: 0 });
    expect((await s.client.get(`/api/orders/${order.id}`)).json().id).toBe(order.id);
  }, 120_000);

  it('an order the printer ships in two parcels: each store line is fulfilled with its own tracking number (#27.6)', async () => {
    const s = await seller('parts-shop.myshopify.com');
    (await t.deps.printfulSandbox.server()).orders.shipInParts();
    const placed = await place(s, [
      { sku: s.skus[0] as string, quantity: 2 },
      { sku: s.skus[1] as string, quantity: 1 },
    ]);
    const remote = await waitFor(
      async () => (await shopify.orders.orders(s.shop)).find((o) => String(o.id) === placed.remoteOrderId),
      (o) => (o?.fulfillments.length ?? 0) >= 2,
    );
    const [small, medium] = remote?.lineItems ?? [];
    // One fulfilment per parcel, each with only the line it carries, all of it, and the parcel's own number.
    expect(remote?.fulfillments.map((f) => f.lines)).toEqual([
      [{ lineItemId: small?.id, quantity: 2 }],
      [{ lineItemId: medium?.id, quantity: 1 }],
    ]);
    const numbers = remote?.fulfillments.map((f) => f.trackingInfo.number) ?? [];
    expect(new Set(numbers).size).toBe(2);
    expect(remote?.fulfillmentOrders.map((fo) => fo.status)).toEqual(['CLOSED']);
    // The numbers are the printer's two parcels', and the order keeps both store fulfilments.
    const order = (await listOrders(s))[0] as TOrder;
    expect(order.failureReason).toBeNull();
    // The Orders screen's order lists both parcels: carrier, number, link, the lines each carried, sent to the store
    // (the store holds the second fulfilment a moment before the job records it: wait for the record).
    const shown = await waitFor(
      async () => (await s.client.get(`/api/orders/${order.id}`)).json<TOrder>(),
      (o) => o.shipments.length === 2 && o.shipments.every((p) => p.sentToStore),
    );
    const [row] = await t.deps.db.select().from(orders).where(eq(orders.id, order.id));
    const sandbox = t.deps.printers.get('sandbox');
    const account = await sandbox?.account(row?.workspaceId as string);
    const parcels = account ? await sandbox?.shipments(account, row?.printerOrderId as string) : [];
    expect(numbers).toEqual(parcels?.map((p) => p.trackingNumber));
    expect(Object.keys(row?.storeShipments ?? {})).toEqual(parcels?.map((p) => p.id));
    expect(row?.storeFulfillmentId?.split(',')).toHaveLength(2);
    const [first, second] = order.lines;
    expect(shown.shipments).toEqual(
      (parcels ?? []).map((p, n) => ({
        carrier: p.carrier,
        trackingNumber: p.trackingNumber,
        trackingUrl: p.trackingUrl,
        lines: [n === 0 ? { title: first?.title, quantity: 2 } : { title: second?.title, quantity: 1 }],
        sentToStore: true,
        // The sandbox delivers them when it next moves on (its own worker): either, by now.
        delivered: expect.any(Boolean),
      })),
    );
  }, 120_000);

  it('an order shipped before parcels were kept shows its one tracking as one parcel; an unshipped order none', async () => {
    const client = t.client();
    const storeId = await connectShopifySandbox(client, 'kept-shop.myshopify.com');
    const ws = await client.workspaceId(t.deps.db);
    const base = {
      workspaceId: ws,
      integrationId: storeId,
      currency: 'USD',
      revenue: '24.00',
      fulfillmentProvider: 'sandbox',
      orderedAt: new Date(),
    };
    const [old, fresh] = await t.deps.db
      .insert(orders)
      .values([
        {
          ...base,
          remoteOrderId: 'kept-1',
          name: '#1001',
          status: 'delivered',
          carrier: 'USPS',
          trackingNumber: '9400111',
          trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111',
          storeFulfillmentId: '555',
        },
        { ...base, remoteOrderId: 'kept-2', name: '#1002', status: 'sent' },
      ])
      .returning();
    const shown = async (id?: string) => (await client.get(`/api/orders/${id}`)).json<TOrder>().shipments;
    expect(await shown(old?.id)).toEqual([
      {
        carrier: 'USPS',
        trackingNumber: '9400111',
        trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111',
        lines: null,
        sentToStore: true,
        delivered: true,
      },
    ]);
    expect(await shown(fresh?.id)).toEqual([]);
  });

  it('the same webhook twice, and a crash between "created at Printful" and "saved", give one Printful order', async () => {
    const s = await seller('twice-shop.myshopify.com');
    shopify.orders.duplicateNextWebhook();
    let crashes = 1;
    faults.afterPrinterCreate = () => {
      if (crashes-- > 0) throw new Error('the worker died');
    };
    await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    await orderIn(s, ['shipped', 'delivered']);
    expect(await listOrders(s)).toHaveLength(1);
    expect(await sandboxOrders(s)).toHaveLength(1);
    expect(crashes).toBeLessThan(0);
  });

  it("the server's PRINTFUL_TOKEN (catalogue only) never places a workspace's orders: they go to the sandbox", async () => {
    const s = await seller('token-shop.myshopify.com');
    // The live catalogue of the server's token comes from a local fake Printful.
    const live = await startFakePrintful({ privateTokens: ['server-wide-token'] });
    const before = t.deps.printful.client;
    t.deps.printful.client = new PrintfulClient({ apiBase: live.url, oauthBase: live.url });
    t.deps.config.printfulToken = 'server-wide-token';
    t.deps.printful.clearCatalogCache();
    try {
      await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
      const order = await orderIn(s, ['sent', 'in_production', 'shipped', 'delivered']);
      expect(order.fulfillmentProvider).toBe('sandbox');
      expect(await sandboxOrders(s)).toHaveLength(1);
      expect(live.orders.deliveries).toEqual([]);
      expect(live.calls.some((c) => c.path.startsWith('/v2/orders'))).toBe(false);
    } finally {
      t.deps.config.printfulToken = undefined;
      t.deps.printful.client = before;
      t.deps.printful.clearCatalogCache();
      await live.close();
    }
  });

  it('manual approval holds the draft (nothing charged) until the seller approves', async () => {
    const s = await seller('manual-shop.myshopify.com', 'manual');
    await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    const waiting = await orderIn(s, 'waiting_approval');
    expect(waiting.cost).not.toBeNull();
    expect((await sandboxOrders(s))[0]?.status).toBe('draft');
    expect((await s.client.post(`/api/orders/${waiting.id}/retry`, {})).statusCode).toBe(409);
    // Another workspace cannot see or approve it.
    const other = t.client();
    expect((await other.get(`/api/orders/${waiting.id}`)).statusCode).toBe(404);
    expect((await other.post(`/api/orders/${waiting.id}/approve`, {})).statusCode).toBe(404);

    const approved = await s.client.post(`/api/orders/${waiting.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(202);
    await orderIn(s, ['shipped', 'delivered']);
    expect((await sandboxOrders(s))[0]?.status).toBe('fulfilled');
  });

  it('a waiting time confirms by itself later; until then the order waits with its time', async () => {
    const s = await seller('delay-shop.myshopify.com', 'delay');
    await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    const waiting = await orderIn(s, 'waiting_approval');
    const at = new Date(waiting.confirmAt as string).getTime() - new Date(waiting.orderedAt).getTime();
    expect(Math.round(at / 60_000)).toBe(60);
    expect((await sandboxOrders(s))[0]?.status).toBe('draft');
  });

  it("order_failed shows Printful's reason, and a retry goes through", async () => {
    const s = await seller('fail-shop.myshopify.com');
    (await t.deps.printfulSandbox.server()).orders.failNextDownloads(1);
    await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    const failed = await orderIn(s, 'failed');
    expect(failed.failureReason).toMatch(/^Printful: Printfile could not be downloaded \(front\)/);
    const retried = await s.client.post(`/api/orders/${failed.id}/retry`, {});
    expect(retried.statusCode, retried.body).toBe(202);
    const done = await orderIn(s, ['shipped', 'delivered']);
    expect(done.failureReason).toBeNull();
    expect(await sandboxOrders(s)).toHaveLength(1);
  });

  it('orders/cancelled cancels what has not shipped; customers/redact erases the address', async () => {
    const s = await seller('cancel-shop.myshopify.com', 'manual');
    const placed = await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    await orderIn(s, 'waiting_approval');
    await shopify.orders.cancelOrder(s.shop, Number(placed.remoteOrderId));
    const cancelled = await orderIn(s, 'cancelled');
    expect(cancelled.addressErased).toBe(false);
    // The draft was deleted at the printer (never charged).
    expect(await sandboxOrders(s)).toEqual([]);

    const remote = (await shopify.orders.orders(s.shop)).find((o) => String(o.id) === placed.remoteOrderId);
    await shopify.orders.sendCompliance(s.shop, 'customers/redact', remote?.customerId);
    const erased = await waitFor(
      async () => (await listOrders(s))[0] as TOrder,
      (o) => o?.addressErased === true,
    );
    const [row] = await t.deps.db.select().from(orders).where(eq(orders.id, erased.id));
    expect(row?.shippingAddressEnc).toBeNull();
  });

  it("matches a store line by the store's variant id recorded at push, whatever its SKU says (issue #27, 5)", async () => {
    const s = await seller('variant-id-shop.myshopify.com', 'manual');
    const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, s.productId));
    const ours = Object.values(pub?.remoteVariants ?? {});
    expect(ours).toHaveLength(2);
    // Our SKU changed since the push: the store's line still carries the old one, so only the variant id matches.
    const [first] = await t.deps.db
      .select()
      .from(productVariants)
      .where(eq(productVariants.id, ours[0] as string));
    await t.deps.db
      .update(productVariants)
      .set({ sku: `${first?.sku}-RENAMED` })
      .where(eq(productVariants.id, ours[0] as string));
    await place(s, [{ sku: first?.sku as string, quantity: 1 }]);
    const order = await orderIn(s, 'waiting_approval');
    expect(order.lines.map((l) => [l.sku, l.fromPodforge])).toEqual([[first?.sku, true]]);
  }, 120_000);

  it('dedups Shopify events by topic and event id: another topic of the same event is still handled (issue #27)', async () => {
    const s = await seller('one-action-shop.myshopify.com', 'manual');
    const placed = await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
    await orderIn(s, 'waiting_approval');
    // X-Shopify-Event-Id is shared by every delivery of one merchant action, whatever the topic (apis.md A4).
    shopify.orders.sameEventIdNext();
    await shopify.orders.cancelOrder(s.shop, Number(placed.remoteOrderId));
    const [paid, cancelled] = shopify.orders.deliveries.filter((d) => d.shop === s.shop).slice(-2);
    expect(cancelled?.headers['x-shopify-event-id']).toBe(paid?.headers['x-shopify-event-id']);
    await orderIn(s, 'cancelled');
  }, 120_000);

  it('the seller cancels a waiting order: the draft is deleted at the printer; a cancelled order cannot be approved', async () => {
    const s = await seller('seller-cancel-shop.myshopify.com', 'manual');
    await place(s, [{ sku: s.skus[1] as string, quantity: 3 }]);
    const waiting = await orderIn(s, 'waiting_approval');
    const res = await s.client.post(`/api/orders/${waiting.id}/cancel`, {});
    expect(res.statusCode, res.body).toBe(202);
    await orderIn(s, 'cancelled');
    expect(await sandboxOrders(s)).toEqual([]);
    const again = await s.client.post(`/api/orders/${waiting.id}/approve`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('cancelled');
    // Cancelled orders count for nothing on the dashboard.
    expect((await s.client.get('/api/dashboard/stats')).json().store).toBeNull();
  });

  it('Sync takes what webhooks missed, once; lines not ours are kept as not from Podforge', async () => {
    const s = await seller('sync-shop.myshopify.com');
    shopify.orders.setWebhookSink(null);
    await shopify.orders.placePaidOrder(s.shop, {
      lines: [
        { sku: s.skus[0] as string, quantity: 1 },
        { sku: 'SOMEONE-ELSES', quantity: 1, title: 'Gift card', price: '10.00' },
      ],
      address: { name: 'A Buyer', address1: '1 Main St', city: 'Austin', country_code: 'US', zip: '73301' },
    });
    const first = (await s.client.get(`/api/shopify/sync?shop=${s.storeId}`)).json();
    expect(first).toMatchObject({ ordersRead: 1, ordersNew: 1 });
    expect((await s.client.get(`/api/shopify/sync?shop=${s.storeId}`)).json()).toMatchObject({ ordersNew: 0 });
    const order = await orderIn(s, ['shipped', 'delivered']);
    expect(order.lines.map((l) => [l.title, l.fromPodforge])).toEqual([
      [expect.stringContaining('Sunset Tee'), true],
      ['Gift card', false],
    ]);
    expect((await sandboxOrders(s))[0]?.items).toHaveLength(1);
  });

  it('refuses an unknown SKU, another workspace’s store and a bad order id', async () => {
    const s = await seller('refuse-shop.myshopify.com');
    const bad = await s.client.post('/api/shopify/sandbox/orders', {
      integrationId: s.storeId,
      lines: [{ sku: 'NOPE', quantity: 1 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('NOPE');
    const other = t.client();
    const foreign = await other.post('/api/shopify/sandbox/orders', {
      integrationId: s.storeId,
      lines: [{ sku: s.skus[0], quantity: 1 }],
    });
    expect(foreign.statusCode).toBe(404);
    expect((await s.client.get('/api/orders/not-an-id')).statusCode).toBe(404);
    expect((await s.client.get('/api/orders?status=lost')).statusCode).toBe(400);
  });
});

describe('the printer webhook receiver', () => {
  it('takes a signed event once: the same delivery again, at its route or the old alias, is answered 200 and changes nothing', async () => {
    const fake = await t.deps.printfulSandbox.server();
    const sent = fake.orders.deliveries.find((d) => d.type === 'shipment_sent');
    expect(sent).toBeDefined();
    const [config] = await t.deps.db
      .select()
      .from(fulfillmentWebhooks)
      .where(eq(fulfillmentWebhooks.workspaceId, sent?.storeId as string));
    // One route for every printer, naming the adapter and the configuration.
    const url = printerWebhookPath(config?.provider as string, config?.id as string);
    expect(url).toBe(`/api/webhooks/printers/sandbox/${config?.id}`);
    const secret = t.deps.cipher.decrypt(config?.secretEnc as string);
    const before = await t.deps.db.select().from(webhookEvents);
    const post = (to: string, signWith: string) =>
      t.app.inject({
        method: 'POST',
        url: to,
        headers: {
          'content-type': 'application/json',
          'x-pf-webhook-signature': signPrintfulWebhook(sent?.body as string, signWith),
        },
        payload: sent?.body as string,
      });
    const again = await post(url, secret);
    expect(again.statusCode).toBe(200);
    expect(await t.deps.db.select().from(webhookEvents)).toHaveLength(before.length);
    // The path configurations were set up with before the one route is an alias of it: the same delivery there is
    // the same duplicate.
    const alias = await post(`/api/webhooks/printful/${config?.id}`, secret);
    expect(alias.statusCode).toBe(200);
    expect(await t.deps.db.select().from(webhookEvents)).toHaveLength(before.length);
    // The same body with a signature of another secret is refused, and so is another printer's name in the path.
    expect((await post(url, 'not-the-secret')).statusCode).toBe(401);
    expect((await post(printerWebhookPath('printify', config?.id as string), secret)).statusCode).toBe(401);
  });

  it('still reads an event job queued before the printers port, which carried Printful’s own body', async () => {
    const fake = await t.deps.printfulSandbox.server();
    const sent = fake.orders.deliveries.find((d) => d.type === 'shipment_sent');
    const body = JSON.parse(sent?.body as string);
    const read = queuedPrinterEvent(t.deps, body);
    expect(read).not.toBeNull();
    expect(read?.shipment?.trackingNumber).toBeTruthy();
    // An event in the port's own shape is taken as it is; a body no printer knows is dropped.
    expect(queuedPrinterEvent(t.deps, read as NonNullable<typeof read>)).toBe(read);
    expect(queuedPrinterEvent(t.deps, { nothing: true } as never)).toBeNull();
  });

  it('answers 401 to a wrong signature or an unknown configuration', async () => {
    const body = JSON.stringify({ type: 'order_failed', data: { order: { id: 1 } } });
    const none = '00000000-0000-4000-8000-000000000000';
    for (const url of [`/api/webhooks/printful/${none}`, printerWebhookPath('sandbox', none)]) {
      const unknown = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', 'x-pf-webhook-signature': 'a'.repeat(64) },
        payload: body,
      });
      expect(unknown.statusCode).toBe(401);
      expect(unknown.headers['set-cookie']).toBeUndefined();
    }
  });
});

describe('confirmation after a waiting time', () => {
  it('confirms the order by itself when the waiting time is over (a job at that instant)', async () => {
    // The app's clock runs two hours behind the queue's: the hour's wait is already over for pg-boss.
    const late = await createTestApp({
      now: () => new Date(Date.now() - 2 * 3600_000),
      env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0' },
    });
    const main = t;
    try {
      t = late;
      await startWorkers(late.deps, [...ORDER_JOBS, printfulSandboxTickJob, shopifyWebhookJob], {
        pollingIntervalSeconds: 0.5,
      });
      shopify = (await late.deps.shopify.sandboxServer()) as FakeShopify;
      const s = await seller('later-shop.myshopify.com', 'delay');
      await place(s, [{ sku: s.skus[0] as string, quantity: 1 }]);
      const done = await orderIn(s, ['sent', 'in_production', 'shipped', 'delivered']);
      expect(done.confirmAt).toBeNull();
      expect(['pending', 'inprocess', 'fulfilled']).toContain((await sandboxOrders(s))[0]?.status);
    } finally {
      t = main;
      shopify = (await main.deps.shopify.sandboxServer()) as FakeShopify;
      await late.close();
    }
  }, 120_000);
});
