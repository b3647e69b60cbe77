import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  TAmazonProductListings,
  TAmazonSandboxListings,
  TAmazonSandboxOrders,
  TAmazonSettings,
  TIntegration,
  TOrder,
  TOrderPage,
} from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { integrations, orders as ordersTable } from '../src/db/schema';
import { AmazonClient, AmazonError } from '../src/integrations/amazon/client';
import { type FakeAmazon, startFakeAmazon } from '../src/integrations/amazon/fake-server';
import { startWorker, startWorkers } from '../src/jobs/workers';
import { AmazonService } from '../src/modules/amazon/amazon.service';
import { amazonOrdersJob } from '../src/modules/amazon/amazon-orders';
import { fulfilInStore } from '../src/modules/orders/fulfilment';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { printfulSandboxTickJob } from '../src/modules/printful/printful-sandbox.jobs';
import { storePushJob } from '../src/modules/products/store-push';
import type { PushProduct } from '../src/modules/stores/store-publisher';
import { connectAmazon } from './fixtures/amazon';
import { twoColourTee as makeTee, waitFor as waitUntil } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Amazon through the built-in sandbox seller (issue #30): Login with Amazon relayed to the fake, the listing settings
 * in plain words, listings built from the product type's schema and checked before sending, variation families,
 * ACCEPTED then processed (issues shown on the product), token refresh, orders read by the job into the printer, and
 * the shipment confirmed back with carrier and tracking. The fake checks every call against Amazon's models.
 */

const APP = 'http://podforge.test';
const SLOW = 180_000;
const US = 'ATVPDKIKX0DER';
const UK = 'A1F83G8C2ARO7P';
let t: TestApp;
let fake: FakeAmazon;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP, PRINTFUL_SANDBOX_SHIP_SECONDS: '0' } });
  // Accepted submissions are processed when the test says so (`processDue`), or a minute on; the app is not listening
  // (inject), so the sandbox does not download pictures from it (one test below serves them).
  t.deps.amazon.sandboxOptions = { processingMs: 60_000, fetchImages: false };
  fake = (await t.deps.amazon.sandboxServer()) as FakeAmazon;
  const client = await t.deps.amazon.getClient();
  t.deps.amazon.client = new AmazonClient({ ...client.options, sleep: async () => {} });
  await startWorker(t.deps, storePushJob);
  await startWorkers(t.deps, [...ORDER_JOBS, printfulSandboxTickJob, amazonOrdersJob], { pollingIntervalSeconds: 0.5 });
}, SLOW);
afterAll(async () => {
  await t?.close();
});

const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, 120_000);

/** start -> the app's sandbox relay -> the fake's consent -> our callback. */
const connect = (client: TestClient, marketplace = US) => connectAmazon(client, APP, marketplace);

const settle = async (client: TestClient, storeId: string, body: Record<string, unknown>) => {
  const res = await client.post(`/api/amazon/${storeId}/settings`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TAmazonSettings>();
};

const tee = (client: TestClient, title: string) =>
  makeTee(t, client, {
    title,
    tags: ['amazon'],
    color: { r: 200, g: 120, b: 20 },
    description: 'Soft cotton. Printed to order.',
  });

const sandboxListings = async (client: TestClient) =>
  (await client.get('/api/amazon/sandbox/listings')).json<TAmazonSandboxListings>();
const storeRow = async (id: string) => (await t.deps.db.select().from(integrations).where(eq(integrations.id, id)))[0];

/** A connected seller whose listings need no brand approval (Generic, GTIN-exempt). */
async function readySeller(client: TestClient): Promise<TIntegration> {
  const store = await connect(client);
  await settle(client, store.id, { brand: 'Generic', gtinExempt: true });
  return store;
}

/** A ready seller with this tee listed and processed by Amazon (buyable): the store, its row and the product. */
async function listedTee(client: TestClient, title: string) {
  const store = await readySeller(client);
  const product = await tee(client, title);
  expect((await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id })).statusCode).toBe(200);
  await fake.processDue(true);
  const row = await storeRow(store.id);
  if (!row) throw new Error('no seller');
  return { store, row, product };
}

/** The buyer's address as the Amazon fake takes it. */
const BUYER_ADDRESS = {
  name: 'Ada Buyer',
  addressLine1: '1 Test Street',
  city: 'Portland',
  postalCode: '97201',
  countryCode: 'US',
};

describe('connecting an Amazon seller', () => {
  it('authorizes with Login with Amazon (version=beta on a draft app), keeps the refresh token encrypted, marketplace chosen', async () => {
    const client = t.client();
    const start = await client.get(`/auth/amazon/start?marketplace=${UK}`);
    const consent = new URL(start.headers.location as string, APP);
    expect(consent.pathname).toBe('/auth/amazon/sandbox/apps/authorize/consent');
    expect(consent.searchParams.get('application_id')).toBe(fake.applicationId);
    expect(consent.searchParams.get('version')).toBe('beta');
    expect(consent.searchParams.get('redirect_uri')).toBe(`${APP}/auth/amazon/callback`);
    const relay = await client.get(consent.pathname + consent.search);
    const callback = new URL(relay.headers.location as string);
    expect(callback.searchParams.get('selling_partner_id')).toMatch(/^A[0-9A-F]{13}$/);
    const done = await client.get(callback.pathname + callback.search);
    expect(done.headers.location).toBe('/integrations?connected=amazon');
    // The code is single use.
    const again = await client.get(callback.pathname + callback.search);
    expect(again.headers.location).toBe('/integrations?amazon_error=invalid_state');

    const store = (await client.get('/api/integrations')).json<TIntegration[]>().find((i) => i.platform === 'amazon');
    const row = await storeRow(store?.id ?? '');
    expect(row).toMatchObject({
      status: 'connected',
      sandbox: true,
      externalId: callback.searchParams.get('selling_partner_id'),
    });
    expect(row?.refreshTokenEnc).toMatch(/^v1\./);
    expect(row?.refreshTokenEnc).not.toContain('Atzr|');
    expect(row?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);

    const settings = (await client.get(`/api/amazon/${store?.id}/settings`)).json<TAmazonSettings>();
    expect(settings).toMatchObject({ marketplaceId: UK, brand: null, gtinExempt: false, handlingDays: 5 });
    expect(settings.missing.join(' ')).toMatch(/brand/);
    expect(settings.missing.join(' ')).toMatch(/GTIN exemption/);
  });

  it('refuses a marketplace Podforge does not sell in, bad settings, and another workspace', async () => {
    const client = t.client();
    const bad = await client.get('/auth/amazon/start?marketplace=A1VC38T7YXB528');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/marketplace/);
    const store = await connect(client);
    for (const body of [{ brand: '' }, { handlingDays: 0 }, { marketplaceId: 'XX' }, { colour: 'red' }]) {
      const res = await client.post(`/api/amazon/${store.id}/settings`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const other = t.client();
    expect((await other.get(`/api/amazon/${store.id}/settings`)).statusCode).toBe(404);
    expect((await other.post(`/api/amazon/${store.id}/settings`, { brand: 'Mine' })).statusCode).toBe(404);
    expect(
      (await other.post('/api/amazon/sandbox/orders', { integrationId: store.id, lines: [{ sku: 'X', quantity: 1 }] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('one sandbox seller per workspace', () => {
  it("another workspace connects a seller of its own and sees none of this one's SKUs or orders", async () => {
    const a = t.client();
    const storeA = await connect(a);
    await settle(a, storeA.id, { brand: 'Generic', gtinExempt: true });
    const product = await tee(a, 'Mine Tee');
    expect((await a.post(`/api/upload/amazon/${product.id}`, { integrationId: storeA.id })).statusCode).toBe(200);
    const b = t.client();
    const storeB = await connect(b);
    expect((await storeRow(storeB.id))?.externalId).not.toBe((await storeRow(storeA.id))?.externalId);
    const seen = (await sandboxListings(b)).sellers.flatMap((s) => s.listings.map((l) => l.sku));
    expect(seen).toEqual([]);
    expect((await sandboxListings(a)).sellers.flatMap((s) => s.listings.map((l) => l.sku))).toContain(
      product.variants[0]?.sku,
    );
    const orders = (await b.get('/api/amazon/sandbox/orders')).json<TAmazonSandboxOrders>();
    expect(orders.orders.every((o) => o.integrationId === storeB.id)).toBe(true);
  });
});

describe('listing on Amazon', () => {
  it('says in plain words what the brand and GTIN exemption settings must be before anything is sent', async () => {
    const client = t.client();
    const store = await connect(client);
    const product = await tee(client, 'Unset Tee');
    const calls = fake.calls.length;
    const res = await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatch(/Amazon needs the brand printed on your products/);
    expect(res.json().error).toMatch(/GTIN exemption for its brand/);
    expect(fake.calls.slice(calls).filter((c) => c.operationId === 'putListingsItem')).toEqual([]);
  });

  it(
    'one parent SKU with the size/colour theme and a child per variant: price, merchant stock, handling time, pictures',
    async () => {
      const client = t.client();
      const store = await connect(client);
      await settle(client, store.id, { brand: 'Generic', gtinExempt: true, handlingDays: 4 });
      const product = await tee(client, 'Family Tee');
      const res = await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id });
      expect(res.statusCode, res.body).toBe(200);
      const parentSku = res.json().remoteProductId as string;
      expect(parentSku).toMatch(/-PARENT$/);

      // Accepted is not listed: Amazon is still processing it.
      const before = (await client.get(`/api/amazon/products/${product.id}/listings`)).json<TAmazonProductListings>();
      expect(before.listings).toEqual([
        expect.objectContaining({ remoteProductId: parentSku, state: 'processing', issues: [] }),
      ]);

      await fake.processDue(true);
      const held = (await sandboxListings(client)).sellers.flatMap((s) => s.listings);
      const parent = held.find((l) => l.sku === parentSku);
      expect(parent).toMatchObject({
        parentage: 'parent',
        parentSku: null,
        productType: 'SHIRT',
        status: ['DISCOVERABLE'],
      });
      expect(parent?.attributes.variation_theme).toEqual([{ name: 'SIZE/COLOR' }]);
      expect(parent?.attributes.purchasable_offer).toBeUndefined();
      const children = held.filter((l) => l.parentSku === parentSku);
      expect(children.map((c) => c.sku).sort()).toEqual(product.variants.map((v) => v.sku).sort());
      for (const child of children) {
        const variant = product.variants.find((v) => v.sku === child.sku);
        expect(child).toMatchObject({
          parentage: 'child',
          productType: 'SHIRT',
          status: ['BUYABLE', 'DISCOVERABLE'],
          issues: [],
        });
        expect(child.attributes.color).toEqual([{ value: variant?.color, language_tag: 'en_US', marketplace_id: US }]);
        expect(child.attributes.shirt_size?.[0]).toMatchObject({ size_system: 'as4', size_class: 'alpha' });
        expect(child.attributes.fulfillment_availability).toEqual([
          { fulfillment_channel_code: 'DEFAULT', quantity: 999, lead_time_to_ship_max_days: 4 },
        ]);
        expect(child.attributes.purchasable_offer?.[0]).toMatchObject({
          currency: 'USD',
          our_price: [{ schedule: [{ value_with_tax: variant?.price }] }],
        });
        const main = child.attributes.main_product_image_locator?.[0] as { media_location: string };
        expect(main.media_location).toMatch(
          /^http:\/\/podforge\.test\/api\/store-images\/[0-9a-f-]{36}\.png\?expires=\d+&signature=/,
        );
        // The picture's link works for Amazon without a session.
        const picture = await t.app.inject({ method: 'GET', url: main.media_location.replace(APP, '') });
        expect(picture.statusCode).toBe(200);
        expect(picture.headers['content-type']).toBe('image/png');
      }
      const after = (await client.get(`/api/amazon/products/${product.id}/listings`)).json<TAmazonProductListings>();
      expect(after.listings[0]).toMatchObject({ state: 'live', issues: [] });

      // Update in store: the same family, its new title on every SKU.
      expect((await client.patch(`/api/products/${product.id}`, { title: 'Family Tee, revised' })).statusCode).toBe(
        200,
      );
      const updated = await client.post(`/api/products/${product.id}/update-in-store`, { integrationId: store.id });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().remoteProductId).toBe(parentSku);
      await fake.processDue(true);
      const again = (await sandboxListings(client)).sellers.flatMap((s) => s.listings);
      expect(again.filter((l) => l.sku === parentSku || l.parentSku === parentSku)).toHaveLength(children.length + 1);
      for (const l of again.filter((x) => x.sku === parentSku || x.parentSku === parentSku))
        expect(l.attributes.item_name?.[0]).toMatchObject({ value: 'Family Tee, revised' });
    },
    SLOW,
  );

  it('an update without a variant removes its child SKU from the family; archive and delete reach every child', async () => {
    const client = t.client();
    const store = await readySeller(client);
    const row = await storeRow(store.id);
    if (!row) throw new Error('no row');
    const png = async () => Buffer.from('');
    const id = '7b0c1d2e-3f40-4a5b-8c6d-7e8f9a0b1c2d';
    const variants = ['S', 'M', 'L'].map((size, i) => ({
      id: `v${i}`,
      sku: `FAM-${size}`,
      color: 'Black',
      size,
      option: `Black / ${size}`,
      price: '20.00',
    }));
    const product: PushProduct = {
      id,
      title: 'Family Hoodie',
      description: 'Warm fleece.',
      tags: [],
      productType: 'hoodie',
      variants,
      images: [{ mockupId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', color: 'Black', main: true, read: png }],
    };
    const recorded: { id: string | null } = { id: null };
    const ctx = (p: PushProduct) => ({
      workspaceId: row.workspaceId,
      store: row,
      product: p,
      remoteProductId: recorded.id,
      startedAt: new Date(),
      saveRemoteId: async (remote: string) => {
        recorded.id = remote;
      },
    });
    const first = await t.deps.amazon.publish(ctx(product));
    const family = () =>
      fake
        .listings(row.externalId)
        .filter((l) => l.sku === first.remoteProductId || JSON.stringify(l.attributes).includes(first.remoteProductId))
        .map((l) => l.sku)
        .sort();
    expect(family()).toEqual([first.remoteProductId, 'FAM-L', 'FAM-M', 'FAM-S'].sort());
    expect(fake.listings(row.externalId).find((l) => l.sku === 'FAM-M')?.productType).toBe('SWEATSHIRT');
    await t.deps.amazon.update({
      ...ctx({ ...product, variants: variants.slice(0, 2) }),
      remoteProductId: first.remoteProductId,
    });
    expect(family()).toEqual([first.remoteProductId, 'FAM-M', 'FAM-S'].sort());

    await fake.processDue(true);
    await t.deps.amazon.remove({ ...ctx(product), remoteProductId: first.remoteProductId }, 'archive');
    await fake.processDue(true);
    const stock = fake
      .listings(row.externalId)
      .filter((l) => l.sku.startsWith('FAM-'))
      .map((l) => [
        l.sku,
        (l.attributes.fulfillment_availability?.[0] as { quantity?: number } | undefined)?.quantity,
        l.status,
      ]);
    expect(stock.sort()).toEqual([
      ['FAM-M', 0, ['DISCOVERABLE']],
      ['FAM-S', 0, ['DISCOVERABLE']],
    ]);
    await t.deps.amazon.remove({ ...ctx(product), remoteProductId: first.remoteProductId }, 'delete');
    expect(family()).toEqual([]);
  });

  it('shows the issues Amazon finds after ACCEPTED on the product: a brand with no GTIN exemption is suppressed', async () => {
    const client = t.client();
    const store = await connect(client);
    await settle(client, store.id, { brand: 'Acme Prints', gtinExempt: true });
    const product = await tee(client, 'Acme Tee');
    const res = await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id });
    expect(res.statusCode, res.body).toBe(200);
    await fake.processDue(true);
    const { listings } = (
      await client.get(`/api/amazon/products/${product.id}/listings`)
    ).json<TAmazonProductListings>();
    expect(listings[0]?.state).toBe('not_buyable');
    expect(listings[0]?.issues.length).toBe(product.variants.length);
    expect(listings[0]?.issues[0]).toMatch(/The brand 'Acme Prints' has no GTIN exemption for SHIRT/);
    // Another workspace sees none of it.
    const other = t.client();
    expect((await other.get(`/api/amazon/products/${product.id}/listings`)).json()).toEqual({ listings: [] });
  });

  it('the listing is checked against the product type schema before sending, naming the attribute', async () => {
    const client = t.client();
    const store = await readySeller(client);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
    if (!row) throw new Error('no row');
    const png = async () => Buffer.from('');
    const mug: PushProduct = {
      id: '2a1d7c6e-0c55-4d7b-9d59-4d2a3c5b6e7f',
      title: 'Big Mug',
      description: 'Ceramic.',
      tags: [],
      productType: 'mug',
      variants: [
        { id: 'a', sku: 'MUG-A', color: null, size: '11oz', option: '11oz', price: '14.00' },
        {
          id: 'b',
          sku: 'MUG-B',
          color: null,
          size: `15oz ${'extra large '.repeat(5)}`,
          option: '15oz',
          price: '16.00',
        },
      ],
      images: [{ mockupId: '5f0b7c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e', color: null, main: true, read: png }],
    };
    const problems = await t.deps.amazon.problems(row, mug);
    expect(problems).toEqual([
      expect.stringMatching(
        /^Amazon's DRINKING_CUP listing refuses “Size” \(size\): .*must NOT have more than 50 characters/,
      ),
    ]);
    expect(await t.deps.amazon.problems(row, { ...mug, variants: mug.variants.slice(0, 1) })).toEqual([]);
  });

  it("the fake refuses what Amazon's models refuse: the request shape, the schema's required attributes", async () => {
    const client = t.client();
    const store = await connect(client);
    const row = await storeRow(store.id);
    if (!row) throw new Error('no row');
    const token = await t.deps.amazon.accessToken(row);
    const amazon = await t.deps.amazon.getClient();
    const at = { region: 'na', sellerId: row.externalId, marketplaceId: US };
    // The body misses `productType` (required by ListingsItemPutRequest).
    const shape = await amazon
      .call(token, {
        ...at,
        operationId: 'putListingsItem',
        method: 'PUT',
        path: `/listings/2021-08-01/items/${row.externalId}/SKU-1`,
        query: { marketplaceIds: US },
        body: { attributes: {} },
      })
      .catch((e: unknown) => e);
    expect(shape).toBeInstanceOf(AmazonError);
    expect(shape).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((shape as AmazonError).details).toMatch(/productType/);
    // marketplaceIds is required by the model.
    const query = await amazon
      .call(token, {
        ...at,
        operationId: 'getListingsItem',
        method: 'GET',
        path: `/listings/2021-08-01/items/${row.externalId}/SKU-1`,
      })
      .catch((e: unknown) => e);
    expect(query).toMatchObject({ status: 400 });
    expect((query as AmazonError).details).toMatch(/marketplaceIds/);
    // searchOrders takes one of createdAfter and lastUpdatedAfter.
    const both = await amazon
      .call(token, {
        ...at,
        operationId: 'searchOrders',
        method: 'GET',
        path: '/orders/2026-01-01/orders',
        query: { createdAfter: '2026-01-01T00:00:00Z', lastUpdatedAfter: '2026-01-01T00:00:00Z', marketplaceIds: US },
      })
      .catch((e: unknown) => e);
    expect(both).toMatchObject({ status: 400, code: 'InvalidInput' });
    // A child without its colour: INVALID, the issue naming the attribute (nothing stored).
    const m = (value: unknown) => [{ value, marketplace_id: US }];
    const txt = (value: string) => [{ value, language_tag: 'en_US', marketplace_id: US }];
    const answer = await amazon.putListingsItem(token, at, 'CHILD-NO-COLOR', {
      productType: 'SHIRT',
      requirements: 'LISTING',
      attributes: {
        item_name: txt('Tee'),
        brand: txt('Generic'),
        product_description: txt('Tee'),
        bullet_point: txt('Tee'),
        supplier_declared_has_product_identifier_exemption: m(true),
        condition_type: m('new_new'),
        parentage_level: m('child'),
        child_parent_sku_relationship: [{ child_relationship_type: 'variation', parent_sku: 'P', marketplace_id: US }],
        variation_theme: [{ name: 'COLOR' }],
        purchasable_offer: [
          { currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 20 }] }], marketplace_id: US },
        ],
        fulfillment_availability: [{ fulfillment_channel_code: 'DEFAULT', quantity: 1 }],
        main_product_image_locator: [{ media_location: 'https://example.com/a.png', marketplace_id: US }],
      },
    });
    expect(answer.status).toBe('INVALID');
    expect(answer.issues).toEqual([
      expect.objectContaining({ code: '90220', attributeNames: ['color'], categories: ['MISSING_ATTRIBUTE'] }),
    ]);
    expect(fake.listings(row.externalId).map((l) => l.sku)).not.toContain('CHILD-NO-COLOR');
  });
});

describe('pictures by public URL', () => {
  it('Amazon downloads each picture when it processes the listing: one it cannot get suppresses the SKU', async () => {
    const pictures = http.createServer((req, res) => {
      if (req.url?.startsWith('/ok.png')) res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(8));
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => pictures.listen(0, '127.0.0.1', resolve));
    const host = `http://127.0.0.1:${(pictures.address() as AddressInfo).port}`;
    const own = await startFakeAmazon({ fetchImages: true, processingMs: 0 });
    try {
      const consent = await fetch(
        `${own.url}/apps/authorize/consent?application_id=${own.applicationId}&version=beta&state=s&redirect_uri=http://x/cb`,
        { redirect: 'manual' },
      );
      const back = new URL(consent.headers.get('location') ?? '');
      const amazon = new AmazonClient({
        applicationId: own.applicationId,
        clientId: own.clientId,
        clientSecret: own.clientSecret,
        lwaBase: own.url,
        apiBase: () => own.url,
        consentBase: () => '',
        sleep: async () => {},
      });
      const { accessToken } = await amazon.exchangeCode(back.searchParams.get('spapi_oauth_code') ?? '', 'http://x/cb');
      const at = { region: 'na', sellerId: back.searchParams.get('selling_partner_id') ?? '', marketplaceId: US };
      const txt = (value: string) => [{ value, language_tag: 'en_US', marketplace_id: US }];
      const item = (picture: string) => ({
        productType: 'DRINKING_CUP',
        requirements: 'LISTING' as const,
        attributes: {
          item_name: txt('Mug'),
          brand: txt('Generic'),
          product_description: txt('Ceramic.'),
          bullet_point: txt('Ceramic.'),
          supplier_declared_has_product_identifier_exemption: [{ value: true, marketplace_id: US }],
          condition_type: [{ value: 'new_new', marketplace_id: US }],
          purchasable_offer: [
            { currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 14 }] }], marketplace_id: US },
          ],
          fulfillment_availability: [
            { fulfillment_channel_code: 'DEFAULT', quantity: 999, lead_time_to_ship_max_days: 5 },
          ],
          main_product_image_locator: [{ media_location: `${host}/${picture}?signature=x`, marketplace_id: US }],
        },
      });
      expect((await amazon.putListingsItem(accessToken, at, 'MUG-OK', item('ok.png'))).status).toBe('ACCEPTED');
      expect((await amazon.putListingsItem(accessToken, at, 'MUG-GONE', item('gone.png'))).status).toBe('ACCEPTED');
      await own.processDue(true);
      const ok = await amazon.getListingsItem(accessToken, at, 'MUG-OK', ['summaries', 'issues']);
      expect(ok?.summaries?.[0]?.status).toEqual(['BUYABLE', 'DISCOVERABLE']);
      const gone = await amazon.getListingsItem(accessToken, at, 'MUG-GONE', ['summaries', 'issues']);
      expect(gone?.summaries?.[0]?.status).toEqual([]);
      expect(gone?.issues).toEqual([
        expect.objectContaining({
          severity: 'ERROR',
          categories: ['INVALID_IMAGE'],
          attributeNames: ['main_product_image_locator'],
          message: expect.stringMatching(/gone\.png answered HTTP 404; Amazon could not download it/),
        }),
      ]);
    } finally {
      await own.close();
      await new Promise((resolve) => pictures.close(resolve));
    }
  });
});

describe('tokens and limits', () => {
  it('refreshes the access token before its hour ends; a revoked authorization asks the seller to connect again', async () => {
    const client = t.client();
    const store = await connect(client);
    await t.deps.db
      .update(integrations)
      .set({ tokenExpiresAt: new Date(Date.now() + 60_000) })
      .where(eq(integrations.id, store.id));
    const before = await storeRow(store.id);
    const row = await storeRow(store.id);
    if (!row) throw new Error('no row');
    await t.deps.amazon.verify(row);
    const after = await storeRow(store.id);
    expect(after?.accessTokenEnc).not.toBe(before?.accessTokenEnc);
    expect(after?.refreshTokenEnc).toBe(before?.refreshTokenEnc);
    expect(after?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);

    await fake.revokeAuthorization(row.externalId);
    await t.deps.db
      .update(integrations)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(integrations.id, store.id));
    const refused = await t.deps.amazon.verify((await storeRow(store.id)) ?? row).catch((e: unknown) => e);
    expect(refused).toMatchObject({ statusCode: 502 });
    expect((refused as Error).message).toMatch(/connect the seller again/);
    expect(await storeRow(store.id)).toMatchObject({ status: 'error' });
  });

  it("waits for each operation's token bucket (burst, then its rate) instead of being throttled", async () => {
    const client = t.client();
    const store = await connect(client);
    const row = await storeRow(store.id);
    if (!row) throw new Error('no row');
    const waits: number[] = [];
    const base = await t.deps.amazon.getClient();
    const amazon = new AmazonClient({
      ...base.options,
      now: Date.now,
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const token = await t.deps.amazon.accessToken(row);
    const at = { region: 'na', sellerId: row.externalId, marketplaceId: US };
    // getListingsItem: 5 a second, burst 10. Fourteen at once: ten go, four wait their turn, none is throttled.
    // A first call, then both buckets full again (the first call has the fake compile Amazon's model, in this process).
    await amazon.getListingsItem(token, at, 'WARM-UP', ['summaries']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    waits.length = 0;
    const from = fake.calls.length;
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => amazon.getListingsItem(token, at, `NONE-${i}`, ['summaries'])),
    );
    expect(answers.every((a) => a === null)).toBe(true);
    expect(waits.length).toBeGreaterThanOrEqual(4);
    const sent = fake.calls.slice(from).filter((c) => c.operationId === 'getListingsItem');
    expect(sent.map((c) => c.status)).toEqual(Array(14).fill(404));
  });
});

describe('Amazon orders', () => {
  it('a pending order waits for its payment (it has no address yet); a cancelled one is read as cancelled', async () => {
    const { row, product } = await listedTee(t.client(), 'Pending Tee');
    const adapter = t.deps.stores.get('amazon');
    if (!adapter) throw new Error('no Amazon adapter');
    const since = new Date(Date.now() - 5_000);
    const placed = await fake.placeOrder(row.externalId, US, {
      lines: [{ sku: product.variants[0]?.sku ?? '', quantity: 1 }],
      address: BUYER_ADDRESS,
      pending: true,
    });
    const read = async () => (await adapter.readOrders(row, since)).find((o) => o.remoteOrderId === placed.orderId);
    expect(await read()).toBeUndefined();
    await fake.payOrder(placed.orderId);
    expect(await read()).toMatchObject({
      cancelled: false,
      currency: 'USD',
      total: '25.00',
      address: { name: 'Ada Buyer', city: 'Portland', zip: '97201', countryCode: 'US' },
      lines: [{ remoteLineId: expect.any(String), sku: product.variants[0]?.sku, quantity: 1, price: '25.00' }],
    });
    await fake.cancelOrder(placed.orderId);
    expect(await read()).toMatchObject({ cancelled: true });
  });

  it("a read cursor from a clock ahead of Amazon's is not refused by Amazon, and loses no order", async () => {
    const { row, product } = await listedTee(t.client(), 'Skewed Tee');
    const placed = await fake.placeOrder(row.externalId, US, {
      lines: [{ sku: product.variants[0]?.sku ?? '', quantity: 1 }],
      address: BUYER_ADDRESS,
    });
    // Our clock 90 s ahead of Amazon's (the sandbox here runs on the real one); Amazon refuses an after in its future.
    const ahead = () => new Date(Date.now() + 90_000);
    const skewed = new AmazonService({ ...t.deps, now: ahead });
    skewed.client = new AmazonClient({
      ...(await t.deps.amazon.getClient()).options,
      now: () => ahead().getTime(),
      sleep: async () => {},
    });
    // A cursor 30 s past Amazon's now (still in our past): read, nothing changed after it.
    expect(await skewed.readOrders(row, new Date(Date.now() + 30_000))).toEqual([]);
    // A cursor before the order: the order, though Amazon was asked from a little earlier.
    const read = await skewed.readOrders(row, new Date(Date.now() - 5_000));
    expect(read.map((o) => o.remoteOrderId)).toContain(placed.orderId);
  });

  it(
    'a sandbox order is read by the job, matched by SKU, sent to the printer; the shipment is confirmed with carrier and tracking, once',
    async () => {
      const client = t.client();
      const store = await readySeller(client);
      const set = await client.patch('/api/settings', { orderConfirmation: { mode: 'automatic', delayMinutes: 60 } });
      expect(set.statusCode, set.body).toBe(200);
      const product = await tee(client, 'Ordered Tee');
      expect((await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id })).statusCode).toBe(200);
      const [a, b] = product.variants;

      // Not buyable until Amazon has processed it.
      const early = await client.post('/api/amazon/sandbox/orders', {
        integrationId: store.id,
        lines: [{ sku: a?.sku, quantity: 1 }],
      });
      expect(early.statusCode).toBe(400);
      expect(early.json().error).toMatch(/not buyable on Amazon yet/);
      await fake.processDue(true);

      const placed = await client.post('/api/amazon/sandbox/orders', {
        integrationId: store.id,
        lines: [
          { sku: a?.sku, quantity: 2 },
          { sku: b?.sku, quantity: 1 },
        ],
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = placed.json().remoteOrderId as string;
      const order = (await waitFor(
        async () => (await client.get('/api/orders')).json<TOrderPage>().items.find((o) => o.externalId === orderId),
        (o) => Boolean(o && ['shipped', 'delivered'].includes(o.status)),
      )) as TOrder;
      expect(order).toMatchObject({ currency: 'USD', fulfillmentProvider: 'sandbox', revenue: (3 * 25).toFixed(2) });
      expect(order.lines.map((l) => [l.sku, l.quantity, l.fromPodforge])).toEqual([
        [a?.sku, 2, true],
        [b?.sku, 1, true],
      ]);
      const row = await waitFor(
        async () => (await t.deps.db.select().from(ordersTable).where(eq(ordersTable.id, order.id)))[0],
        (r) => Boolean(r?.storeFulfillmentId),
      );
      expect(row?.storeFulfillmentId).toBe('package:1');
      const sandboxOrders = (await client.get('/api/amazon/sandbox/orders')).json<TAmazonSandboxOrders>();
      const held = sandboxOrders.orders.find((o) => o.orderId === orderId);
      expect(held).toMatchObject({
        status: 'SHIPPED',
        shipmentConfirmed: true,
        carrier: 'USPS',
        tracking: row?.trackingNumber,
      });

      // A retry after Amazon took it but before it was saved here: no second package.
      await t.deps.db.update(ordersTable).set({ storeFulfillmentId: null }).where(eq(ordersTable.id, order.id));
      await fulfilInStore(t.deps, order.id);
      expect(fake.orders().find((o) => o.orderId === orderId)?.packages).toHaveLength(1);

      // The sandbox is kept in the database: a new app on it finds the seller's listings and orders.
      const ws = await client.workspaceId(t.deps.db);
      const second = await buildApp({ config: t.config, database: t.deps.database, logger: false });
      try {
        await second.app.ready();
        const orders = await second.deps.amazon.sandboxOrders(ws);
        expect(orders.orders.find((o) => o.orderId === orderId)).toMatchObject({ shipmentConfirmed: true });
        const listings = await second.deps.amazon.sandboxListings(ws);
        expect(listings.sellers.flatMap((s) => s.listings).map((l) => l.sku)).toContain(a?.sku);
      } finally {
        await second.app.close();
      }
    },
    SLOW,
  );
});
