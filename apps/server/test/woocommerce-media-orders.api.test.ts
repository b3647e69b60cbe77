import type { TIntegration, TOrder, TOrderPage, TOrderStatus, TPrintfulSandboxOrder } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, orders as ordersTable, webhookEvents } from '../src/db/schema';
import { type FakeWoo, startFakeWooCommerce, wooSignature } from '../src/integrations/woocommerce/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { printerExternalId } from '../src/modules/orders/fulfilment';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { pollPrinterOrders } from '../src/modules/orders/printer-poll';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { solidPng } from './fixtures/designs';
import { twoColourTee as makeTee, waitFor as waitUntil } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * WooCommerce beyond the basics: pictures uploaded to the store's WordPress media library (an application password
 * given at connect) when this app's URLs are not public, and paid WooCommerce orders of Podforge products going
 * through the same order pipeline as Shopify's (printer order, shipment, tracking back to the store).
 *
 * APP_URL is http (not public https): a real store cannot download pictures from it. The app listens on loopback
 * so the sandbox store can deliver its webhooks; the Printful sandbox takes the print files through the app.
 */

const APP = 'http://podforge.test';
const PUBLIC_APP = 'https://podforge.example';
const HOST = 'media-shop.example.com';
const KEYS = { key: `ck_${'d'.repeat(40)}`, secret: `cs_${'e'.repeat(40)}` };
const MANAGER = { username: 'shopmanager', appPassword: 'abcd EFGH 1234 ijkl MNOP 5678' };
const CUSTOMER = { username: 'customer1', appPassword: 'zzzz yyyy xxxx wwww vvvv uuuu' };
const SLOW = 180_000;

let t: TestApp;
let real: FakeWoo;
let sandbox: FakeWoo;

beforeAll(async () => {
  real = await startFakeWooCommerce({
    stores: [
      {
        host: HOST,
        name: 'Media Shop',
        consumerKey: KEYS.key,
        consumerSecret: KEYS.secret,
        users: [MANAGER, { ...CUSTOMER, uploadFiles: false }],
      },
    ],
    // A store downloading from the public APP_URL (one test sets it) reaches this app through inject.
    fetchImage: async (src) => {
      if (!src.startsWith(PUBLIC_APP)) return null;
      const res = await t.app.inject({ method: 'GET', url: src.slice(PUBLIC_APP.length) });
      return res.statusCode === 200 ? res.rawPayload : null;
    },
  });
  t = await createTestApp({
    env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0', WOOCOMMERCE_STORE_BASE_URL: `${real.url}/{host}` },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  await startWorkers(t.deps, [...ORDER_JOBS, printfulSandboxTickJob], { pollingIntervalSeconds: 0.5 });
  sandbox = await t.deps.woocommerce.sandboxServer();
}, SLOW);
afterAll(async () => {
  await t?.close();
  await real?.close();
});

const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, 120_000);

const connectReal = (client: TestClient, wp?: { username: string; appPassword: string }) =>
  client.post('/api/woocommerce/connect', {
    storeUrl: `https://${HOST}`,
    consumerKey: KEYS.key,
    consumerSecret: KEYS.secret,
    ...(wp ? { wpUsername: wp.username, wpAppPassword: wp.appPassword } : {}),
  });

async function connectSandbox(client: TestClient): Promise<TIntegration> {
  const res = await client.post('/api/woocommerce/connect', { sandbox: true });
  expect(res.statusCode, res.body).toBe(201);
  const store = (await client.get('/api/integrations'))
    .json<TIntegration[]>()
    .find((i) => i.id === res.json().integrationId);
  if (!store) throw new Error('not listed');
  return store;
}

/** A ready tee in two colours (one picture each), every size. */
const twoColourTee = (client: TestClient, title: string) =>
  makeTee(t, client, { title, tags: ['sunset'], color: { r: 30, g: 90, b: 200 } });

const remoteProduct = (fake: FakeWoo, host: string, id: string) => fake.products(host).find((p) => String(p.id) === id);

describe('WooCommerce pictures in the store’s media library', () => {
  it('connect proves the application password first: a wrong one, or a user who may not upload, saves nothing', async () => {
    const client = t.client();
    const hooksBefore = real.webhooks(HOST).length;
    const wrong = await connectReal(client, {
      username: MANAGER.username,
      appPassword: 'aaaa bbbb cccc dddd eeee ffff',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toContain('wpAppPassword: WordPress refused this username and application password');
    expect(wrong.json().error).toContain('invalid application password');
    const nobody = await connectReal(client, { username: 'nobody', appPassword: MANAGER.appPassword });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().error).toContain('Unknown username');
    const cannot = await connectReal(client, CUSTOMER);
    expect(cannot.statusCode).toBe(400);
    expect(cannot.json().error).toContain('may not upload files');
    const half = await client.post('/api/woocommerce/connect', {
      storeUrl: `https://${HOST}`,
      consumerKey: KEYS.key,
      consumerSecret: KEYS.secret,
      wpUsername: MANAGER.username,
    });
    expect(half.statusCode).toBe(400);
    expect(half.json().error).toContain('wpAppPassword');
    const ws = await client.workspaceId(t.deps.db);
    expect(await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws))).toHaveLength(0);
    expect(real.webhooks(HOST)).toHaveLength(hooksBefore);

    const ok = await connectReal(client, MANAGER);
    expect(ok.statusCode, ok.body).toBe(201);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, ok.json().integrationId));
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('EFGH');
    // order.created and order.updated, signed with our secret.
    expect(
      real
        .webhooks(HOST)
        .slice(-2)
        .map((h) => h.topic),
    ).toEqual(['order.created', 'order.updated']);
    // Connected again: the first webhooks (signing with the old secret) are deleted.
    expect((await connectReal(client, MANAGER)).statusCode).toBe(201);
    const ours = real.webhooks(HOST).filter((h) => h.delivery_url.endsWith(`/${ok.json().integrationId}`));
    expect(ours.map((h) => h.topic)).toEqual(['order.created', 'order.updated']);
  });

  it(
    'a push on a non-public APP_URL uploads each picture to media and sends ids; a retry uploads nothing again',
    async () => {
      const client = t.client();
      const before = real.media(HOST).length;
      const store = (await connectReal(client, MANAGER)).json<{ integrationId: string }>().integrationId;
      const product = await twoColourTee(client, 'Media Tee');
      const res = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store });
      expect(res.statusCode, res.body).toBe(200);
      const uploaded = real.media(HOST).slice(before);
      expect(uploaded).toHaveLength(2);
      expect(uploaded.every((m) => m.mime_type === 'image/png' && m.media_type === 'image')).toBe(true);
      const remote = structuredClone(remoteProduct(real, HOST, res.json().remoteProductId));
      const ids = remote?.images.map((i) => i.id) ?? [];
      // The product's pictures are those attachments (nothing was downloaded by URL), the main (navy) one first.
      expect([...ids].sort()).toEqual(uploaded.map((m) => m.id).sort());
      expect(remote?.images.map((i) => i.src)).toEqual(
        remote?.images.map((i) => uploaded.find((m) => m.id === i.id)?.source_url),
      );
      const navy = remote?.variations.find((v) => v.attributes[0]?.option === 'Navy');
      expect(navy?.image?.id).toBe(remote?.images[0]?.id);

      // Update in store: the remembered ids go again, nothing is uploaded twice.
      const again = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store });
      expect(again.statusCode, again.body).toBe(200);
      expect(real.media(HOST).length).toBe(before + 2);
      expect(remoteProduct(real, HOST, res.json().remoteProductId)?.images.map((i) => i.id)).toEqual(ids);

      // A picture deleted from the media library is uploaded again, once.
      real.deleteMedia(HOST, ids[1] as number);
      const third = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store });
      expect(third.statusCode, third.body).toBe(200);
      expect(real.media(HOST).length).toBe(before + 2);
      const now = remoteProduct(real, HOST, res.json().remoteProductId);
      expect(now?.images[0]?.id).toBe(ids[0]);
      expect(now?.images[1]?.id).not.toBe(ids[1]);
      expect(real.media(HOST).some((m) => m.id === now?.images[1]?.id)).toBe(true);
    },
    SLOW,
  );

  it(
    'neither public URLs nor an application password: refused before anything is sent, naming both ways out',
    async () => {
      const client = t.client();
      const store = (await connectReal(client)).json<{ integrationId: string }>().integrationId;
      const product = await twoColourTee(client, 'Nowhere Tee');
      const before = real.calls.length;
      const res = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toContain('not public https (APP_URL)');
      expect(res.json().error).toContain('WordPress username and application password');
      expect(real.calls.length).toBe(before);
    },
    SLOW,
  );

  it(
    'with a public https APP_URL and no application password, pictures still go by URL (and their ids are kept)',
    async () => {
      const client = t.client();
      const store = (await connectReal(client)).json<{ integrationId: string }>().integrationId;
      const product = await twoColourTee(client, 'Public Tee');
      t.deps.config.appUrl = PUBLIC_APP;
      try {
        const res = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store });
        expect(res.statusCode, res.body).toBe(200);
        const ids = remoteProduct(real, HOST, res.json().remoteProductId)?.images.map((i) => i.id);
        expect(ids).toHaveLength(2);
        const count = real.media(HOST).length;
        // The store's attachments are reused on update instead of downloading the pictures again.
        const again = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store });
        expect(again.statusCode, again.body).toBe(200);
        expect(real.media(HOST).length).toBe(count);
        expect(remoteProduct(real, HOST, res.json().remoteProductId)?.images.map((i) => i.id)).toEqual(ids);
      } finally {
        t.deps.config.appUrl = APP;
      }
    },
    SLOW,
  );

  it('the media endpoint is WordPress’s: application passwords only, a named raw file or multipart, images only', async () => {
    const url = `${real.baseFor(`https://${HOST}`)}/wp-json/wp/v2/media`;
    const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    const png = await solidPng(20, 20, { r: 1, g: 2, b: 3 });
    const post = (headers: Record<string, string>, body: BodyInit) => fetch(url, { method: 'POST', headers, body });
    const manager = basic(MANAGER.username, MANAGER.appPassword.replace(/ /g, ''));

    const keys = await post(
      {
        Authorization: basic(KEYS.key, KEYS.secret),
        'Content-Type': 'image/png',
        'Content-Disposition': 'attachment; filename="a.png"',
      },
      new Uint8Array(png),
    );
    expect(keys.status).toBe(401);
    expect((await keys.json()).code).toBe('invalid_username');
    const anonymous = await post(
      { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="a.png"' },
      new Uint8Array(png),
    );
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).code).toBe('rest_cannot_create');
    const unnamed = await post({ Authorization: manager, 'Content-Type': 'image/png' }, new Uint8Array(png));
    expect(unnamed.status).toBe(400);
    expect((await unnamed.json()).code).toBe('rest_upload_no_content_disposition');
    const svg = await post(
      {
        Authorization: manager,
        'Content-Type': 'image/svg+xml',
        'Content-Disposition': 'attachment; filename="a.svg"',
      },
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    expect((await svg.json()).code).toBe('rest_upload_sideload_error');

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'form.png');
    const multipart = await fetch(url, { method: 'POST', headers: { Authorization: manager }, body: form });
    expect(multipart.status).toBe(201);
    const media = await multipart.json();
    expect(media).toMatchObject({ media_type: 'image', mime_type: 'image/png' });
    expect((await fetch(media.source_url)).headers.get('content-type')).toBe('image/png');

    // A product may name only an image attachment of the store.
    const product = await fetch(`${real.baseFor(`https://${HOST}`)}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: { Authorization: basic(KEYS.key, KEYS.secret), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Bad picture', images: [{ id: 987654 }] }),
    });
    expect(product.status).toBe(400);
    expect((await product.json()).code).toBe('woocommerce_product_invalid_image_id');
  });
});

type Seller = { client: TestClient; storeId: string; host: string; product: Awaited<ReturnType<typeof twoColourTee>> };

/** A workspace with the sandbox store connected, a tee pushed to it, and the given confirmation setting. */
async function seller(confirmation: 'automatic' | 'manual' = 'automatic'): Promise<Seller> {
  const client = t.client();
  const store = await connectSandbox(client);
  const product = await twoColourTee(client, 'Order Tee');
  const pushed = await client.post(`/api/upload/woocommerce/${product.id}`, { integrationId: store.id });
  expect(pushed.statusCode, pushed.body).toBe(200);
  const set = await client.patch('/api/settings', { orderConfirmation: { mode: confirmation, delayMinutes: 60 } });
  expect(set.statusCode, set.body).toBe(200);
  const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
  return { client, storeId: store.id, host: new URL(row?.externalId as string).host, product };
}

const listOrders = async (s: Seller) => (await s.client.get('/api/orders')).json<TOrderPage>().items;
const printerOrders = async (s: Seller) =>
  (await s.client.get('/api/printful/sandbox/orders')).json<TPrintfulSandboxOrder[]>();
const orderIn = (s: Seller, status: TOrderStatus[]) =>
  waitFor(
    async () => {
      // Printful sends no event for a delivery: it is read by the printer poll (modules/orders/printer-poll.ts).
      if (status.includes('delivered')) await pollPrinterOrders(t.deps);
      return (await listOrders(s))[0] as TOrder;
    },
    (o) => Boolean(o && status.includes(o.status)),
  );

describe('WooCommerce orders go through the order pipeline', () => {
  it(
    'a paid order.created becomes one Printful order; the shipment goes back as a note and the order is completed',
    async () => {
      const s = await seller();
      const [a, b] = s.product.variants;
      const placed = await sandbox.placeOrder(s.host, {
        lineItems: [
          { sku: a?.sku as string, quantity: 2 },
          { sku: b?.sku as string, quantity: 1 },
          { sku: 'GIFT-WRAP', quantity: 1, price: '3.00', name: 'Gift wrap' },
        ],
      });
      expect(placed.deliveries.map((d) => d.status)).toEqual([200]);

      const order = await orderIn(s, ['delivered']);
      expect(order).toMatchObject({
        externalId: String(placed.orderId),
        fulfillmentProvider: 'sandbox',
        carrier: 'USPS',
      });
      expect(order.revenue).toBe((2 * (a?.price ?? 0) + (b?.price ?? 0) + 3).toFixed(2));
      expect(order.lines.map((l) => [l.sku, l.quantity, l.fromPodforge])).toEqual([
        [a?.sku, 2, true],
        [b?.sku, 1, true],
        ['GIFT-WRAP', 1, false],
      ]);

      // One printer order: our two lines only, with the catalogue variants and the print file.
      const [pf, ...others] = await printerOrders(s);
      expect(others).toEqual([]);
      // Under our order's id, not the store's number (order 1 of another store on the same Printful store; #27.7).
      expect(pf).toMatchObject({ externalId: printerExternalId(order.id) });
      expect(pf?.items.map((i) => [i.quantity, i.retailPrice])).toEqual([
        [2, (a?.price ?? 0).toFixed(2)],
        [1, (b?.price ?? 0).toFixed(2)],
      ]);
      expect(pf?.items.every((i) => Number.isInteger(i.catalogVariantId) && i.files.length > 0)).toBe(true);

      // Back in the store: a customer note with the tracking, and the order completed.
      const remote = await waitFor(
        async () => sandbox.orders(s.host).find((o) => o.id === placed.orderId),
        (o) => o?.status === 'completed',
      );
      expect(remote?.notes).toHaveLength(1);
      expect(remote?.notes?.[0]).toMatchObject({ customer_note: true });
      expect(remote?.notes?.[0]?.note).toContain(order.trackingNumber as string);
      expect(remote?.notes?.[0]?.note).toContain('USPS');

      // The address is ciphertext at rest.
      const row = await waitFor(
        async () => (await t.deps.db.select().from(ordersTable).where(eq(ordersTable.id, order.id)))[0],
        (r) => Boolean(r?.storeFulfillmentId),
      );
      expect(row?.shippingAddressEnc).toMatch(/^v1\./);
      expect(row?.shippingAddressEnc).not.toContain('Dearborn');
      expect(row?.storeFulfillmentId).toMatch(/^note:\d+$/);
    },
    SLOW,
  );

  it(
    'the same delivery twice and a later order.updated make no second printer order',
    async () => {
      const s = await seller();
      sandbox.duplicateNextDelivery();
      const placed = await sandbox.placeOrder(s.host, {
        lineItems: [{ sku: s.product.variants[0]?.sku as string, quantity: 1 }],
      });
      expect(placed.deliveries).toHaveLength(2);
      expect(placed.deliveries[0]?.deliveryId).toBe(placed.deliveries[1]?.deliveryId);
      expect(placed.deliveries.map((d) => d.status)).toEqual([200, 200]);
      await sandbox.setOrderStatus(s.host, placed.orderId, 'processing');
      await orderIn(s, ['shipped', 'delivered']);
      expect(await listOrders(s)).toHaveLength(1);
      expect(await printerOrders(s)).toHaveLength(1);
      const seen = await t.deps.db
        .select()
        .from(webhookEvents)
        .where(
          and(
            eq(webhookEvents.source, 'woocommerce'),
            eq(webhookEvents.eventId, `${s.storeId}:${placed.deliveries[0]?.deliveryId}`),
          ),
        );
      expect(seen).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'an unpaid order waits for payment; cancelled in the store, the printer’s draft is deleted',
    async () => {
      const s = await seller('manual');
      const placed = await sandbox.placeOrder(s.host, {
        lineItems: [{ sku: s.product.variants[0]?.sku as string, quantity: 1 }],
        status: 'pending',
      });
      expect(placed.deliveries.map((d) => d.status)).toEqual([200]);
      expect(await listOrders(s)).toEqual([]);
      await sandbox.setOrderStatus(s.host, placed.orderId, 'processing');
      await orderIn(s, ['waiting_approval']);
      expect((await printerOrders(s))[0]?.status).toBe('draft');
      await sandbox.setOrderStatus(s.host, placed.orderId, 'cancelled');
      await orderIn(s, ['cancelled']);
      expect(await printerOrders(s)).toEqual([]);
    },
    SLOW,
  );

  it(
    'Place a test order (sandbox page) sends order.created the same way; unknown SKUs and other workspaces are refused',
    async () => {
      const s = await seller();
      const sku = s.product.variants[0]?.sku as string;
      const bad = await s.client.post('/api/woocommerce/sandbox/orders', {
        integrationId: s.storeId,
        lines: [{ sku: 'NOPE', quantity: 1 }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toContain('NOPE');
      const foreign = await t.client().post('/api/woocommerce/sandbox/orders', {
        integrationId: s.storeId,
        lines: [{ sku, quantity: 1 }],
      });
      expect(foreign.statusCode).toBe(404);
      const res = await s.client.post('/api/woocommerce/sandbox/orders', {
        integrationId: s.storeId,
        lines: [{ sku, quantity: 3 }],
        address: { name: 'Grace Hopper', address1: '1 Navy Way', city: 'Arlington', countryCode: 'US', zip: '22202' },
      });
      expect(res.statusCode, res.body).toBe(201);
      const order = await orderIn(s, ['received', 'sent', 'in_production', 'shipped', 'delivered']);
      expect(order).toMatchObject({ externalId: res.json().remoteOrderId, name: res.json().name });
      expect(order.lines.map((l) => [l.sku, l.quantity, l.fromPodforge])).toEqual([[sku, 3, true]]);
    },
    SLOW,
  );

  it('a delivery with a bad signature is refused and changes nothing', async () => {
    const client = t.client();
    const store = await connectSandbox(client);
    const body = JSON.stringify({ id: 4242, status: 'processing', total: '10.00', line_items: [] });
    const forged = await t.app.inject({
      method: 'POST',
      url: `/api/webhooks/woocommerce/${store.id}`,
      headers: {
        'content-type': 'application/json',
        'x-wc-webhook-topic': 'order.created',
        'x-wc-webhook-delivery-id': 'd-1',
        'x-wc-webhook-signature': wooSignature(body, 'not-the-secret'),
      },
      payload: body,
    });
    expect(forged.statusCode).toBe(401);
    expect(await t.deps.db.select().from(ordersTable).where(eq(ordersTable.integrationId, store.id))).toEqual([]);
  });
});
