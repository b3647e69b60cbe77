import type { TIntegration, TOrder, TOrderPage, TOrderStatus, TPrintfulSandboxOrder } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { integrations, orders as ordersTable, productVariants, publications } from '../src/db/schema';
import { moneyString } from '../src/integrations/etsy/client';
import { type FakeEtsy, LEGACY_ETSY_SCOPES, type ReceiptAddress } from '../src/integrations/etsy/fake-server';
import { startWorker, startWorkers } from '../src/jobs/workers';
import { etsyReadFaults, etsyReceiptsJob, readEtsyOrders } from '../src/modules/etsy/etsy-receipts';
import { fulfilInStore, printerExternalId } from '../src/modules/orders/fulfilment';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { pollPrinterOrders } from '../src/modules/orders/printer-poll';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { storePushJob } from '../src/modules/products/store-push';
import { twoColourTee as makeTee, waitFor as waitUntil } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Etsy orders through the built-in sandbox: the app's own Etsy client reads the fake Etsy's receipts over loopback
 * HTTP (getShopReceipts, scopes checked), the orders go to the Printful sandbox, and the shipment's tracking goes
 * back with createReceiptShipment. Reads are triggered directly (`readEtsyOrders`) where a test needs them at a
 * known moment; the reader's job runs too, as a server's does.
 */

const APP = 'http://podforge.test';
const SLOW = 180_000;
const ADDRESS: ReceiptAddress = {
  name: 'Ada Lovelace',
  first_line: '12 Analytical Row',
  second_line: 'Apt 3',
  city: 'Dearborn',
  state: 'MI',
  zip: '48124',
  country_iso: 'US',
};
let t: TestApp;
let fake: FakeEtsy;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0' } });
  t.deps.etsy.sandboxOptions = { limits: { perSecond: 10_000, perDay: 1_000_000 } };
  fake = (await t.deps.etsy.sandboxServer()) as FakeEtsy;
  await startWorker(t.deps, storePushJob);
  await startWorkers(t.deps, [...ORDER_JOBS, printfulSandboxTickJob, etsyReceiptsJob], { pollingIntervalSeconds: 0.5 });
}, SLOW);
afterAll(async () => {
  etsyReadFaults.afterReceiptStored = null;
  await t?.close();
});

const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, 120_000);

/** start -> the app's sandbox relay -> the fake's approval -> our callback; `scope` replaces what the app asked. */
async function connect(client: TestClient, scope?: string[]): Promise<TIntegration> {
  const start = await client.get('/auth/etsy/start');
  const authorize = new URL(start.headers.location as string, APP);
  if (scope) authorize.searchParams.set('scope', scope.join(' '));
  const relay = await client.get(authorize.pathname + authorize.search);
  const callback = new URL(relay.headers.location as string);
  const done = await client.get(callback.pathname + callback.search);
  expect(done.headers.location).toBe('/integrations?connected=etsy');
  const store = (await client.get('/api/integrations'))
    .json<TIntegration[]>()
    .find((i) => i.platform === 'etsy' && i.isConnected);
  if (!store) throw new Error('no connected Etsy shop');
  return store;
}

/** A ready tee in two colours, every size. */
const tee = (client: TestClient, title: string) =>
  makeTee(t, client, { title, tags: ['forest'], color: { r: 30, g: 160, b: 90 } });

type Seller = {
  client: TestClient;
  store: TIntegration;
  shopId: number;
  product: Awaited<ReturnType<typeof tee>>;
};

/** A workspace with the sandbox shop connected, a tee pushed to it, and the confirmation setting. */
async function seller(confirmation: 'automatic' | 'manual' = 'automatic', scope?: string[]): Promise<Seller> {
  const client = t.client();
  const store = await connect(client, scope);
  const product = await tee(client, 'Forest Tee');
  const pushed = await client.post(`/api/upload/etsy/${product.id}`, { integrationId: store.id });
  expect(pushed.statusCode, pushed.body).toBe(200);
  const set = await client.patch('/api/settings', { orderConfirmation: { mode: confirmation, delayMinutes: 60 } });
  expect(set.statusCode, set.body).toBe(200);
  const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
  return { client, store, shopId: Number(row?.externalId), product };
}

const listOrders = async (s: Seller) => (await s.client.get('/api/orders')).json<TOrderPage>().items;
const printerOrders = async (s: Seller) =>
  (await s.client.get('/api/printful/sandbox/orders')).json<TPrintfulSandboxOrder[]>();
const orderOf = async (s: Seller, receiptId: number) =>
  (await listOrders(s)).find((o) => o.externalId === String(receiptId));
const orderIn = (s: Seller, receiptId: number, status: TOrderStatus[]) =>
  waitFor(
    async () => {
      // Printful sends no event for a delivery: it is read by the printer poll (modules/orders/printer-poll.ts).
      if (status.includes('delivered')) await pollPrinterOrders(t.deps);
      return orderOf(s, receiptId);
    },
    (o) => Boolean(o && status.includes(o.status)),
  ) as Promise<TOrder>;
/** A buyer's receipt for one of the seller's first variant, shipped to ADDRESS. */
const buyOne = (s: Seller) =>
  fake.placeReceipt(s.shopId, {
    lines: [{ sku: s.product.variants[0]?.sku as string, quantity: 1 }],
    address: ADDRESS,
  });
const storeRow = async (id: string) => (await t.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0];

describe('Etsy receipts become orders', () => {
  it(
    'a paid receipt becomes one order and one Printful order with our variants and print files; tracking goes back once',
    async () => {
      const s = await seller();
      const [a, b] = s.product.variants;
      const receipt = await fake.placeReceipt(s.shopId, {
        lines: [
          { sku: a?.sku as string, quantity: 2 },
          { sku: b?.sku as string, quantity: 1 },
        ],
        address: ADDRESS,
      });
      // The push recorded Etsy's product id of each variant, which the lines are matched by before SKUs.
      const [pub] = await t.deps.db.select().from(publications).where(eq(publications.integrationId, s.store.id));
      const variantIds = await t.deps.db
        .select({ id: productVariants.id, sku: productVariants.sku })
        .from(productVariants)
        .where(eq(productVariants.productId, s.product.id));
      const etsyProducts = fake.listings(s.shopId).find((l) => String(l.listing_id) === pub?.remoteProductId)
        ?.inventory?.products;
      expect(Object.keys(pub?.remoteVariants ?? {}).sort()).toEqual(
        (etsyProducts ?? []).map((p) => String(p.product_id)).sort(),
      );
      for (const p of etsyProducts ?? [])
        expect(pub?.remoteVariants?.[String(p.product_id)]).toBe(variantIds.find((v) => v.sku === p.sku)?.id);
      await readEtsyOrders(t.deps, s.store.id);
      const order = await orderIn(s, receipt.receipt_id, ['delivered']);
      expect(order).toMatchObject({ name: `#${receipt.receipt_id}`, currency: 'USD', fulfillmentProvider: 'sandbox' });
      // amount / divisor in integers: 2 x 25.00 + 25.00 (the fake prices each variant as pushed).
      expect(order.revenue).toBe(moneyString(receipt.grandtotal));
      expect(order.revenue).toBe((2 * (a?.price ?? 0) + (b?.price ?? 0)).toFixed(2));
      expect(order.lines.map((l) => [l.sku, l.quantity, l.fromPodforge])).toEqual([
        [a?.sku, 2, true],
        [b?.sku, 1, true],
      ]);
      const [pf, ...others] = await printerOrders(s);
      expect(others).toEqual([]);
      expect(pf).toMatchObject({ externalId: printerExternalId(order.id) });
      expect(pf?.items.map((i) => [i.quantity, i.retailPrice])).toEqual([
        [2, (a?.price ?? 0).toFixed(2)],
        [1, (b?.price ?? 0).toFixed(2)],
      ]);
      expect(pf?.items.every((i) => Number.isInteger(i.catalogVariantId) && i.files.length > 0)).toBe(true);

      // The shipment's tracking on the receipt, once (the store-fulfil job).
      const row = await waitFor(
        async () => (await t.deps.db.select().from(ordersTable).where(eq(ordersTable.id, order.id)))[0],
        (r) => Boolean(r?.storeFulfillmentId),
      );
      const shipped = fake.receipts(s.shopId).find((r) => r.receipt_id === receipt.receipt_id);
      expect(shipped?.shipments).toHaveLength(1);
      expect(shipped?.shipments[0]).toMatchObject({ tracking_code: order.trackingNumber, carrier_name: 'usps' });
      expect(shipped).toMatchObject({ is_shipped: true, status: 'completed' });
      expect(row?.storeFulfillmentId).toBe(`shipment:${shipped?.shipments[0]?.receipt_shipping_id}`);
      // The address is ciphertext at rest.
      expect(row?.shippingAddressEnc).toMatch(/^v1\./);
      expect(row?.shippingAddressEnc).not.toContain('Dearborn');

      // A retry after Etsy took it but before it was saved here (the id lost): no second shipment.
      await t.deps.db.update(ordersTable).set({ storeFulfillmentId: null }).where(eq(ordersTable.id, order.id));
      await fulfilInStore(t.deps, order.id);
      await fulfilInStore(t.deps, order.id);
      expect(fake.receipts(s.shopId).find((r) => r.receipt_id === receipt.receipt_id)?.shipments).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'reading twice, or again after a crash between "order stored" and "cursor saved", gives exactly one order',
    async () => {
      const s = await seller('manual');
      // The read the connect asked for has run (it starts the cursor at the connection).
      const start = (
        await waitFor(
          () => storeRow(s.store.id),
          (r) => r?.ordersCursor != null,
        )
      )?.ordersCursor;
      const receipt = await buyOne(s);
      let crashes = 0;
      etsyReadFaults.afterReceiptStored = () => {
        crashes += 1;
        etsyReadFaults.afterReceiptStored = null;
        throw new Error('crash after the order was stored');
      };
      await expect(readEtsyOrders(t.deps, s.store.id)).rejects.toThrow('crash after the order was stored');
      expect(crashes).toBe(1);
      expect((await storeRow(s.store.id))?.ordersCursor).toBe(start);
      await readEtsyOrders(t.deps, s.store.id);
      await readEtsyOrders(t.deps, s.store.id);
      expect((await storeRow(s.store.id))?.ordersCursor).toBe(receipt.update_timestamp);
      await orderIn(s, receipt.receipt_id, ['waiting_approval']);
      expect(await listOrders(s)).toHaveLength(1);
      expect(await printerOrders(s)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'a line not from Podforge stays marked so; an unpaid receipt waits; a cancelled one cancels the printer’s draft',
    async () => {
      const s = await seller('manual');
      const handmade = await fake.addHandmadeListing(s.shopId, { title: 'Hand-knit scarf', sku: 'SCARF-1', price: 30 });
      expect(handmade).toBeGreaterThan(0);
      const receipt = await fake.placeReceipt(s.shopId, {
        lines: [
          { sku: s.product.variants[0]?.sku as string, quantity: 1 },
          { sku: 'SCARF-1', quantity: 1 },
        ],
        address: ADDRESS,
        paid: false,
      });
      await readEtsyOrders(t.deps, s.store.id);
      expect(await orderOf(s, receipt.receipt_id)).toBeUndefined();
      await fake.payReceipt(receipt.receipt_id);
      await readEtsyOrders(t.deps, s.store.id);
      const order = await orderIn(s, receipt.receipt_id, ['waiting_approval']);
      expect(order.lines.map((l) => [l.sku, l.fromPodforge])).toEqual([
        [s.product.variants[0]?.sku, true],
        ['SCARF-1', false],
      ]);
      expect(order.revenue).toBe(((s.product.variants[0]?.price ?? 0) + 30).toFixed(2));
      const [pf] = await printerOrders(s);
      expect(pf?.status).toBe('draft');
      expect(pf?.items).toHaveLength(1);

      await fake.cancelReceipt(receipt.receipt_id);
      await readEtsyOrders(t.deps, s.store.id);
      await orderIn(s, receipt.receipt_id, ['cancelled']);
      expect(await printerOrders(s)).toEqual([]);
    },
    SLOW,
  );

  it(
    'a shop connected without the order scopes shows the named error; the fake refuses such a token (403)',
    async () => {
      const s = await seller('automatic', LEGACY_ETSY_SCOPES);
      // As the connect wrote it before it asked for the order scopes.
      await t.deps.db
        .update(integrations)
        .set({ scopes: LEGACY_ETSY_SCOPES.join(' ') })
        .where(eq(integrations.id, s.store.id));
      const receipt = await buyOne(s);
      const named = 'Reconnect Etsy to let Podforge read orders: the connection lacks transactions_r';
      expect(await readEtsyOrders(t.deps, s.store.id)).toEqual({ problem: named });
      const card = (await s.client.get('/api/integrations')).json<TIntegration[]>().find((i) => i.id === s.store.id);
      expect(card?.problem).toBe(named);

      // The row claiming the scope changes nothing: Etsy (the fake) refuses the token, and the error is the same.
      const before = fake.calls.length;
      await t.deps.db
        .update(integrations)
        .set({ scopes: [...LEGACY_ETSY_SCOPES, 'transactions_r', 'transactions_w'].join(' '), problem: null })
        .where(eq(integrations.id, s.store.id));
      expect(await readEtsyOrders(t.deps, s.store.id)).toEqual({ problem: named });
      expect(fake.calls.slice(before).map((c) => c.status)).toContain(403);
      expect((await storeRow(s.store.id))?.problem).toBe(named);
      expect(await orderOf(s, receipt.receipt_id)).toBeUndefined();

      // Connected again (the app asks for the scopes now): the problem goes and the receipt is read.
      await connect(s.client);
      const order = await orderIn(s, receipt.receipt_id, ['received', 'sent', 'in_production', 'shipped', 'delivered']);
      expect(order.lines[0]?.fromPodforge).toBe(true);
      expect((await storeRow(s.store.id))?.problem).toBeNull();
    },
    SLOW,
  );

  it(
    'Etsy refusing the tracking is kept on the order, named, and not retried; the parcel stays shipped',
    async () => {
      const s = await seller('manual');
      const receipt = await buyOne(s);
      await readEtsyOrders(t.deps, s.store.id);
      const waiting = await orderIn(s, receipt.receipt_id, ['waiting_approval']);
      // Cancelled on Etsy after Podforge took it (not read yet): Etsy refuses tracking on it (409).
      await fake.cancelReceipt(receipt.receipt_id);
      expect((await s.client.post(`/api/orders/${waiting.id}/approve`)).statusCode).toBe(202);
      const order = await waitFor(
        () => orderOf(s, receipt.receipt_id),
        (o) => Boolean(o?.failureReason),
      );
      expect(order?.status).toMatch(/shipped|delivered/);
      expect(order?.failureReason).toBe(
        'Tracking not sent to the store: Etsy refused the tracking: Etsy: Cannot add tracking to a canceled receipt',
      );
      const tries = fake.calls.filter(
        (c) => c.method === 'POST' && c.path.endsWith(`/receipts/${receipt.receipt_id}/tracking`),
      );
      expect(tries.map((c) => c.status)).toEqual([409]);
      expect(fake.receipts(s.shopId).find((r) => r.receipt_id === receipt.receipt_id)?.shipments).toEqual([]);
    },
    SLOW,
  );

  it(
    'a connection without transactions_w: the shop says so at its read, and the tracking is not sent, with the reason',
    async () => {
      const granted = [...LEGACY_ETSY_SCOPES, 'transactions_r'];
      const s = await seller('automatic', granted);
      await t.deps.db
        .update(integrations)
        .set({ scopes: granted.join(' ') })
        .where(eq(integrations.id, s.store.id));
      const named = 'Reconnect Etsy to let Podforge send tracking to Etsy: the connection lacks transactions_w';
      const receipt = await buyOne(s);
      expect(await readEtsyOrders(t.deps, s.store.id)).toEqual({ receipts: 1 });
      const card = (await s.client.get('/api/integrations')).json<TIntegration[]>().find((i) => i.id === s.store.id);
      expect(card?.problem).toBe(named);
      const order = await waitFor(
        () => orderOf(s, receipt.receipt_id),
        (o) => Boolean(o?.failureReason),
      );
      expect(order?.failureReason).toBe(`Tracking not sent to the store: ${named}`);
      expect(fake.receipts(s.shopId).find((r) => r.receipt_id === receipt.receipt_id)?.shipments).toEqual([]);
      expect((await storeRow(s.store.id))?.problem).toBe(named);
    },
    SLOW,
  );

  it(
    'the sandbox keeps its receipts in the database: a new app on it holds the receipt placed before',
    async () => {
      const s = await seller('manual');
      const receipt = await buyOne(s);
      const second = await buildApp({ config: t.config, database: t.deps.database, logger: false });
      try {
        await second.app.ready();
        const again = (await second.deps.etsy.sandboxServer()) as FakeEtsy;
        expect(again.receipts(s.shopId).find((r) => r.receipt_id === receipt.receipt_id)).toMatchObject({
          status: 'paid',
          grandtotal: receipt.grandtotal,
          transactions: receipt.transactions,
        });
      } finally {
        await second.app.close();
      }
      await readEtsyOrders(t.deps, s.store.id);
      await orderIn(s, receipt.receipt_id, ['waiting_approval']);
      expect(await listOrders(s)).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'Place a test order: the shop is read at once and the order arrives; unknown SKUs and other workspaces are refused',
    async () => {
      const s = await seller();
      const sku = s.product.variants[1]?.sku as string;
      const foreign = await t.client().post('/api/etsy/sandbox/orders', {
        integrationId: s.store.id,
        lines: [{ sku, quantity: 1 }],
      });
      expect(foreign.statusCode).toBe(404);
      const bad = await s.client.post('/api/etsy/sandbox/orders', {
        integrationId: s.store.id,
        lines: [{ sku: 'NOPE', quantity: 1 }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain('NOPE');
      const zero = await s.client.post('/api/etsy/sandbox/orders', {
        integrationId: s.store.id,
        lines: [{ sku, quantity: 0 }],
      });
      expect(zero.statusCode).toBe(400);
      const res = await s.client.post('/api/etsy/sandbox/orders', {
        integrationId: s.store.id,
        lines: [{ sku, quantity: 2 }],
        address: { name: 'Grace Hopper', address1: '1 Navy Way', city: 'Arlington', countryCode: 'US', zip: '22202' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const placed = res.json<{ remoteOrderId: string; name: string; total: string }>();
      expect(placed.total).toBe((2 * (s.product.variants[1]?.price ?? 0)).toFixed(2));
      // No direct read here: the route asked the shop's reader job to run now.
      const order = await orderIn(s, Number(placed.remoteOrderId), [
        'received',
        'sent',
        'in_production',
        'shipped',
        'delivered',
      ]);
      expect(order).toMatchObject({ name: placed.name, revenue: placed.total });
      expect(order.lines.map((l) => [l.sku, l.quantity, l.fromPodforge])).toEqual([[sku, 2, true]]);
    },
    SLOW,
  );
});

describe('Etsy money', () => {
  it('amount / divisor exactly, in integers', () => {
    expect(moneyString({ amount: 2599, divisor: 100 })).toBe('25.99');
    expect(moneyString({ amount: 1, divisor: 3 })).toBe('0.33');
    expect(moneyString({ amount: 2, divisor: 3 })).toBe('0.67');
    expect(moneyString({ amount: 123456789, divisor: 1000 })).toBe('123456.79');
    expect(moneyString({ amount: 30, divisor: 1 })).toBe('30.00');
    // 0.1 + 0.2 in floats is 0.30000000000000004; here it is the integer sum.
    expect(moneyString({ amount: 10 + 20, divisor: 100 })).toBe('0.30');
    expect(() => moneyString({ amount: 1, divisor: 0 })).toThrow();
  });
});
