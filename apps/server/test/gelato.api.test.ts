import { randomUUID } from 'node:crypto';
import type { TGelatoSandboxOrder } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfillmentWebhooks, gelatoSandboxOrders, integrations } from '../src/db/schema';
import { createOrder, type GelatoConn, getOrder, patchOrder } from '../src/integrations/gelato/api';
import { GelatoClient, GelatoError } from '../src/integrations/gelato/client';
import { type FakeGelato, startFakeGelato } from '../src/integrations/gelato/fake-server';
import type { FulfilmentProvider, PrinterAccount, PrintOrderInput } from '../src/modules/printers/fulfilment-provider';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Gelato beyond the port's contract (apis-next.md G.9): split orders sharing one reference, cancel refused once in
 * production, a file Gelato cannot download fails the order, the older webhook shape, 429s waited out, the fake's
 * strict create validation, and the built-in sandbox's page data (`GET /api/gelato/sandbox/orders`).
 */

const APP = 'http://podforge.test';
const KEY = 'gelato-key-for-api-tests';
let t: TestApp;
let fake: FakeGelato;
const posted: { url: string; body: string }[] = [];
const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

beforeAll(async () => {
  fake = await startFakeGelato({
    apiKeys: { [KEY]: 'acct-a' },
    fetchFile: async () => true,
    retryDelayMs: 0,
    post: async (url, body) => {
      posted.push({ url, body });
    },
  });
  t = await createTestApp({
    env: {
      APP_URL: APP,
      GELATO_ORDER_BASE: fake.url,
      GELATO_PRODUCT_BASE: fake.url,
      GELATO_SHIPMENT_BASE: fake.url,
      GELATO_SANDBOX_SHIP_SECONDS: '0',
    },
  });
  t.deps.gelatoSandbox.attach({
    inject: (async (opts: { method: string }) =>
      opts.method === 'POST'
        ? { statusCode: 200, headers: {} }
        : {
            statusCode: 200,
            headers: { 'content-type': 'image/png' },
            body: PNG,
          }) as unknown as FastifyInstance['inject'],
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const gelato = () => t.deps.printers.get('gelato') as FulfilmentProvider;

async function connected(mode: 'live' | 'sandbox' = 'live'): Promise<{ client: TestClient; account: PrinterAccount }> {
  const client = t.client();
  const ws = await client.workspaceId(t.deps.db);
  const res = await client.post('/api/gelato/connect', { mode, apiKey: KEY, email: 'seller@example.com' });
  expect(res.statusCode, res.body).toBe(200);
  const account = await (
    t.deps.printers.get(mode === 'live' ? 'gelato' : 'gelato-sandbox') as FulfilmentProvider
  ).account(ws);
  return { client, account: account as PrinterAccount };
}

/** Our variant ids for a tee (white, M) and an A3 poster, from the Gelato catalogue. */
async function variants(account: PrinterAccount) {
  const catalogue = await gelato().catalogue(account.workspaceId);
  const products = await Promise.all((await catalogue.listings()).map((l) => catalogue.product(l)));
  const tee = products.find((p) => p.type === 'tshirt');
  const poster = products.find((p) => p.type === 'poster');
  return {
    tee: String(tee?.variants.find((v) => v.color === 'white' && v.size === 'M')?.id),
    poster: String(poster?.variants.find((v) => v.size === 'A3')?.id),
  };
}

const input = (items: { variant: string; quantity: number }[], country = 'US'): PrintOrderInput => {
  const externalId = randomUUID().replace(/-/g, '');
  return {
    externalId,
    currency: 'USD',
    recipient: {
      name: 'Ada Buyer',
      address1: '1 Test Street',
      city: 'Portland',
      provinceCode: 'OR',
      countryCode: country,
      zip: '97201',
    },
    items: items.map((i, n) => ({
      catalogVariantId: i.variant,
      quantity: i.quantity,
      retailPrice: '24.00',
      name: `Line ${n}`,
      externalId: `line-${n}`,
      files: [{ placement: 'front', technique: 'dtg', url: `${APP}/print-files/${n}.png` }],
    })),
  };
};

describe('Gelato adapter against the fake', () => {
  it('a tee and a poster to the US are split by Gelato into two orders sharing our reference; one order here', async () => {
    const { account } = await connected();
    const v = await variants(account);
    const order = input([
      { variant: v.tee, quantity: 1 },
      { variant: v.poster, quantity: 2 },
    ]);
    const placed = await gelato().placeOrder(account, order);
    const conn = account as PrinterAccount & GelatoConn;
    const first = await getOrder(conn, placed.id);
    expect(first.orderType).toBe('draft');
    expect(first.connectedOrderIds).toHaveLength(1);
    const second = await getOrder(conn, first.connectedOrderIds[0] as string);
    expect(second.orderReferenceId).toBe(order.externalId);
    expect(second.connectedOrderIds).toEqual([first.id]);
    expect([first.shipment?.fulfillmentCountry, second.shipment?.fulfillmentCountry].sort()).toEqual(['DE', 'US']);
    // The cost is both parts' receipts (VAT included), in the currency asked for.
    const sum = [first, second].flatMap((o) => o.receipts).reduce((s, r) => s + r.totalInclVat, 0);
    expect(placed.cost).toEqual({ total: sum.toFixed(2), currency: 'USD' });

    // Confirm covers both parts; shipped only when both are; each part's parcel is a shipment.
    const confirmed = await gelato().confirm(account, placed.id);
    expect(confirmed.status).toBe('sent');
    for (let i = 0; i < 4; i++) await fake.tick();
    expect((await gelato().order(account, { id: placed.id }))?.status).toBe('shipped');
    const shipments = await gelato().shipments(account, placed.id);
    expect(shipments).toHaveLength(2);
    expect(shipments.every((s) => s.trackingNumber && s.trackingUrl?.startsWith('https://'))).toBe(true);
  });

  it('cancel is refused with 409 once in production; the adapter says retrying cannot help', async () => {
    const { account } = await connected();
    const v = await variants(account);
    const placed = await gelato().placeOrder(account, input([{ variant: v.tee, quantity: 1 }]));
    await gelato().confirm(account, placed.id);
    await fake.tick(); // passed
    await fake.tick(); // in_production
    const error = await gelato()
      .cancel(account, placed.id)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GelatoError);
    expect((error as GelatoError).status).toBe(409);
    expect(gelato().explain(error)).toMatchObject({ final: true });
    expect(gelato().explain(error)?.text).toMatch(/^Gelato: /);
  });

  it('a print file Gelato cannot download fails the order; on hold on demand', async () => {
    const { account } = await connected();
    const v = await variants(account);
    const a = await gelato().placeOrder(account, input([{ variant: v.tee, quantity: 1 }]));
    await gelato().confirm(account, a.id);
    fake.failNextDownloads(1);
    await fake.tick();
    expect((await gelato().order(account, { id: a.id }))?.status).toBe('failed');

    const b = await gelato().placeOrder(account, input([{ variant: v.tee, quantity: 1 }]));
    await gelato().confirm(account, b.id);
    fake.holdNext();
    await fake.tick();
    await fake.tick();
    expect((await gelato().order(account, { id: b.id }))?.status).toBe('on_hold');
  });

  it('reads the older webhook shape ("object": "orderStatus") and item events; ignores what it does not follow', () => {
    const legacy = gelato().readWebhook({
      id: 'os_1',
      object: 'orderStatus',
      orderId: 'g1',
      orderReferenceId: 'r1',
      fulfillmentStatus: 'printed',
    });
    expect(legacy).toEqual({ event: { order: { externalId: 'r1' }, unverified: true }, key: 'os_1' });
    expect(gelato().readWebhook({ id: 'x', event: 'store_product_created' })).toBeNull();
    expect(gelato().readWebhook({ event: 'order_item_status_updated', orderId: 'g2' })?.event.order).toEqual({
      id: 'g2',
    });
  });

  it('sends each webhook up to 3 times (no signature header), in the older shape when asked', async () => {
    const attempts: { url: string; body: string; headers: Record<string, string> }[] = [];
    let failFirst = 2;
    const own = await startFakeGelato({
      apiKeys: { k: 'acct-w' },
      retryDelayMs: 0,
      legacyWebhooks: true,
      fetchFile: async () => true,
      post: async (url, body, headers) => {
        attempts.push({ url, body, headers });
        if (failFirst-- > 0) throw new Error('503');
      },
    });
    try {
      await own.setWebhookUrl('k', 'https://hooks.test/gelato');
      const conn: GelatoConn = {
        client: new GelatoClient({ orderBase: own.url, productBase: own.url, shipmentBase: own.url }),
        apiKey: 'k',
      };
      const uid = 'flat_product_pf_a4_pt_200-gsm-uncoated_cl_4-0_ver';
      await createOrder(conn, {
        orderType: 'order',
        orderReferenceId: 'hook-1',
        customerReferenceId: 'c',
        currency: 'EUR',
        items: [
          {
            itemReferenceId: 'a',
            productUid: uid,
            files: [{ type: 'default', url: 'https://x.test/a.png' }],
            quantity: 1,
          },
        ],
        shippingAddress: {
          firstName: 'A',
          lastName: 'B',
          addressLine1: '1 St',
          city: 'Berlin',
          postCode: '10115',
          country: 'DE',
          email: 'a@b.co',
        },
      });
      await own.tick(); // passed: an order status event, then one per item
      const first = attempts.filter((a) => JSON.parse(a.body).orderReferenceId === 'hook-1');
      // The first delivery failed twice and was taken on the third attempt; the item event went at once.
      expect(first).toHaveLength(4);
      expect(new Set(first.slice(0, 3).map((a) => a.body)).size).toBe(1);
      expect(JSON.parse(first[0]?.body as string)).toMatchObject({
        object: 'orderStatus',
        fulfillmentStatus: 'passed',
      });
      expect(JSON.parse(first[3]?.body as string)).toMatchObject({
        event: 'order_item_status_updated',
        status: 'passed',
      });
      expect(Object.keys(first[0]?.headers ?? {})).toEqual(['content-type']);
    } finally {
      await own.close();
    }
  });

  it('waits out a 429 (Retry-After) and goes on', async () => {
    const slept: number[] = [];
    const client = new GelatoClient({
      orderBase: fake.url,
      productBase: fake.url,
      shipmentBase: fake.url,
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    fake.throttleNext(2);
    const catalogs = await client.request<unknown[]>(KEY, 'product', 'GET', '/v3/catalogs');
    expect(catalogs.length).toBeGreaterThan(0);
    expect(slept).toEqual([1000, 1000]);
  });

  it('the fake is strict where Gelato is: state for US, GB not UK, metadata limit, unique item refs, drafts only for PATCH/DELETE', async () => {
    const conn: GelatoConn = {
      client: new GelatoClient({ orderBase: fake.url, productBase: fake.url, shipmentBase: fake.url }),
      apiKey: KEY,
    };
    const uid = 'apparel_product_gca_t-shirt_gsc_crewneck_gcu_unisex_gqa_classic_gsi_m_gco_white_gpr_4-0';
    const base = {
      orderType: 'draft' as const,
      orderReferenceId: 'strict-1',
      customerReferenceId: 'c',
      currency: 'USD',
      items: [
        {
          itemReferenceId: 'a',
          productUid: uid,
          files: [{ type: 'default', url: 'https://x.test/a.png' }],
          quantity: 1,
        },
      ],
      shippingAddress: {
        firstName: 'A',
        lastName: 'B',
        addressLine1: '1 St',
        city: 'NYC',
        postCode: '10001',
        country: 'US',
        state: 'NY',
        email: 'a@b.co',
      },
    };
    const refused = async (body: object) => {
      const e = await createOrder(conn, body as typeof base).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GelatoError);
      return (e as GelatoError).message;
    };
    expect(await refused({ ...base, shippingAddress: { ...base.shippingAddress, state: undefined } })).toMatch(
      /state is required/,
    );
    expect(await refused({ ...base, shippingAddress: { ...base.shippingAddress, country: 'UK' } })).toMatch(/use GB/);
    expect(await refused({ ...base, shippingAddress: { ...base.shippingAddress, firstName: 'x'.repeat(26) } })).toMatch(
      /at most 25/,
    );
    expect(
      await refused({ ...base, metadata: Array.from({ length: 21 }, (_, i) => ({ key: `k${i}`, value: 'v' })) }),
    ).toMatch(/20/);
    expect(await refused({ ...base, items: [base.items[0], base.items[0]] })).toMatch(/used twice/);
    expect(await refused({ ...base, shippingAddress: { ...base.shippingAddress, email: undefined } })).toMatch(
      /email is required/,
    );

    // PATCH of a draft removes the items left out; a confirmed order can no longer be patched or deleted.
    const two = await createOrder(conn, {
      ...base,
      items: [
        base.items[0] as (typeof base.items)[number],
        { ...(base.items[0] as (typeof base.items)[number]), itemReferenceId: 'b' },
      ],
    });
    const kept = await patchOrder(conn, two.id, { items: [{ id: two.items[0]?.id as string }] });
    expect(kept.items.map((i) => i.itemReferenceId)).toEqual(['a']);
    await patchOrder(conn, two.id, { orderType: 'order', items: [{ id: two.items[0]?.id as string }] });
    const again = await patchOrder(conn, two.id, { orderType: 'order' }).catch((e: unknown) => e);
    expect((again as GelatoError).status).toBe(409);
    const wrongKey = await new GelatoClient({ orderBase: fake.url, productBase: fake.url, shipmentBase: fake.url })
      .request('nope', 'order', 'GET', `/v4/orders/${two.id}`)
      .catch((e: unknown) => e);
    expect(wrongKey).toMatchObject({ status: 401, code: 'invalid_api_key_provided' });
  });
});

describe('Gelato catalogue and money', () => {
  it('lists the live catalogue in our shape (products of sizes and colours, base costs, print areas); not connected: 400', async () => {
    const { client } = await connected();
    const page = (await client.get('/api/gelato/products')).json();
    expect(page.source).toBe('gelato');
    expect(page.items.map((p: { type: string }) => p.type).sort()).toEqual(['poster', 'tshirt']);
    const tee = page.items.find((p: { type: string }) => p.type === 'tshirt');
    expect(tee.sizes).toEqual(['S', 'M', 'L', 'XL']);
    expect(tee.colors.map((c: { name: string }) => c.name)).toEqual(['white', 'black']);
    // Gelato's own price for one, in the US, in USD (the fake's 9.50 EUR at its rate).
    expect(tee.variants.find((v: { name: string }) => v.name === 'white / S').price).toBe('10.26');
    expect(tee.printAreas[0]).toMatchObject({ placement: 'front', widthPx: 3600, heightPx: 4800, dpi: 300 });
    const detail = await client.get(`/api/gelato/products/${tee.id}`);
    expect(detail.statusCode).toBe(200);
    expect((await t.client().get('/api/gelato/products')).statusCode).toBe(400);
  });

  it("a store currency Gelato does not bill in is asked in USD: the cost is Gelato's, shown apart (never converted here)", async () => {
    const { account } = await connected();
    const v = await variants(account);
    const placed = await gelato().placeOrder(account, { ...input([{ variant: v.tee, quantity: 1 }]), currency: 'HUF' });
    expect(placed.cost?.currency).toBe('USD');
    const eur = await gelato().placeOrder(account, {
      ...input([{ variant: v.tee, quantity: 1 }], 'US'),
      currency: 'EUR',
    });
    expect(eur.cost?.currency).toBe('EUR');
  });
});

describe('Gelato connection and the built-in sandbox', () => {
  it('keeps the key encrypted, shows status, disconnects; another workspace sees nothing', async () => {
    const { client } = await connected();
    const ws = await client.workspaceId(t.deps.db);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws));
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(row?.accessTokenEnc).not.toContain(KEY);
    expect((await client.get('/api/gelato/status')).json()).toMatchObject({
      connected: true,
      sandbox: false,
      email: 'seller@example.com',
    });
    expect((await t.client().get('/api/gelato/status')).json()).toMatchObject({ connected: false });
    // The webhook URL the seller enters in Gelato's dashboard is the one printer route; it takes Gelato's unsigned
    // deliveries for this configuration, under Gelato's name only.
    const hook = randomUUID();
    await t.deps.db
      .insert(fulfillmentWebhooks)
      .values({ id: hook, workspaceId: ws, provider: 'gelato', secretEnc: t.deps.cipher.encrypt('unsigned') });
    const { webhookUrl } = (await client.get('/api/gelato/status')).json<{ webhookUrl: string }>();
    expect(webhookUrl).toBe(`${APP}/api/webhooks/printers/gelato/${hook}`);
    const deliver = (url: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: { event: 'x' } });
    expect((await deliver(webhookUrl.slice(APP.length))).statusCode).toBe(200);
    expect((await deliver(`/api/webhooks/printers/printify/${hook}`)).statusCode).toBe(401);
    expect((await client.post('/api/gelato/disconnect', {})).json()).toMatchObject({ connected: false });
    expect(await gelato().account(ws)).toBeNull();
    const bad = await client.post('/api/gelato/connect', { mode: 'live', apiKey: KEY, email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/email/);
  });

  it('the sandbox keeps its orders in the database (address sealed) and lists them with shipments', async () => {
    const { client, account } = await connected('sandbox');
    const sandbox = t.deps.printers.get('gelato-sandbox') as FulfilmentProvider;
    const v = await variants(account);
    const placed = await sandbox.placeOrder(account, input([{ variant: v.tee, quantity: 1 }]));
    await sandbox.confirm(account, placed.id);
    for (let i = 0; i < 4; i++) await t.deps.gelatoSandbox.tick();
    const { orders } = (await client.get('/api/gelato/sandbox/orders')).json<{ orders: TGelatoSandboxOrder[] }>();
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ id: placed.id, externalId: placed.externalId, status: 'shipped' });
    expect(orders[0]?.shipments[0]?.trackingNumber).toMatch(/^GT/);
    const [row] = await t.deps.db.select().from(gelatoSandboxOrders).where(eq(gelatoSandboxOrders.id, placed.id));
    expect(JSON.stringify(row?.body)).not.toContain('Portland');
    expect((await t.client().get('/api/gelato/sandbox/orders')).json()).toEqual({ orders: [] });
  });
});
