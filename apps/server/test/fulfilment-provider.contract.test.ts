import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder as createGelatoOrder, type GelatoConn } from '../src/integrations/gelato/api';
import { type GelatoClient, GelatoError } from '../src/integrations/gelato/client';
import { type FakeGelato, startFakeGelato } from '../src/integrations/gelato/fake-server';
import { type PrintfulClient, PrintfulError } from '../src/integrations/printful/client';
import { type FakePrintful, startFakePrintful } from '../src/integrations/printful/fake-server';
import { createOrder, type PrintfulConn } from '../src/integrations/printful/orders';
import type { FulfilmentProvider, PrinterAccount, PrintOrderInput } from '../src/modules/printers/fulfilment-provider';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * The FulfilmentProvider contract (issue #26): the same cases for every printer adapter in the registry, each
 * against its own fake over loopback HTTP through the app's real clients (Printful: a fake Printful account
 * connected by OAuth; the sandbox: the built-in sandbox printer; Gelato: a fake Gelato account connected by API
 * key; gelato-sandbox: the built-in Gelato sandbox). An adapter is finished when it passes; a new printer adds a
 * harness below and must pass the same cases.
 */

const APP = 'http://podforge.test';
const GELATO_KEY = 'gelato-live-key-0001';
let t: TestApp;
let fake: FakePrintful;
let fakeGelato: FakeGelato;

/** A webhook as the printer sent it. */
type Delivery = { body: string; headers: Record<string, string> };
const delivered: Delivery[] = [];

/** What the suite needs of a printer's fake beyond the port: an account, time moving on, what it sent. */
type Harness = {
  /** A new workspace connected to the printer: its account. */
  connect(): Promise<PrinterAccount>;
  /** Moves every due order one step on (production, shipping, delivery). */
  tick(): Promise<void>;
  /** Order creates the printer applied so far (its fake's calls are counted). */
  creates(): Promise<number>;
  /** The same account, whose next order create is applied at the printer but whose answer is lost. */
  losingNextCreate(account: PrinterAccount): PrinterAccount;
  /** Creates a second order under a used id of ours, past the adapter: 'refused' or 'accepted' by the printer. */
  duplicate(account: PrinterAccount, externalId: string): Promise<'refused' | 'accepted'>;
  /** Whether the printer signs its webhooks (else they are read back: `unverified`). */
  signed: boolean;
  /** Where the printer's own settings send webhooks when they are not set by API (Gelato's dashboard). */
  dashboard?(url: string): Promise<void>;
};

/**
 * The same account whose next order create reaches the printer and is applied there, but whose answer is lost
 * (a 502 on the way back), as a dropped connection leaves it. Both adapters speak Printful v2 through its client.
 */
function losingNextPrintfulCreate(account: PrinterAccount): PrinterAccount {
  const conn = account as PrinterAccount & PrintfulConn;
  let armed = true;
  const client = Object.create(conn.client) as PrintfulClient;
  client.request = async <T>(...args: Parameters<PrintfulClient['request']>): Promise<T> => {
    const answer = await conn.client.request<T>(...args);
    if (armed && args[0] === 'POST' && args[1] === '/v2/orders') {
      armed = false;
      throw new PrintfulError(502, 'Bad gateway (the answer was lost)');
    }
    return answer;
  };
  return { ...conn, client } as PrinterAccount;
}

/** Gelato's client the same way: POST /v4/orders applied, its answer lost. */
function losingNextGelatoCreate(account: PrinterAccount): PrinterAccount {
  const conn = account as PrinterAccount & GelatoConn;
  let armed = true;
  const client = Object.create(conn.client) as GelatoClient;
  client.request = async <T>(...args: Parameters<GelatoClient['request']>): Promise<T> => {
    const answer = await conn.client.request<T>(...args);
    if (armed && args[2] === 'POST' && args[3] === '/v4/orders') {
      armed = false;
      throw new GelatoError(502, null, 'Bad gateway (the answer was lost)');
    }
    return answer;
  };
  return { ...conn, client } as PrinterAccount;
}

const printfulCreates = (server: FakePrintful) =>
  server.calls.filter((c) => c.path === '/v2/orders' && c.status === 200).length;
const gelatoCreates = (server: FakeGelato) =>
  server.calls.filter((c) => c.method === 'POST' && c.path === '/v4/orders' && c.status === 200).length;

/** A second Printful order under a used external_id, straight through the client. */
async function printfulDuplicate(account: PrinterAccount, externalId: string, variant: string, placement: object) {
  const refused = await createOrder(account as PrinterAccount & PrintfulConn, {
    external_id: externalId,
    shipping: 'STANDARD',
    recipient: { name: 'Bo Other', address1: '2 Else Road', city: 'Leeds', country_code: 'GB', zip: 'LS1 1AA' },
    order_items: [
      {
        source: 'catalog',
        catalog_variant_id: Number(variant),
        quantity: 1,
        retail_price: '20.00',
        name: 'Other Tee',
        external_id: 'other-1',
        placements: [
          {
            ...(placement as { placement: string; technique: string }),
            layers: [{ type: 'file', url: `${APP}/print-files/y.png` }],
          },
        ],
      },
    ],
  }).catch((e: unknown) => e);
  if (refused instanceof PrintfulError && refused.status === 400) return 'refused' as const;
  if (refused instanceof Error) throw refused;
  return 'accepted' as const;
}

/** A second Gelato order under a used orderReferenceId: Gelato takes it (it does not deduplicate). */
async function gelatoDuplicate(account: PrinterAccount, externalId: string, variant: string) {
  const uid = (await t.deps.gelato.uidsOf([Number(variant)])).get(Number(variant)) as string;
  await createGelatoOrder(account as PrinterAccount & GelatoConn, {
    orderType: 'draft',
    orderReferenceId: externalId,
    customerReferenceId: externalId,
    currency: 'USD',
    items: [
      {
        itemReferenceId: 'other-1',
        productUid: uid,
        files: [{ type: 'default', url: `${APP}/print-files/y.png` }],
        quantity: 1,
      },
    ],
    shippingAddress: {
      firstName: 'Bo',
      lastName: 'Other',
      addressLine1: '2 Else Road',
      city: 'Leeds',
      postCode: 'LS1 1AA',
      country: 'GB',
      email: 'bo@example.com',
    },
  });
  return 'accepted' as const;
}

/** Print files are fetched by the printer; here any GET answers an image (the files themselves are print-files'). */
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

async function workspace(): Promise<{ client: TestClient; ws: string }> {
  const client = t.client();
  return { client, ws: await client.workspaceId(t.deps.db) };
}

const harnesses: Record<string, Harness> = {
  printful: {
    async connect() {
      const { client, ws } = await workspace();
      const start = await client.get('/api/printful/oauth/start');
      const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
      const callback = new URL(answer.headers.get('location') as string);
      const done = await client.get(callback.pathname + callback.search);
      expect(done.headers.location).toBe('/integrations?printful=connected');
      const account = await printer('printful').account(ws);
      expect(account).not.toBeNull();
      return account as PrinterAccount;
    },
    async tick() {
      await fake.orders.tick();
    },
    creates: async () => printfulCreates(fake),
    losingNextCreate: losingNextPrintfulCreate,
    duplicate: (account, externalId) =>
      printfulDuplicate(account, externalId, variantOf.printful as string, placementOf.printful as object),
    signed: true,
  },
  sandbox: {
    async connect() {
      const { ws } = await workspace();
      const account = await printer('sandbox').account(ws);
      expect(account).not.toBeNull();
      return account as PrinterAccount;
    },
    async tick() {
      await t.deps.printfulSandbox.tick();
    },
    creates: async () => printfulCreates(await t.deps.printfulSandbox.server()),
    losingNextCreate: losingNextPrintfulCreate,
    duplicate: (account, externalId) =>
      printfulDuplicate(account, externalId, variantOf.sandbox as string, placementOf.sandbox as object),
    signed: true,
  },
  gelato: {
    async connect() {
      const { client, ws } = await workspace();
      const wrong = await client.post('/api/gelato/connect', {
        mode: 'live',
        apiKey: 'not-a-gelato-key',
        email: 'me@example.com',
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toMatch(/invalid_api_key_provided/);
      const done = await client.post('/api/gelato/connect', {
        mode: 'live',
        apiKey: GELATO_KEY,
        email: 'me@example.com',
      });
      expect(done.json()).toMatchObject({ connected: true, sandbox: false });
      const account = await printer('gelato').account(ws);
      expect(account).not.toBeNull();
      return account as PrinterAccount;
    },
    async tick() {
      await fakeGelato.tick();
    },
    creates: async () => gelatoCreates(fakeGelato),
    losingNextCreate: losingNextGelatoCreate,
    duplicate: (account, externalId) => gelatoDuplicate(account, externalId, variantOf.gelato as string),
    signed: false,
    dashboard: (url) => fakeGelato.setWebhookUrl(GELATO_KEY, url),
  },
  'gelato-sandbox': {
    async connect() {
      const { client, ws } = await workspace();
      const done = await client.post('/api/gelato/connect', { mode: 'sandbox', email: 'me@example.com' });
      expect(done.json()).toMatchObject({ connected: true, sandbox: true });
      const account = await printer('gelato-sandbox').account(ws);
      expect(account).not.toBeNull();
      return account as PrinterAccount;
    },
    async tick() {
      await t.deps.gelatoSandbox.tick();
    },
    creates: async () => gelatoCreates(await t.deps.gelatoSandbox.server()),
    losingNextCreate: losingNextGelatoCreate,
    duplicate: (account, externalId) => gelatoDuplicate(account, externalId, variantOf['gelato-sandbox'] as string),
    signed: false,
  },
};

/** Each printer's catalogue variant and placement, as the catalogue case found them. */
const variantOf: Record<string, string> = {};
const placementOf: Record<string, { placement: string; technique: string }> = {};

const printer = (id: string) => t.deps.printers.get(id) as FulfilmentProvider;

beforeAll(async () => {
  fakeGelato = await startFakeGelato({
    apiKeys: { [GELATO_KEY]: 'acct-live' },
    fetchFile: async () => true,
    retryDelayMs: 0,
    post: async (_url, body, headers) => {
      delivered.push({ body, headers });
    },
  });
  fake = await startFakePrintful({
    clientId: 'pf-id',
    clientSecret: 'pf-secret',
    orders: {
      delays: { production: 0, ship: 0, deliver: 0 },
      fetchFile: async () => true,
      post: async (_url, body, headers) => {
        delivered.push({ body, headers });
      },
    },
  });
  t = await createTestApp({
    env: {
      APP_URL: APP,
      PRINTFUL_SANDBOX_SHIP_SECONDS: '0',
      PRINTFUL_CLIENT_ID: 'pf-id',
      PRINTFUL_CLIENT_SECRET: 'pf-secret',
      PRINTFUL_API_BASE: fake.url,
      PRINTFUL_OAUTH_BASE: fake.url,
      GELATO_ORDER_BASE: fakeGelato.url,
      GELATO_PRODUCT_BASE: fakeGelato.url,
      GELATO_SHIPMENT_BASE: fakeGelato.url,
      GELATO_SANDBOX_SHIP_SECONDS: '0',
    },
  });
  // The sandbox fetches files from and posts webhooks to the app: here it gets an image and its webhooks are kept.
  const inject = (async (opts: { method: string; payload?: string; headers?: Record<string, string> }) => {
    if (opts.method === 'POST') {
      delivered.push({ body: String(opts.payload), headers: opts.headers ?? {} });
      return { statusCode: 200, headers: {} };
    }
    return { statusCode: 200, headers: { 'content-type': 'image/png' }, body: PNG };
  }) as unknown as FastifyInstance['inject'];
  t.deps.printfulSandbox.attach({ inject });
  t.deps.gelatoSandbox.attach({ inject });
});
afterAll(async () => {
  await t.close();
  await fake.close();
  await fakeGelato.close();
});

it('registers every printer once', () => {
  expect(t.deps.printers.all().map((p) => p.id)).toEqual(Object.keys(harnesses));
  expect(
    t.deps.printers
      .all()
      .filter((p) => p.fallback)
      .map((p) => p.id),
  ).toEqual(['sandbox']);
});

describe.each(Object.keys(harnesses))('%s', (id) => {
  const h = harnesses[id] as Harness;
  let account: PrinterAccount;
  let variantId: string;
  let placement: { placement: string; technique: string };

  const input = (externalId = `po-${randomUUID().slice(0, 8)}`): PrintOrderInput => ({
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
        catalogVariantId: variantId,
        quantity: 2,
        retailPrice: '24.00',
        name: 'Sunset Tee',
        externalId: `${externalId}-1`,
        files: [{ ...placement, url: `${APP}/print-files/x.png` }],
      },
    ],
  });

  /** Ticks until the printer's order reaches a status (each tick is one step). */
  const until = async (orderId: string, status: string) => {
    for (let i = 0; i < 6; i++) {
      const o = await printer(id).order(account, { id: orderId });
      if (o?.status === status) return o;
      await h.tick();
    }
    throw new Error(`order ${orderId} never reached ${status}`);
  };

  beforeAll(async () => {
    account = await h.connect();
  });

  it('catalogue: a product with variants, their ids and costs, placements with print-file specs', async () => {
    const catalogue = await printer(id).catalogue(account.workspaceId);
    const listings = await catalogue.listings();
    expect(listings.length).toBeGreaterThan(0);
    const product = await catalogue.product(listings[0] as (typeof listings)[number]);
    expect(product.variants.length).toBeGreaterThan(0);
    const v = product.variants[0] as (typeof product.variants)[number];
    expect(String(v.id)).toMatch(/^\d+$/);
    expect(v.price).toMatch(/^\d+\.\d{2}$/);
    const area = product.printAreas[0];
    expect(area?.widthPx).toBeGreaterThan(0);
    expect(area?.dpi).toBeGreaterThan(0);
    variantId = String(v.id);
    placement = { placement: area?.placement as string, technique: area?.technique as string };
    variantOf[id] = variantId;
    placementOf[id] = placement;
  });

  it("quotes from the printer's own API: products, shipping, total and delivery days, no order made", async () => {
    const catalogue = await printer(id).catalogue(account.workspaceId);
    const [listing] = await catalogue.listings();
    const before = await h.creates();
    const q = await printer(id).quote(account, {
      recipient: { countryCode: 'US', provinceCode: 'OR', zip: '97201' },
      currency: 'USD',
      items: [{ catalogProductId: listing?.id as number, catalogVariantId: variantId, quantity: 2 }],
    });
    expect(q.products).toMatch(/^\d+\.\d{2}$/);
    expect(Number(q.shipping)).toBeGreaterThan(0);
    expect(q.total).toBe((Number(q.products) + Number(q.shipping)).toFixed(2));
    expect(q.currency).toMatch(/^[A-Z]{3}$/);
    expect(q.maxDeliveryDays).toBeGreaterThanOrEqual(q.minDeliveryDays as number);
    expect(await h.creates()).toBe(before);
    await expect(
      printer(id).quote(account, {
        recipient: { countryCode: 'US' },
        items: [{ catalogProductId: listing?.id as number, catalogVariantId: '999999999', quantity: 1 }],
      }),
    ).rejects.toThrow();
  });

  it('places an order exactly once: a retry after a lost answer finds the first; the draft is the quote', async () => {
    const order = input();
    const first = await printer(id).placeOrder(account, order);
    expect(first).toMatchObject({ externalId: order.externalId, status: 'draft' });
    expect(first.cost?.total).toMatch(/^\d+\.\d{2}$/);
    expect(Number(first.cost?.total)).toBeGreaterThan(0);
    const again = await printer(id).placeOrder(account, order);
    expect(again.id).toBe(first.id);
    expect((await printer(id).order(account, { externalId: order.externalId }))?.id).toBe(first.id);
  });

  it('a retry after a lost answer makes no second order', async () => {
    const order = input();
    const before = await h.creates();
    await expect(printer(id).placeOrder(h.losingNextCreate(account), order)).rejects.toThrow(/lost/);
    expect(await h.creates()).toBe(before + 1);
    // The caller (the job's retry) places again with the same id of ours: the printer's first order is found.
    const retried = await printer(id).placeOrder(account, order);
    expect(await h.creates()).toBe(before + 1);
    expect(retried.externalId).toBe(order.externalId);
    expect((await printer(id).order(account, { externalId: order.externalId }))?.id).toBe(retried.id);
  });

  it('a used id of ours: Printful refuses a second order (400, #27.7); Gelato takes it, and placing still finds the first', async () => {
    const order = input();
    const first = await printer(id).placeOrder(account, order);
    const outcome = await h.duplicate(account, order.externalId);
    expect(outcome).toBe(h.signed ? 'refused' : 'accepted');
    // Gelato does not deduplicate: the adapter searches our id first and keeps to the earliest order.
    expect((await printer(id).placeOrder(account, order)).id).toBe(first.id);
  });

  it("an order placed under an earlier external id (the store's number) is found again; another store's is not (#27.7)", async () => {
    const legacy = `${Math.floor(Math.random() * 1e6)}`;
    const old: PrintOrderInput = {
      ...input(legacy),
      items: input(legacy).items.map((i) => ({ ...i, externalId: `L${legacy}` })),
    };
    const placedBefore = await printer(id).placeOrder(account, old);
    // The same order, now under our own id: the retry finds the first order (no second one).
    const ours = `o${randomUUID().replace(/-/g, '').slice(1)}`;
    const retried = await printer(id).placeOrder(account, { ...old, externalId: ours, earlierExternalIds: [legacy] });
    expect(retried.id).toBe(placedBefore.id);
    // Another store's order with the same number (another buyer): a new printer order of its own.
    const theirs = `o${randomUUID().replace(/-/g, '').slice(1)}`;
    const other = await printer(id).placeOrder(account, {
      ...old,
      externalId: theirs,
      earlierExternalIds: [legacy],
      recipient: { ...old.recipient, name: 'Bo Other', zip: '97202' },
    });
    expect(other.id).not.toBe(placedBefore.id);
    expect(other.externalId).toBe(theirs);
  });

  it('confirms (twice is once), then cancels; a draft is withdrawn; an order in production refuses', async () => {
    const a = await printer(id).placeOrder(account, input());
    const confirmed = await printer(id).confirm(account, a.id);
    expect(confirmed.status).toBe('sent');
    expect((await printer(id).confirm(account, a.id)).id).toBe(a.id);
    await printer(id).cancel(account, a.id);
    expect((await printer(id).order(account, { id: a.id }))?.status).toBe('cancelled');

    const draft = await printer(id).placeOrder(account, input());
    await printer(id).cancel(account, draft.id);
    expect(await printer(id).order(account, { id: draft.id })).toBeNull();

    const b = await printer(id).placeOrder(account, input());
    await printer(id).confirm(account, b.id);
    await until(b.id, 'in_production');
    await expect(printer(id).cancel(account, b.id)).rejects.toThrow();
    expect(
      printer(id).explain(
        await printer(id)
          .cancel(account, b.id)
          .catch((e) => e),
      )?.final,
    ).toBe(true);
  });

  it('status by webhook (signed ones checked, unsigned ones read back) and by polling; shipment with tracking', async () => {
    const url = `${APP}/api/webhooks/printful/${randomUUID()}`;
    const secret = await printer(id).setWebhook(account, url);
    await h.dashboard?.(url);
    const from = delivered.length;
    const o = await printer(id).placeOrder(account, input());
    await printer(id).confirm(account, o.id);
    await until(o.id, 'shipped');
    const mine = delivered.slice(from);
    const events = mine
      .filter((d) => printer(id).verifyWebhook(Buffer.from(d.body), d.headers, secret))
      .map((d) => printer(id).readWebhook(JSON.parse(d.body))?.event)
      .filter((e) => e && (e.order.id === o.id || e.order.externalId === o.externalId));
    const shipments = await printer(id).shipments(account, o.id);
    expect(shipments).toHaveLength(1);
    expect(shipments[0]?.trackingUrl).toMatch(/^https:\/\//);
    expect(shipments[0]?.carrier).toBeTruthy();
    if (h.signed) {
      expect(events.map((e) => e?.to)).toContain('in_production');
      const shippedEvent = events.find((e) => e?.to === 'shipped');
      expect(shippedEvent?.shipment?.trackingNumber).toBeTruthy();
      const sample = mine[mine.length - 1] as Delivery;
      expect(printer(id).verifyWebhook(Buffer.from(sample.body), sample.headers, 'another secret')).toBe(false);
      expect(printer(id).verifyWebhook(Buffer.from(`${sample.body} `), sample.headers, secret)).toBe(false);
      expect(shipments[0]).toMatchObject({ id: shippedEvent?.shipment?.id });
      expect(shipments[0]?.trackingNumber).toBe(shippedEvent?.shipment?.trackingNumber);
    } else {
      // Unsigned (Gelato): every event about the order is taken as a reference only, never as a status.
      expect(events.length).toBeGreaterThan(2);
      expect(events.every((e) => e?.unverified === true && e.to === undefined)).toBe(true);
      const tracking = mine
        .map((d) => JSON.parse(d.body))
        .find((b) => b.event === 'order_item_tracking_code_updated' && b.orderReferenceId === o.externalId);
      expect(tracking?.trackingCode).toBe(shipments[0]?.trackingNumber);
      // A forged body claiming 'shipped' for another order says nothing by itself either.
      const forged = printer(id).readWebhook({
        event: 'order_status_updated',
        orderId: 'x',
        orderReferenceId: 'y',
        fulfillmentStatus: 'shipped',
      });
      expect(forged?.event).toEqual({ order: { externalId: 'y' }, unverified: true });
    }
    await h.tick();
    expect((await printer(id).shipments(account, o.id))[0]?.delivered).toBe(true);
  });
});
