import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { TOrder, TOrderStatus } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfillmentWebhooks, integrations, orders } from '../src/db/schema';
import { PrintfulClient } from '../src/integrations/printful/client';
import { type FakePrintful, startFakePrintful } from '../src/integrations/printful/fake-server';
import type { FakeShopify } from '../src/integrations/shopify/fake-server';
import { startWorker } from '../src/jobs/workers';
import { storeFulfilJob } from '../src/modules/orders/order-jobs';
import { pollPrinterOrders, printerPollJob } from '../src/modules/orders/printer-poll';
import type { FulfilmentProvider, PrinterAccount, PrintOrderInput } from '../src/modules/printers/fulfilment-provider';
import { PrintfulFulfilment } from '../src/modules/printful/printful-fulfilment';
import { waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Printful's side of issue #27: webhooks checked with the secret key as Printful issues it (hex, decoded to bytes),
 * orders reconciled by polling when a webhook is lost (a delivery has no webhook at all), costs read once Printful
 * has calculated them, and the variant list read by following `_links.next`.
 */

const APP = 'http://podforge.test';
const TOKEN = 'pf-private-token';
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
let t: TestApp;
let fake: FakePrintful;
const lost: string[] = [];

beforeAll(async () => {
  fake = await startFakePrintful({
    privateTokens: [TOKEN],
    maxPageSize: 4,
    // Variants of product 71 the list leaves out (no longer offered): its pages hold fewer than asked.
    unlistedVariants: [71002, 71003],
    orders: { fetchFile: async () => true, post: async () => {}, costs: { reads: 3 } },
  });
  t = await createTestApp({
    env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0', PRINTFUL_TOKEN: TOKEN, PRINTFUL_API_BASE: fake.url },
  });
  // Every webhook of the sandbox printer is lost on its way to the app; its print-file downloads get an image.
  t.deps.printfulSandbox.attach({
    inject: (async (opts: { method: string; payload?: string }) => {
      if (opts.method === 'POST') {
        lost.push(String(opts.payload));
        return { statusCode: 503, headers: {} };
      }
      return { statusCode: 200, headers: { 'content-type': 'image/png' }, body: PNG };
    }) as unknown as FastifyInstance['inject'],
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const printful = () => t.deps.printers.get('printful') as FulfilmentProvider;
const sandbox = () => t.deps.printers.get('sandbox') as FulfilmentProvider;

describe('Printful webhooks are signed with the hex secret key decoded to bytes (#27.4, #27 point 5)', () => {
  const body = JSON.stringify({ type: 'order_updated', data: { order: { id: 1, status: 'inprocess' } } });
  const secret = randomBytes(32).toString('hex');
  const signed = (key: Buffer | string) => ({
    'x-pf-webhook-signature': createHmac('sha256', key).update(body).digest('hex'),
  });

  it('a signature made with the hex-decoded key passes; one made with the key text as UTF-8 fails', () => {
    expect(printful().verifyWebhook(Buffer.from(body), signed(Buffer.from(secret, 'hex')), secret)).toBe(true);
    expect(printful().verifyWebhook(Buffer.from(body), signed(secret), secret)).toBe(false);
    const other = randomBytes(32).toString('hex');
    expect(printful().verifyWebhook(Buffer.from(body), signed(Buffer.from(secret, 'hex')), other)).toBe(false);
  });

  it('the webhook route takes a delivery signed with the hex-decoded key and refuses one keyed with its text (401)', async () => {
    const client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    const [config] = await t.deps.db
      .insert(fulfillmentWebhooks)
      .values({ workspaceId: ws, provider: 'printful', secretEnc: t.deps.cipher.encrypt(secret) })
      .returning();
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/printful/${config?.id}`,
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    expect((await post(signed(secret))).statusCode).toBe(401);
    expect((await post(signed(Buffer.from(secret, 'hex')))).statusCode).toBe(200);
  });

  it('the fake Printful signs its deliveries with the hex-decoded key', async () => {
    const sent: { body: string; headers: Record<string, string> }[] = [];
    const own = await startFakePrintful({
      privateTokens: [TOKEN],
      orders: {
        fetchFile: async () => true,
        post: async (_url, b, headers) => {
          sent.push({ body: b, headers });
        },
        delays: { production: 0, ship: 0, deliver: 0 },
        costs: { reads: 0 },
      },
    });
    try {
      const conn = { client: new PrintfulClient({ apiBase: own.url, oauthBase: own.url }), token: TOKEN };
      const adapter = adapterOver(conn);
      const account = (await adapter.account('ws')) as PrinterAccount;
      const key = await adapter.setWebhook(account, 'https://app.example/api/webhooks/printful/x');
      expect(key).toMatch(/^[0-9a-f]{64}$/);
      const placed = await adapter.placeOrder(account, orderInput('71001'));
      await adapter.confirm(account, placed.id);
      await own.orders.tick();
      expect(sent.length).toBeGreaterThan(0);
      for (const d of sent) {
        expect(d.headers['x-pf-webhook-signature']).toBe(
          createHmac('sha256', Buffer.from(key, 'hex')).update(d.body).digest('hex'),
        );
        expect(adapter.verifyWebhook(Buffer.from(d.body), d.headers, key)).toBe(true);
      }
    } finally {
      await own.close();
    }
  });
});

/** A PrintfulFulfilment over a connection of the test's own, waiting no time between reads of its costs. */
function adapterOver(conn: { client: PrintfulClient; token: string }) {
  return new PrintfulFulfilment({
    id: 'printful-test',
    name: 'Printful',
    fallback: false,
    needsPublicUrl: false,
    connection: async () => conn,
    catalogue: async () => {
      throw new Error('not used');
    },
    sleep: async () => {},
  });
}

function orderInput(variant: string, externalId = `t${randomUUID().replace(/-/g, '').slice(1)}`): PrintOrderInput {
  return {
    externalId,
    recipient: {
      name: 'Ada Buyer',
      address1: '1 Test Street',
      city: 'Portland',
      provinceCode: 'OR',
      countryCode: 'US',
      zip: '97201',
    },
    items: [
      {
        catalogVariantId: variant,
        quantity: 1,
        retailPrice: '24.00',
        name: 'Sunset Tee',
        externalId: `${externalId}-1`,
        files: [{ placement: 'front', technique: 'dtg', url: `${APP}/print-files/x.png` }],
      },
    ],
  };
}

describe('costs are read once Printful has calculated them (#27 also)', () => {
  const conn = () => ({ client: new PrintfulClient({ apiBase: fake.url, oauthBase: fake.url }), token: TOKEN });

  it('the create answers costs as calculating; the order is read again until they are done', async () => {
    const adapter = adapterOver(conn());
    const account = (await adapter.account('ws')) as PrinterAccount;
    const input = orderInput('71001');
    const reads = () => fake.calls.filter((c) => c.path.startsWith('/v2/orders/') && c.status === 200).length;
    const before = reads();
    const placed = await adapter.placeOrder(account, input);
    expect(placed.cost?.total).toMatch(/^\d+\.\d{2}$/);
    expect(Number(placed.cost?.total)).toBeGreaterThan(0);
    // The lookup by external id, then three reads while calculating and the one that found them done.
    expect(reads() - before).toBeGreaterThanOrEqual(4);
  });

  it('costs still calculating after the waits: a retryable error, and the retry finds the same order', async () => {
    const slow = await startFakePrintful({
      privateTokens: [TOKEN],
      orders: { fetchFile: async () => true, post: async () => {}, costs: { reads: 50 } },
    });
    try {
      const adapter = adapterOver({
        client: new PrintfulClient({ apiBase: slow.url, oauthBase: slow.url }),
        token: TOKEN,
      });
      const account = (await adapter.account('ws')) as PrinterAccount;
      const input = orderInput('71001');
      const error = await adapter.placeOrder(account, input).catch((e: unknown) => e);
      expect(adapter.explain(error)).toMatchObject({ final: false });
      expect(adapter.explain(error)?.text).toMatch(/calculating/);
      const creates = () => slow.calls.filter((c) => c.path === '/v2/orders').length;
      expect(creates()).toBe(1);
      await adapter.placeOrder(account, input).catch(() => null);
      expect(creates()).toBe(1);
    } finally {
      await slow.close();
    }
  });
});

describe('the catalogue follows `_links.next` (#27 also)', () => {
  it('reads every listed variant once when pages hold fewer than asked', async () => {
    const client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    const catalogue = await t.deps.printful.catalogFor(ws);
    const listing = (await catalogue.listings()).find((l) => l.id === 71);
    expect(listing).toBeDefined();
    const product = await catalogue.product(listing as NonNullable<typeof listing>);
    const ids = product.variants.map((v) => Number(v.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(71002);
    expect(ids).toContain(71004);
    // Pages of 4 with two left out of the first: still every other variant, in order.
    expect(ids.slice(0, 4)).toEqual([71001, 71004, 71005, 71006]);
    expect(fake.calls.filter((c) => c.path === '/v2/catalog-products/71/catalog-variants').length).toBeGreaterThan(2);
  });
});

/** A workspace with the built-in sandbox shop connected: the store its orders belong to. */
async function connectedStore(): Promise<{ client: TestClient; ws: string; storeId: string }> {
  const client = t.client();
  const start = await client.get(`/auth/shopify/start?shop=poll-${randomUUID().slice(0, 6)}.myshopify.com`);
  const relayed = await client.get(start.headers.location as string);
  const back = new URL(relayed.headers.location as string);
  await client.get(back.pathname + back.search);
  const ws = await client.workspaceId(t.deps.db);
  const [store] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws));
  return { client, ws, storeId: store?.id as string };
}

/** An order of ours sent to the sandbox printer (confirmed there), as the submit and confirm jobs leave it. */
async function sentOrder(o: { ws: string; storeId: string; printerOrderId: string; remoteOrderId?: string }) {
  const [row] = await t.deps.db
    .insert(orders)
    .values({
      workspaceId: o.ws,
      integrationId: o.storeId,
      remoteOrderId: o.remoteOrderId ?? `r-${randomUUID()}`,
      name: '#1001',
      currency: 'USD',
      revenue: '24.00',
      status: 'sent',
      fulfillmentProvider: 'sandbox',
      printerOrderId: o.printerOrderId,
      confirmedAt: new Date(),
      orderedAt: new Date(),
    })
    .returning();
  return row;
}

const orderRow = async (id?: string) =>
  (
    await t.deps.db
      .select()
      .from(orders)
      .where(eq(orders.id, id as string))
  )[0];

describe('orders are reconciled by polling: a lost webhook delays, never strands, an order (#27 point 5)', () => {
  it('the poll job moves an order whose webhooks were all lost to shipped, then delivered', async () => {
    const { ws, storeId } = await connectedStore();
    const account = (await sandbox().account(ws)) as PrinterAccount;
    const placed = await sandbox().placeOrder(account, orderInput('71001'));
    await sandbox().confirm(account, placed.id);
    const row = await sentOrder({ ws, storeId, printerOrderId: placed.id });
    const status = async () => (await orderRow(row?.id))?.status as TOrderStatus;

    // Printed and shipped at the printer; none of its webhooks arrive (the app was down for all their retries).
    lost.length = 0;
    await t.deps.printfulSandbox.tick();
    await t.deps.printfulSandbox.tick();
    expect((await sandbox().order(account, { id: placed.id }))?.status).toBe('shipped');
    expect(await status()).toBe('sent');

    // The poll job (started as every worker is) reads the order at the printer and moves it on.
    await startWorker(t.deps, printerPollJob, { pollingIntervalSeconds: 0.5 });
    await waitFor(status, (s) => s === 'shipped');
    const [shipped] = await t.deps.db
      .select()
      .from(orders)
      .where(eq(orders.id, row?.id as string));
    expect(shipped?.trackingNumber).toMatch(/^9400/);
    expect(shipped?.carrier).toBe('USPS');

    // Delivered: Printful sends no event for it; the next poll reads the shipment's delivery_status/delivered_at.
    await t.deps.printfulSandbox.tick();
    expect((await sandbox().shipments(account, placed.id))[0]?.delivered).toBe(true);
    expect(await status()).toBe('shipped');
    await pollPrinterOrders(t.deps);
    expect(await status()).toBe('delivered');
  });

  it('an order Printful ships in parts (`partial`): the poll sends the first parcel with its lines, no webhook needed (#27 point 6)', async () => {
    const { client, ws, storeId } = await connectedStore();
    const [store] = await t.deps.db.select().from(integrations).where(eq(integrations.id, storeId));
    const shop = store?.externalId as string;
    // The buyer's order in the sandbox shop: two lines, as the store numbers them.
    const shopify = (await t.deps.shopify.sandboxServer()) as FakeShopify;
    const paid = await shopify.orders.placePaidOrder(shop, {
      lines: [
        { title: 'Sunset Tee - Small', price: '24.00', quantity: 2 },
        { title: 'Sunset Tee - Medium', price: '26.00', quantity: 1 },
      ],
      address: null,
    });
    const [small, medium] = paid.lineItems;
    const account = (await sandbox().account(ws)) as PrinterAccount;
    const input = orderInput('71001');
    const item = input.items[0] as PrintOrderInput['items'][number];
    input.items = [
      { ...item, quantity: 2, externalId: String(small?.id) },
      { ...item, catalogVariantId: '71004', quantity: 1, externalId: String(medium?.id) },
    ];
    (await t.deps.printfulSandbox.server()).orders.shipInParts();
    const placed = await sandbox().placeOrder(account, input);
    await sandbox().confirm(account, placed.id);
    const row = await sentOrder({ ws, storeId, printerOrderId: placed.id, remoteOrderId: String(paid.id) });

    // Printed, and the first parcel (the first line) has left: Printful's order is `partial`; its webhooks are lost.
    await t.deps.printfulSandbox.tick();
    await t.deps.printfulSandbox.tick();
    const atPrinter = await sandbox().order(account, { id: placed.id });
    expect(atPrinter).toMatchObject({ status: 'shipped', moreToShip: true });
    expect(await sandbox().shipments(account, placed.id)).toHaveLength(1);

    // The poll reads the parcel and the store gets its fulfilment: that parcel's line only, with its tracking number.
    await pollPrinterOrders(t.deps);
    await startWorker(t.deps, storeFulfilJob, { pollingIntervalSeconds: 0.5 });
    const first = await waitFor(
      async () => (await shopify.orders.orders(shop)).find((o) => o.id === paid.id),
      (o) => (o?.fulfillments.length ?? 0) >= 1,
    );
    const [parcel] = await sandbox().shipments(account, placed.id);
    expect(first?.fulfillments.map((f) => [f.lines, f.trackingInfo.number])).toEqual([
      [[{ lineItemId: small?.id, quantity: 2 }], parcel?.trackingNumber],
    ]);
    const current = () => orderRow(row?.id);
    expect((await current())?.status).toBe('shipped');
    // The order shows that one parcel, its line (the store's line id: this order has no lines of its own here), sent.
    const shown = await waitFor(
      async () => (await client.get(`/api/orders/${row?.id}`)).json<TOrder>(),
      (o) => o.shipments[0]?.sentToStore === true,
    );
    expect(shown.shipments).toEqual([
      {
        carrier: parcel?.carrier,
        trackingNumber: parcel?.trackingNumber,
        trackingUrl: parcel?.trackingUrl,
        lines: [{ title: `Store line ${small?.id}`, quantity: 2 }],
        sentToStore: true,
        delivered: false,
      },
    ]);

    // The second parcel: the next poll sends it, once; the order is delivered only when both parcels are.
    await t.deps.printfulSandbox.tick();
    expect((await sandbox().order(account, { id: placed.id }))?.moreToShip).toBeUndefined();
    await pollPrinterOrders(t.deps);
    const both = await waitFor(
      async () => (await shopify.orders.orders(shop)).find((o) => o.id === paid.id),
      (o) => (o?.fulfillments.length ?? 0) >= 2,
    );
    expect(both?.fulfillments.map((f) => f.lines)).toEqual([
      [{ lineItemId: small?.id, quantity: 2 }],
      [{ lineItemId: medium?.id, quantity: 1 }],
    ]);
    await pollPrinterOrders(t.deps);
    expect(Object.keys((await current())?.storeShipments ?? {})).toHaveLength(2);
  });
});

describe("the fake Printful checks each request against Printful's v2 OpenAPI (#27 point 2)", () => {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${fake.url}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const order = (item: Record<string, unknown>) => ({
    external_id: `v${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    recipient: { name: 'Ada', address1: '1 Test St', city: 'Portland', country_code: 'US', zip: '97201' },
    order_items: [
      {
        source: 'catalog',
        catalog_variant_id: 71001,
        quantity: 1,
        placements: [{ placement: 'front', technique: 'dtg', layers: [{ type: 'file', url: `${APP}/x.png` }] }],
        ...item,
      },
    ],
  });

  it('a body against the operation schema: a string variant id, a missing placements, no order_items -> 400', async () => {
    for (const [body, words] of [
      [order({ catalog_variant_id: '71001' }), /catalog_variant_id must be integer/],
      [order({ placements: undefined }), /placements is required/],
      [{ recipient: { name: 'Ada' } }, /order_items is required/],
      [order({ source: 'warehouse' }), /source must be one of catalog/],
      [{ ...order({}), recipient: { name: 7 } }, /recipient\.name must be string/],
    ] as const) {
      const res = await call('POST', '/v2/orders', body);
      expect(res.status).toBe(400);
      const json = (await res.json()) as { code: number; result: string; error: { reason: string; message: string } };
      expect(json).toMatchObject({ code: 400, error: { reason: 'BadRequest' } });
      expect(json.result).toMatch(words);
      expect(json.error.message).toBe(json.result);
    }
    expect((await call('POST', '/v2/orders', order({}))).status).toBe(200);
  });

  it('path and query parameters: a product id that is not an integer, a limit over 100, a bad enum -> 400', async () => {
    expect((await call('GET', '/v2/catalog-products/abc')).status).toBe(400);
    const over = await call('GET', '/v2/catalog-products?limit=500');
    expect(over.status).toBe(400);
    expect(((await over.json()) as { result: string }).result).toMatch(/query\.limit must be <= 100/);
    expect((await call('GET', '/v2/catalog-products?sort_type=cheapest')).status).toBe(400);
    expect((await call('GET', '/v2/catalog-products?limit=5&category_ids=1,2')).status).toBe(200);
    expect((await call('GET', '/v2/catalog-products/71')).status).toBe(200);
  });

  it('a webhook configuration without events -> 400', async () => {
    const res = await call('POST', '/v2/webhooks', { default_url: 'https://app.example/hook' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { result: string }).result).toMatch(/events is required/);
  });
});
