import type {
  TFulfilmentProviders,
  TOrder,
  TOrderPage,
  TProductDetail,
  TProviderProduct,
  TProviderProducts,
} from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, printifySandboxRecords } from '../src/db/schema';
import { type FakePrintify, startFakePrintify } from '../src/integrations/printify/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { printifySandboxTickJob } from '../src/modules/printify/printify-sandbox.jobs';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { connectShopifySandbox, teeDesign, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Printify beside Printful (#29): the printers list with each network's connection and sandbox state, Printify
 * connected by personal access token (to the fake Printify) or its built-in sandbox, every printer's catalogue in
 * one shape, a product made for Printify (its costs, its print files at Printify's placeholder size), and a sale in
 * the Shopify sandbox printed by the Printify sandbox exactly once, shipped with tracking.
 */

const APP = 'http://podforge.test';
let t: TestApp;
let fake: FakePrintify;

beforeAll(async () => {
  fake = await startFakePrintify({ delays: { production: 0, ship: 0, deliver: 0 }, fetchFile: async () => true });
  t = await createTestApp({
    env: { APP_URL: APP, PRINTIFY_API_BASE: fake.url, PRINTIFY_SANDBOX_SHIP_SECONDS: '0' },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const providers = async (client: TestClient) =>
  (await client.get('/api/fulfillment/providers')).json<TFulfilmentProviders>().providers;

describe('GET /api/fulfillment/providers', () => {
  it('lists printful, printify and gelato with connection and sandbox state', async () => {
    const client = t.client();
    const list = await providers(client);
    expect(list.map((p) => p.id)).toEqual(['printful', 'printify', 'gelato']);
    expect(list[0]).toMatchObject({ name: 'Printful', available: true, connected: false, sandbox: true });
    expect(list[1]).toMatchObject({ name: 'Printify', available: true, connected: false, sandbox: false });
    expect(list[2]).toMatchObject({ name: 'Gelato', available: true, connected: false, sandbox: false });
    // Another workspace on the Gelato sandbox: listed as such.
    const other = t.client();
    const gelato = await other.post('/api/gelato/connect', { mode: 'sandbox', email: 'me@example.com' });
    expect(gelato.json()).toMatchObject({ connected: true, sandbox: true });
    expect((await providers(other))[2]).toMatchObject({ available: true, connected: false, sandbox: true });

    const sandbox = await client.post('/api/printify/sandbox', {});
    expect(sandbox.json()).toMatchObject({ connected: true, sandbox: true, shopName: 'Printify Sandbox' });
    expect((await providers(client))[1]).toMatchObject({
      connected: false,
      sandbox: true,
      accountName: 'Printify Sandbox',
    });

    const { token } = fake.issueToken({ shops: [{ id: '8801', title: 'Ada Prints' }] });
    const connected = await client.post('/api/printify/connect', { token, currency: 'EUR' });
    expect(connected.statusCode, connected.body).toBe(200);
    expect(connected.json()).toMatchObject({
      connected: true,
      sandbox: false,
      shopName: 'Ada Prints',
      currency: 'EUR',
    });
    expect((await providers(client))[1]).toMatchObject({ connected: true, sandbox: false, accountName: 'Ada Prints' });
    // The token is kept encrypted, never in the clear.
    const ws = await client.workspaceId(t.deps.db);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws));
    expect(row?.accessTokenEnc).not.toContain(token);
    expect(JSON.stringify((await client.get('/api/integrations')).json())).not.toContain(token);

    // Another workspace sees none of it.
    expect((await providers(t.client()))[1]).toMatchObject({ connected: false, sandbox: false });

    await client.post('/api/printify/disconnect', {});
    expect((await providers(client))[1]).toMatchObject({ connected: false, sandbox: false, accountName: null });
  });

  it('refuses a token Printify does not accept, naming the problem; several shops wait for a choice', async () => {
    const client = t.client();
    const bad = await client.post('/api/printify/connect', { token: 'pfy_not-a-real-token-at-all' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/did not accept this token/);
    const short = await client.post('/api/printify/connect', { token: 'x' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatch(/token/);
    const noShops = fake.issueToken({ scopes: ['catalog.read'] });
    const scoped = await client.post('/api/printify/connect', { token: noShops.token });
    expect(scoped.json().error).toMatch(/shops\.read/);

    const { token } = fake.issueToken({
      shops: [
        { id: '9901', title: 'First Shop' },
        { id: '9902', title: 'Second Shop' },
      ],
    });
    const pending = await client.post('/api/printify/connect', { token });
    expect(pending.json()).toMatchObject({
      connected: false,
      shops: [
        { id: '9901', title: 'First Shop' },
        { id: '9902', title: 'Second Shop' },
      ],
    });
    expect((await client.post('/api/printify/shop', { shopId: '1234' })).statusCode).toBe(400);
    const chosen = await client.post('/api/printify/shop', { shopId: '9902' });
    expect(chosen.json()).toMatchObject({ connected: true, shopName: 'Second Shop' });
  });
});

describe('GET /api/providers/:provider/products', () => {
  it("answers any printer's catalogue in one shape: variants with base costs, placements with pixel size and DPI", async () => {
    const client = t.client();
    const list = (await client.get('/api/providers/printify/products?search=tee')).json<TProviderProducts>();
    expect(list).toMatchObject({ provider: 'printify', source: 'printify-sandbox' });
    expect(list.products.map((p) => p.id)).toEqual(['6']);
    const tee = (await client.get('/api/providers/printify/products/6')).json<TProviderProduct>();
    expect(tee).toMatchObject({ id: '6', provider: 'printify', type: 'tshirt', brand: 'Gildan', model: '5000' });
    expect(tee.variants[0]).toEqual({
      id: '17390',
      color: 'Heather Grey',
      colorHex: '#b4b4b4',
      size: 'XS',
      baseCost: '8.90',
    });
    expect(tee.placements).toEqual([
      { placement: 'front', widthPx: 3153, heightPx: 3995, dpi: 300 },
      { placement: 'back', widthPx: 3153, heightPx: 3995, dpi: 300 },
    ]);

    const printful = (await client.get('/api/providers/printful/products?search=mug')).json<TProviderProducts>();
    expect(printful.products.length).toBeGreaterThan(0);
    const mug = (
      await client.get(`/api/providers/printful/products/${printful.products[0]?.id}`)
    ).json<TProviderProduct>();
    expect(mug.variants[0]?.baseCost).toMatch(/^\d+\.\d{2}$/);
    expect(mug.placements[0]?.dpi).toBeGreaterThan(0);

    // The same product in the catalogue detail shape the create flows read (base costs as numbers).
    const detail = (await client.get('/api/providers/printify/catalog/6')).json();
    expect(detail).toMatchObject({ id: 6, currency: 'USD' });
    expect(detail.variants[0]).toMatchObject({ id: 17390, color: 'Heather Grey', size: 'XS', baseCost: 8.9 });

    expect((await client.get('/api/providers/printify/products/999')).statusCode).toBe(404);
    expect((await client.get('/api/providers/acme/products')).statusCode).toBe(400);
    const gelato = await client.get('/api/providers/gelato/products');
    // Gelato's catalogue is read with the account's key: none until it (or its sandbox) is connected.
    expect(gelato.statusCode).toBe(400);
    expect(gelato.json().error).toBe('Gelato is not connected');
  });
});

/** A workspace with the Shopify sandbox shop and a Printify tee (two variants) pushed to it. */
async function printifySeller(typed: string) {
  const client = t.client();
  const storeId = await connectShopifySandbox(client, typed);
  const { designId, mockup } = await teeDesign(t, client, { r: 30, g: 90, b: 200 }, 80);
  const body = {
    title: 'Ocean Tee',
    description: 'Waves.',
    price: 22,
    productType: 'tshirt',
    provider: 'printify',
    catalogProductId: 6,
    variants: [
      { catalogVariantId: 17391, price: 22 },
      { catalogVariantId: 17392, price: 22 },
    ],
    designId,
    mockupId: await mockup(),
    status: 'ready',
  };
  return { client, storeId, body };
}

describe('a product made for Printify', () => {
  it('records its provider, takes Printify variants at their costs, and its print files follow Printify’s placeholder', async () => {
    const { client, body } = await printifySeller('pfy-product.myshopify.com');
    const below = await client.post('/api/products', {
      ...body,
      variants: [{ catalogVariantId: 17391, price: 5 }],
    });
    expect(below.statusCode).toBe(400);
    expect(below.json().error).toMatch(/17391|base cost|below/i);
    const foreign = await client.post('/api/products', { ...body, variants: [{ catalogVariantId: 4012, price: 30 }] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toMatch(/4012 is not a variant/);
    const noProduct = await client.post('/api/products', { ...body, catalogProductId: undefined });
    expect(noProduct.statusCode).toBe(400);
    expect(noProduct.json().error).toMatch(/catalogProductId: choose the Printify product/);

    const created = await client.post('/api/products', body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ provider: 'printify', catalogProductId: 6 });
    const detail = (await client.get(`/api/products/${created.json().id}`)).json<TProductDetail>();
    expect(detail.variants.map((v) => [v.catalogVariantId, v.size, v.baseCost])).toEqual([
      [17391, 'S', 8.9],
      [17392, 'M', 8.9],
    ]);
    expect(detail.printFiles.map((f) => [f.placement, f.width, f.height, f.dpi])).toEqual([['front', 3153, 3995, 300]]);
  });
});

describe('a sale of a Printify product', () => {
  it('reaches the Printify sandbox exactly once, is sent to production and comes back shipped with tracking', async () => {
    await startWorkers(t.deps, [...ORDER_JOBS, printifySandboxTickJob, shopifyWebhookJob], {
      pollingIntervalSeconds: 0.5,
    });
    const { client, storeId, body } = await printifySeller('pfy-sale.myshopify.com');
    const created = await client.post('/api/products', body);
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json().id as string;
    const pushed = await client.post(`/api/upload/shopify/${productId}`, {});
    expect(pushed.statusCode, pushed.body).toBe(200);
    const skus = (await client.get(`/api/products/${productId}`)).json<TProductDetail>().variants.map((v) => v.sku);
    expect((await client.post('/api/printify/sandbox', {})).statusCode).toBe(200);
    const set = await client.patch('/api/settings', { orderConfirmation: { mode: 'manual', delayMinutes: 60 } });
    expect(set.statusCode, set.body).toBe(200);

    const placed = await client.post('/api/shopify/sandbox/orders', {
      integrationId: storeId,
      lines: [{ sku: skus[0], quantity: 2 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const latest = async () => (await client.get('/api/orders')).json<TOrderPage>().items[0] as TOrder;
    // Manual approval: the order waits on hold at Printify (its draft: nothing produced or charged) for Approve.
    const waiting = await waitFor(latest, (o) => o?.status === 'waiting_approval', 40_000);
    expect(waiting).toMatchObject({ fulfillmentProvider: 'printify-sandbox', cost: '24.95', costCurrency: 'USD' });
    const held = (await client.get('/api/printify/sandbox/orders')).json<{ orders: { status: string }[] }>();
    expect(held.orders.map((o) => o.status)).toEqual(['on-hold']);
    expect((await client.post(`/api/orders/${waiting.id}/approve`, {})).statusCode).toBe(202);
    const order = await waitFor(latest, (o) => o?.status === 'delivered', 40_000);
    expect(order).toMatchObject({ fulfillmentProvider: 'printify-sandbox', carrier: 'usps' });
    expect(order.trackingNumber).toMatch(/^9400/);
    expect(order.trackingUrl).toMatch(/^https:\/\//);
    // 2 x 8.90 + shipping 4.75 + 2.40 for the second, in the account's currency.
    expect(order.cost).toBe('24.95');

    const sandbox = (await client.get('/api/printify/sandbox/orders')).json<{
      orders: {
        externalId: string;
        status: string;
        shipments: unknown[];
        lines: { variantId: number; quantity: number }[];
      }[];
    }>();
    expect(sandbox.orders).toHaveLength(1);
    expect(sandbox.orders[0]).toMatchObject({
      externalId: order.id.replace(/-/g, ''),
      status: 'fulfilled',
      lines: [{ variantId: 17391, quantity: 2 }],
    });
    expect(sandbox.orders[0]?.shipments).toHaveLength(1);
    // The buyer's address is sealed at rest in the sandbox too.
    const ws = await client.workspaceId(t.deps.db);
    const rows = await t.deps.db.select().from(printifySandboxRecords).where(eq(printifySandboxRecords.shopId, ws));
    const stored = JSON.stringify(rows.filter((r) => r.kind === 'order').map((r) => r.body));
    expect(stored).toContain('address_enc');
    expect(stored).not.toContain('address_to');
    // Another workspace sees none of the sandbox's orders.
    expect((await t.client().get('/api/printify/sandbox/orders')).json()).toEqual({ orders: [] });
  }, 120_000);
});
