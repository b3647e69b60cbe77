import { randomUUID } from 'node:crypto';
import type { TIntegration } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBudgets, integrations } from '../src/db/schema';
import { AmazonClient } from '../src/integrations/amazon/client';
import { EtsyClient } from '../src/integrations/etsy/client';
import { ShopifyClient } from '../src/integrations/shopify/client';
import { FAKE_LOCATIONS } from '../src/integrations/shopify/fake-orders';
import { AppError } from '../src/lib/errors';
import type { StorePlatform } from '../src/modules/stores/store-platform';
import type {
  IntegrationRow,
  PublishContext,
  PushProduct,
  StorePlatformId,
} from '../src/modules/stores/store-publisher';
import { solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * The StorePlatform contract (issue #26): the same cases for every adapter in the registry, each against its own
 * local fake over loopback HTTP, through the app's real clients (the built-in sandboxes). An adapter is finished when
 * it passes; a new store (Amazon) adds a harness below and must pass the same cases.
 */

const APP = 'http://podforge.test';
const HOUR = 3600_000;
/** The app's clock: moved forward (never back) to make tokens expire. */
let offsetMs = 0;
/** Time the clients waited (a rate limit's wait moves the app's clock on rather than sleeping). */
let waitedMs = 0;
const appNow = () => new Date(Date.now() + offsetMs + waitedMs);
let t: TestApp;
let png: Buffer;

/** A product in the store as its fake holds it (not as the adapter reports it). */
type Remote = { id: string; title: string; visible: boolean; skus: string[]; prices: number[] };

/** What the suite needs of a store's fake beyond the port: connect a store, read what it holds, arm its failures. */
type Harness = {
  connect(client: TestClient): Promise<TIntegration>;
  /** Products of the store holding any of these SKUs. */
  remote(store: IntegrationRow, skus: string[]): Promise<Remote[]>;
  /** The next create is applied, then its answer is lost (a 5xx). */
  loseNextCreate(): Promise<void>;
  /** The store limits calls for longer than a push waits; `lift` ends it. */
  rateLimit(): Promise<{ lift(): Promise<void> }>;
  /** The same row with credentials the store does not know (revoked keys or token). */
  revoked(store: IntegrationRow): IntegrationRow;
  /** Whether the store's access tokens expire (and are refreshed): not WooCommerce's REST keys. */
  tokensExpire: boolean;
  /** A buyer's paid order of one of these SKUs in the store: its remote id. */
  placeOrder(store: IntegrationRow, sku: string): Promise<string>;
  /** The tracking numbers the store holds for the order (what its buyer was sent). */
  trackingOf(store: IntegrationRow, remoteOrderId: string): Promise<string[]>;
  /**
   * The store's web server drops the Authorization header before the platform sees it (some hosts of
   * self-hosted stores); absent where that cannot happen (a hosted platform's API).
   */
  stripAuthorization?(store: IntegrationRow): Promise<{ restore(): Promise<void> }>;
  /**
   * A store that fulfils line by line and ships from several locations (Shopify): a paid order of our SKUs, the
   * second from another location, and an item of the seller's own; and what each line still has to ship.
   */
  lineByLine?: {
    placeMixedOrder(store: IntegrationRow, skus: [string, string]): Promise<string>;
    unfulfilled(store: IntegrationRow, remoteOrderId: string): Promise<Record<string, number>>;
  };
};

const BUYER = {
  name: 'Ada Buyer',
  address1: '1 Test Street',
  city: 'Portland',
  provinceCode: 'OR',
  countryCode: 'US',
  zip: '97201',
};
/** The buyer as the Shopify fake takes an order's address. */
const SHOPIFY_BUYER = {
  name: BUYER.name,
  address1: BUYER.address1,
  city: BUYER.city,
  province_code: BUYER.provinceCode,
  country_code: BUYER.countryCode,
  zip: BUYER.zip,
};

const harnesses: Record<StorePlatformId, Harness> = {
  shopify: {
    async connect(client) {
      const shop = `contract-${randomUUID().slice(0, 8)}.myshopify.com`;
      const start = await client.get(`/auth/shopify/start?shop=${shop}`);
      const relayed = await client.get(start.headers.location as string);
      const callback = new URL(relayed.headers.location as string);
      const done = await client.get(callback.pathname + callback.search);
      expect(done.headers.location).toBe('/integrations?connected=shopify');
      return connected(client, 'shopify');
    },
    async remote(store, skus) {
      const fake = await t.deps.shopify.sandboxServer();
      const products = (await fake?.products(store.externalId)) ?? [];
      return products
        .filter((p) => p.variants.some((v) => v.sku && skus.includes(v.sku)))
        .map((p) => ({
          id: p.id,
          title: p.title,
          visible: p.status === 'ACTIVE',
          skus: p.variants.map((v) => v.sku ?? ''),
          prices: p.variants.map((v) => Number(v.price)),
        }));
    },
    async loseNextCreate() {
      (await t.deps.shopify.sandboxServer())?.failNextProductSet('after-apply');
    },
    async rateLimit() {
      const fake = await t.deps.shopify.sandboxServer();
      fake?.throttleNext(1000);
      return { lift: async () => fake?.throttleNext(0) };
    },
    revoked: (store) => ({ ...store, accessTokenEnc: t.deps.cipher.encrypt('shpat_revoked') }),
    tokensExpire: true,
    async placeOrder(store, sku) {
      const fake = await t.deps.shopify.sandboxServer();
      if (!fake) throw new Error('no sandbox');
      const order = await fake.orders.placePaidOrder(store.externalId, {
        lines: [{ sku, quantity: 1 }],
        address: SHOPIFY_BUYER,
      });
      return String(order.id);
    },
    async trackingOf(store, remoteOrderId) {
      const fake = await t.deps.shopify.sandboxServer();
      const order = (await fake?.orders.orders(store.externalId))?.find((o) => String(o.id) === remoteOrderId);
      return (order?.fulfillments ?? []).map((f) => f.trackingInfo.number ?? '');
    },
    lineByLine: {
      async placeMixedOrder(store, [first, second]) {
        const fake = await t.deps.shopify.sandboxServer();
        if (!fake) throw new Error('no sandbox');
        const order = await fake.orders.placePaidOrder(store.externalId, {
          lines: [
            { sku: first, quantity: 2 },
            { sku: second, quantity: 1, location: FAKE_LOCATIONS[1].id },
            { title: 'Gift wrap (the seller’s own)', price: '3.00', quantity: 1 },
          ],
          address: SHOPIFY_BUYER,
        });
        return String(order.id);
      },
      async unfulfilled(store, remoteOrderId) {
        const fake = await t.deps.shopify.sandboxServer();
        const order = (await fake?.orders.orders(store.externalId))?.find((o) => String(o.id) === remoteOrderId);
        const left: Record<string, number> = {};
        for (const fo of order?.fulfillmentOrders ?? []) {
          for (const l of fo.lineItems) {
            const line = order?.lineItems.find((x) => x.id === l.lineItemId);
            const key = line?.sku ?? line?.title ?? String(l.lineItemId);
            left[key] = (left[key] ?? 0) + l.remainingQuantity;
          }
        }
        return left;
      },
    },
  },
  etsy: {
    async connect(client) {
      const start = await client.get('/auth/etsy/start');
      const relayed = await client.get(start.headers.location as string);
      const callback = new URL(relayed.headers.location as string);
      const done = await client.get(callback.pathname + callback.search);
      expect(done.headers.location).toBe('/integrations?connected=etsy');
      return connected(client, 'etsy');
    },
    async remote(store, skus) {
      const fake = await t.deps.etsy.sandboxServer();
      return (fake?.listings(Number(store.externalId)) ?? [])
        .filter((l) => (l.inventory?.products ?? []).some((p) => skus.includes(p.sku)))
        .map((l) => ({
          id: String(l.listing_id),
          title: l.title,
          visible: l.state === 'active',
          skus: (l.inventory?.products ?? []).map((p) => p.sku),
          prices: (l.inventory?.products ?? []).map((p) => {
            const price = p.offerings[0]?.price;
            return price ?? Number.NaN;
          }),
        }));
    },
    async loseNextCreate() {
      (await t.deps.etsy.sandboxServer())?.failNextCreateAfterCreating();
    },
    async rateLimit() {
      const fake = await t.deps.etsy.sandboxServer();
      // A wait longer than a push holds on: the day's budget spent.
      fake?.rateLimitNext(1000, 6 * 3600);
      return {
        lift: async () => {
          fake?.rateLimitNext(0);
          // The spent day the app remembered (shared by its instances) is over too.
          await t.deps.db.delete(callBudgets);
        },
      };
    },
    revoked: (store) => ({ ...store, accessTokenEnc: t.deps.cipher.encrypt('12345.revoked') }),
    tokensExpire: true,
    async placeOrder(store, sku) {
      const fake = await t.deps.etsy.sandboxServer();
      if (!fake) throw new Error('no sandbox');
      const a = BUYER;
      const receipt = await fake.placeReceipt(Number(store.externalId), {
        lines: [{ sku, quantity: 1 }],
        address: {
          name: a.name,
          first_line: a.address1,
          second_line: null,
          city: a.city,
          state: a.provinceCode,
          zip: a.zip,
          country_iso: a.countryCode,
        },
      });
      return String(receipt.receipt_id);
    },
    async trackingOf(store, remoteOrderId) {
      const fake = await t.deps.etsy.sandboxServer();
      const receipt = fake?.receipts(Number(store.externalId)).find((r) => String(r.receipt_id) === remoteOrderId);
      return (receipt?.shipments ?? []).map((s) => s.tracking_code ?? '');
    },
  },
  woocommerce: {
    async connect(client) {
      const res = await client.post('/api/woocommerce/connect', { sandbox: true });
      expect(res.statusCode, res.body).toBe(201);
      return connected(client, 'woocommerce');
    },
    async remote(store, skus) {
      const fake = await t.deps.woocommerce.sandboxServer();
      return fake
        .products(new URL(store.externalId).host)
        .filter((p) => p.variations.some((v) => skus.includes(v.sku)))
        .map((p) => ({
          id: String(p.id),
          title: p.name,
          visible: p.status === 'publish',
          skus: p.variations.map((v) => v.sku),
          prices: p.variations.map((v) => Number(v.regular_price)),
        }));
    },
    async loseNextCreate() {
      (await t.deps.woocommerce.sandboxServer()).failNextCreateAfterCreating();
    },
    async rateLimit() {
      const fake = await t.deps.woocommerce.sandboxServer();
      fake.rateLimitNext(1000, 3600);
      return { lift: async () => fake.rateLimitNext(0) };
    },
    revoked: (store) => ({
      ...store,
      accessTokenEnc: t.deps.cipher.encrypt(JSON.stringify({ key: 'ck_revoked', secret: 'cs_revoked' })),
    }),
    tokensExpire: false,
    async stripAuthorization(store) {
      const fake = await t.deps.woocommerce.sandboxServer();
      const host = new URL(store.externalId).host;
      fake.stripAuthorization(host);
      return { restore: async () => fake.stripAuthorization(host, false) };
    },
    async placeOrder(store, sku) {
      const fake = await t.deps.woocommerce.sandboxServer();
      const a = BUYER;
      const placed = await fake.placeOrder(new URL(store.externalId).host, {
        lineItems: [{ sku, quantity: 1 }],
        shipping: {
          first_name: 'Ada',
          last_name: 'Buyer',
          address_1: a.address1,
          city: a.city,
          state: a.provinceCode,
          postcode: a.zip,
          country: a.countryCode,
        },
      });
      return String(placed.orderId);
    },
    async trackingOf(store, remoteOrderId) {
      const fake = await t.deps.woocommerce.sandboxServer();
      const order = fake.orders(new URL(store.externalId).host).find((o) => String(o.id) === remoteOrderId);
      // WooCommerce has no shipment object: the tracking is a note the customer is sent.
      return (order?.notes ?? [])
        .filter((n) => n.customer_note)
        .flatMap((n) => /Tracking number: ([^.\s]+)/.exec(n.note)?.slice(1) ?? []);
    },
  },
  amazon: {
    async connect(client) {
      const start = await client.get('/auth/amazon/start?marketplace=ATVPDKIKX0DER');
      const relayed = await client.get(start.headers.location as string);
      const callback = new URL(relayed.headers.location as string);
      const done = await client.get(callback.pathname + callback.search);
      expect(done.headers.location).toBe('/integrations?connected=amazon');
      const store = await connected(client, 'amazon');
      // The listing settings Amazon needs (the sandbox seller's GTIN exemption is for 'Generic').
      const saved = await client.post(`/api/amazon/${store.id}/settings`, { brand: 'Generic', gtinExempt: true });
      expect(saved.statusCode, saved.body).toBe(200);
      return store;
    },
    async remote(store, skus) {
      const fake = await t.deps.amazon.sandboxServer();
      if (!fake) return [];
      // Amazon processes an accepted submission later: the buyer sees what it made of it then.
      await fake.processDue(true);
      const items = fake.listings(store.externalId);
      const value = (attrs: Record<string, unknown[]>, name: string) =>
        (attrs[name]?.[0] as Record<string, unknown> | undefined) ?? {};
      const parents = items.filter((l) => value(l.attributes, 'parentage_level').value === 'parent');
      return parents
        .map((p) => {
          const children = items.filter(
            (c) => value(c.attributes, 'child_parent_sku_relationship').parent_sku === p.sku,
          );
          return {
            id: p.sku,
            title: String(value(p.attributes, 'item_name').value),
            visible: children.some((c) => c.status.includes('BUYABLE')),
            skus: children.map((c) => c.sku),
            prices: children.map((c) => {
              const offer = value(c.attributes, 'purchasable_offer') as {
                our_price?: { schedule?: { value_with_tax?: number }[] }[];
              };
              return offer.our_price?.[0]?.schedule?.[0]?.value_with_tax ?? Number.NaN;
            }),
          };
        })
        .filter((p) => p.skus.some((s) => skus.includes(s)));
    },
    async loseNextCreate() {
      (await t.deps.amazon.sandboxServer())?.failNextPutAfterApplying();
    },
    async rateLimit() {
      const fake = await t.deps.amazon.sandboxServer();
      fake?.throttleFor(1000);
      return { lift: async () => fake?.throttleFor(0) };
    },
    revoked: (store) => ({ ...store, accessTokenEnc: t.deps.cipher.encrypt('Atza|revoked') }),
    tokensExpire: true,
    async placeOrder(store, sku) {
      const fake = await t.deps.amazon.sandboxServer();
      if (!fake) throw new Error('no sandbox');
      await fake.processDue(true);
      const a = BUYER;
      const order = await fake.placeOrder(store.externalId, 'ATVPDKIKX0DER', {
        lines: [{ sku, quantity: 1 }],
        address: {
          name: a.name,
          addressLine1: a.address1,
          city: a.city,
          stateOrRegion: a.provinceCode,
          postalCode: a.zip,
          countryCode: a.countryCode,
        },
      });
      return order.orderId;
    },
    async trackingOf(store, remoteOrderId) {
      const fake = await t.deps.amazon.sandboxServer();
      const order = fake?.orders(store.externalId).find((o) => o.orderId === remoteOrderId);
      return (order?.packages ?? []).map((p) => p.trackingNumber);
    },
  },
};

async function connected(client: TestClient, platform: string): Promise<TIntegration> {
  const list = (await client.get('/api/integrations')).json<TIntegration[]>();
  const store = list.find((i) => i.platform === platform && i.isConnected);
  if (!store) throw new Error(`no connected ${platform} store`);
  return store;
}

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP }, now: appNow });
  // The real clients, with waits that take no time: a limit is still a limit, it is just not slept through. Shopify's
  // cost bucket refills on the app's clock, so a wait moves that clock on instead (an expensive read after another
  // is waited for, as with a real shop).
  t.deps.etsy.sandboxOptions = { limits: { perSecond: 10_000, perDay: 1_000_000 } };
  const etsy = await t.deps.etsy.getClient();
  t.deps.etsy.client = new EtsyClient({ ...etsy.options, sleep: async () => {} });
  const shopify = await t.deps.shopify.getClient();
  t.deps.shopify.client = new ShopifyClient({
    ...shopify.options,
    sleep: async (ms) => {
      waitedMs += ms;
    },
  });
  // The app is not listening here (inject): the sandbox cannot download pictures from it.
  t.deps.amazon.sandboxOptions = { processingMs: 0, fetchImages: false };
  const amazon = await t.deps.amazon.getClient();
  // Amazon's sandbox runs on the app's clock: a wait for its token bucket moves that clock on, as with Shopify.
  t.deps.amazon.client = new AmazonClient({
    ...amazon.options,
    sleep: async (ms) => {
      waitedMs += ms;
    },
  });
  png = await solidPng(64, 64, { r: 200, g: 30, b: 30 });
});
afterAll(async () => {
  await t?.close();
});

/** A two-colour, two-size tee as the push job hands it to an adapter; fresh ids and SKUs each time. */
function tee(title = 'Contract Tee'): PushProduct {
  const id = randomUUID();
  const sku = (color: string, size: string) => `PF-${id.slice(0, 8)}-${color}-${size}`.toUpperCase();
  const variants = ['Black', 'Navy'].flatMap((color) =>
    ['S', 'M'].map((size) => ({
      id: randomUUID(),
      sku: sku(color, size),
      color,
      size,
      option: `${color} / ${size}`,
      price: '25.00',
    })),
  );
  return {
    id,
    title,
    description: 'Soft cotton, printed to order.',
    tags: ['contract', 'retro tee'],
    productType: 'tshirt',
    variants,
    images: ['Navy', 'Black'].map((color, i) => ({
      mockupId: randomUUID(),
      color,
      main: i === 0,
      read: async () => png,
    })),
  };
}

const skusOf = (product: PushProduct) => product.variants.map((v) => v.sku);

describe('the registry', () => {
  it('has one adapter per platform, each with a harness in this suite', () => {
    expect(t.deps.stores.ids().sort()).toEqual(Object.keys(harnesses).sort());
  });
});

describe.each(Object.keys(harnesses) as StorePlatformId[])('StorePlatform: %s', (platform) => {
  const h = harnesses[platform];
  let adapter: StorePlatform;
  let client: TestClient;
  let storeId: string;
  let workspaceId: string;

  /** The store's row as it is now (a refresh may have replaced its token). */
  const store = async (): Promise<IntegrationRow> => {
    const [row] = await t.deps.db
      .select()
      .from(integrations)
      .where(and(eq(integrations.id, storeId), eq(integrations.workspaceId, workspaceId)));
    if (!row) throw new Error('store row gone');
    return row;
  };

  /** A push context as the push job builds it: the remote id it recorded, and a way to record a new one. */
  const contextFor = async (product: PushProduct, recorded: { id: string | null }): Promise<PublishContext> => ({
    workspaceId,
    store: await store(),
    product,
    remoteProductId: recorded.id,
    startedAt: appNow(),
    saveRemoteId: async (id) => {
      recorded.id = id;
    },
  });

  const publish = async (product: PushProduct, recorded: { id: string | null } = { id: null }) => {
    const outcome = await adapter.publish(await contextFor(product, recorded));
    recorded.id = outcome.remoteProductId;
    return outcome;
  };

  const refusal = async (work: Promise<unknown>): Promise<AppError> => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error, 'the call should have been refused').not.toBeNull();
    const mapped = adapter.toAppError(error);
    expect(mapped).toBeInstanceOf(AppError);
    return mapped as AppError;
  };

  beforeAll(async () => {
    const found = t.deps.stores.get(platform);
    if (!found) throw new Error(`no adapter for ${platform}`);
    adapter = found;
    client = t.client();
    storeId = (await h.connect(client)).id;
    workspaceId = await client.workspaceId(t.deps.db);
  });
  // The clock moved forward for this store's tests goes back for the next store's (whose tokens and buckets are new).
  afterAll(() => {
    offsetMs = 0;
  });

  it('connects a store its adapter accepts products for, and verifies the connection', async () => {
    expect((await store()).status).toBe('connected');
    await adapter.verify(await store());
    expect(await adapter.problems(await store(), tee())).toEqual([]);
  });

  it('publishes: one visible product with every variant, its SKU and price', async () => {
    const product = tee();
    const outcome = await publish(product);
    expect(outcome.remoteProductId).toBeTruthy();
    expect(outcome.remoteUrl).toBeTruthy();
    const [remote, ...more] = await h.remote(await store(), skusOf(product));
    expect(more).toEqual([]);
    expect(remote).toMatchObject({ title: product.title, visible: true });
    expect(remote?.id).toContain(outcome.remoteProductId.split('/').pop());
    expect(remote?.skus.sort()).toEqual(skusOf(product).sort());
    expect(remote?.prices).toEqual(product.variants.map(() => 25));
    // When the store names its variants, each maps to ours (the order intake matches lines by them).
    for (const ours of Object.values(outcome.remoteVariants ?? {}))
      expect(product.variants.map((v) => v.id)).toContain(ours);
  });

  it('updates the same remote product: new title and price, no second product', async () => {
    const product = tee();
    const recorded = { id: null as string | null };
    const first = await publish(product, recorded);
    const changed = {
      ...product,
      title: 'Contract Tee, revised',
      variants: product.variants.map((v) => ({ ...v, price: '31.50' })),
    };
    const ctx = await contextFor(changed, recorded);
    const second = await adapter.update({ ...ctx, remoteProductId: first.remoteProductId });
    expect(second.remoteProductId).toBe(first.remoteProductId);
    const remote = await h.remote(await store(), skusOf(product));
    expect(remote).toHaveLength(1);
    expect(remote[0]).toMatchObject({ title: 'Contract Tee, revised', visible: true });
    expect(remote[0]?.prices).toEqual(product.variants.map(() => 31.5));
  });

  it('removes: archive hides the product from buyers, delete takes it away', async () => {
    const archived = tee();
    const a = await publish(archived);
    await adapter.remove(
      { ...(await contextFor(archived, { id: a.remoteProductId })), remoteProductId: a.remoteProductId },
      'archive',
    );
    const [kept] = await h.remote(await store(), skusOf(archived));
    expect(kept?.visible).toBe(false);

    const deleted = tee();
    const d = await publish(deleted);
    await adapter.remove(
      { ...(await contextFor(deleted, { id: d.remoteProductId })), remoteProductId: d.remoteProductId },
      'delete',
    );
    expect(await h.remote(await store(), skusOf(deleted))).toEqual([]);
  });

  it('detects drift: reads each listing as the store holds it, hidden or gone', async () => {
    const [shown, hidden, gone] = [tee('Drift Shown'), tee('Drift Hidden'), tee('Drift Gone')];
    const ids: string[] = [];
    for (const product of [shown, hidden, gone]) ids.push((await publish(product)).remoteProductId);
    const [, hiddenId, goneId] = ids as [string, string, string];
    await adapter.remove({ ...(await contextFor(hidden, { id: hiddenId })), remoteProductId: hiddenId }, 'archive');
    await adapter.remove({ ...(await contextFor(gone, { id: goneId })), remoteProductId: goneId }, 'delete');
    const [a, b, c] = await adapter.listings(await store(), ids);
    expect(a).toMatchObject({ remoteProductId: ids[0], title: 'Drift Shown', visible: true });
    expect(a?.variants.map((v) => v.sku).sort()).toEqual(skusOf(shown).sort());
    expect(a?.variants.map((v) => Number(v.price))).toEqual(shown.variants.map(() => 25));
    expect(b).toMatchObject({ remoteProductId: hiddenId, visible: false });
    expect(c).toBeNull();
  });

  it('a retry after a lost answer finishes the same product, never a duplicate', async () => {
    const product = tee();
    const recorded = { id: null as string | null };
    await h.loseNextCreate();
    await expect(publish(product, recorded)).rejects.toThrow();
    const outcome = await publish(product, recorded);
    const remote = await h.remote(await store(), skusOf(product));
    expect(remote).toHaveLength(1);
    expect(remote[0]).toMatchObject({ visible: true, title: product.title });
    expect(remote[0]?.id).toContain(outcome.remoteProductId.split('/').pop());
    expect(remote[0]?.skus.sort()).toEqual(skusOf(product).sort());
  });

  it('a rate limit the store holds to answers 503 RATE_LIMITED; the retry after it succeeds', async () => {
    const product = tee();
    const recorded = { id: null as string | null };
    const limit = await h.rateLimit();
    let error: AppError;
    try {
      error = await refusal(publish(product, recorded));
    } finally {
      await limit.lift();
    }
    expect(error).toMatchObject({ statusCode: 503, code: 'RATE_LIMITED' });
    await publish(product, recorded);
    expect(await h.remote(await store(), skusOf(product))).toHaveLength(1);
  });

  it('a refused request (credentials the store no longer knows) is a 4xx/5xx naming the store, not a crash', async () => {
    const product = tee();
    const kept = await store();
    // Written to the row too: an adapter may read its credentials afresh.
    const { accessTokenEnc } = h.revoked(kept);
    await t.deps.db.update(integrations).set({ accessTokenEnc }).where(eq(integrations.id, storeId));
    try {
      for (const refused of [adapter.verify(await store()), adapter.publish(await contextFor(product, { id: null }))]) {
        const error = await refusal(refused);
        expect(error.statusCode).toBeGreaterThanOrEqual(400);
        expect(error.statusCode).not.toBe(500);
        expect(error.message.length).toBeGreaterThan(0);
      }
    } finally {
      // The refusal may mark the store as needing a reconnect; the suite's store carries on connected.
      await t.deps.db
        .update(integrations)
        .set({ status: 'connected', accessTokenEnc: kept.accessTokenEnc })
        .where(eq(integrations.id, storeId));
    }
  });

  it("reads an order in: paid, its line matched to our variant, the buyer's address", async () => {
    const product = tee();
    const outcome = await publish(product);
    const variant = product.variants[1];
    if (!variant) throw new Error('no variant');
    const since = new Date(Date.now() - 5_000);
    const remoteOrderId = await h.placeOrder(await store(), variant.sku);
    const orders = await adapter.readOrders(await store(), since);
    const order = orders.find((o) => o.remoteOrderId === remoteOrderId);
    expect(order).toMatchObject({ cancelled: false, address: { city: BUYER.city, countryCode: 'US', zip: BUYER.zip } });
    expect(order?.lines).toHaveLength(1);
    const [line] = order?.lines ?? [];
    expect(line).toMatchObject({ sku: variant.sku, quantity: 1, price: '25.00' });
    // The store's variant id, when it names one, is the one the push recorded as ours.
    if (outcome.remoteVariants && line?.remoteVariantId)
      expect(outcome.remoteVariants[line.remoteVariantId]).toBe(variant.id);
    // A read from after it changed does not answer it again (a minute past both clocks: a store's fake may run on the
    // app's, which a client's waits have moved on).
    const later = await adapter.readOrders(await store(), new Date(Math.max(Date.now(), appNow().getTime()) + 60_000));
    expect(later.map((o) => o.remoteOrderId)).not.toContain(remoteOrderId);
  });

  it("sends a shipped order's tracking to the store once; a retry makes no second shipment", async () => {
    const product = tee();
    await publish(product);
    const sku = product.variants[0]?.sku ?? '';
    const since = new Date(Date.now() - 5_000);
    const remoteOrderId = await h.placeOrder(await store(), sku);
    const read = (await adapter.readOrders(await store(), since)).find((o) => o.remoteOrderId === remoteOrderId);
    const tracking = {
      carrier: 'USPS',
      number: `9400${Date.now()}`,
      url: 'https://tools.usps.com/go/TrackConfirmAction',
      // The shipment carries the order's line of ours.
      lines: (read?.lines ?? []).map((l) => ({ remoteLineId: l.remoteLineId })),
    };
    const id = await adapter.sendTracking(await store(), remoteOrderId, tracking);
    expect(id).toBeTruthy();
    expect(await h.trackingOf(await store(), remoteOrderId)).toEqual([tracking.number]);
    // The answer was lost and the step runs again: the same shipment answered, or a 409 that it is done already.
    const again = await adapter.sendTracking(await store(), remoteOrderId, tracking).then(
      (same) => same,
      (e: unknown) => e,
    );
    if (typeof again === 'string') expect(again).toBe(id);
    else expect(again).toMatchObject({ statusCode: 409 });
    expect(await h.trackingOf(await store(), remoteOrderId)).toEqual([tracking.number]);
  });

  it('a host that strips the Authorization header: the keys go in the query string over https, and it works (#27.10)', async ({
    skip,
  }) => {
    if (!h.stripAuthorization) return skip();
    const stripped = await h.stripAuthorization(await store());
    try {
      await adapter.verify(await store());
      const product = tee();
      await publish(product);
      expect(await h.remote(await store(), skusOf(product))).toHaveLength(1);
      // Keys the store does not know are still refused, by name, with the keys in the query too.
      expect((await refusal(adapter.verify(h.revoked(await store())))).statusCode).toBeGreaterThanOrEqual(400);
    } finally {
      await stripped.restore();
    }
  });

  it("fulfils only our lines, per shipment, across every location's fulfillment order; the seller's own item stays open (issue #27, 6)", async ({
    skip,
  }) => {
    const lineByLine = h.lineByLine;
    if (!lineByLine) return skip();
    const product = tee();
    await publish(product);
    const [first, second] = skusOf(product) as [string, string];
    const since = new Date(Date.now() - 5_000);
    const remoteOrderId = await lineByLine.placeMixedOrder(await store(), [first, second]);
    const read = (await adapter.readOrders(await store(), since)).find((o) => o.remoteOrderId === remoteOrderId);
    const lineOf = (sku: string) => read?.lines.find((l) => l.sku === sku)?.remoteLineId as string;
    const number = `1Z${Date.now()}`;
    // Two parcels: one of the first line's two pieces, then the rest of ours (two locations: two fulfilments).
    const one = await adapter.sendTracking(await store(), remoteOrderId, {
      carrier: 'UPS',
      number: `${number}-1`,
      url: null,
      lines: [{ remoteLineId: lineOf(first), quantity: 1 }],
    });
    expect(one.split(',')).toHaveLength(1);
    expect(await lineByLine.unfulfilled(await store(), remoteOrderId)).toEqual({
      [first]: 1,
      [second]: 1,
      'Gift wrap (the seller’s own)': 1,
    });
    const rest = {
      carrier: 'UPS',
      number: `${number}-2`,
      url: null,
      lines: [{ remoteLineId: lineOf(first) }, { remoteLineId: lineOf(second) }],
    };
    const two = await adapter.sendTracking(await store(), remoteOrderId, rest);
    expect(two.split(',')).toHaveLength(2);
    expect(await lineByLine.unfulfilled(await store(), remoteOrderId)).toEqual({
      [first]: 0,
      [second]: 0,
      'Gift wrap (the seller’s own)': 1,
    });
    // The answer was lost: the same shipment again makes nothing new and answers what was made.
    expect(await adapter.sendTracking(await store(), remoteOrderId, rest)).toBe(two);
    expect(await h.trackingOf(await store(), remoteOrderId)).toEqual([`${number}-1`, `${number}-2`, `${number}-2`]);
  });

  it('refreshes an expiring access token before it calls, and the call succeeds (keys that never expire: kept)', async () => {
    const before = await store();
    offsetMs += 2 * HOUR;
    const product = tee();
    await publish(product);
    const after = await store();
    if (h.tokensExpire) {
      expect(after.accessTokenEnc).not.toBe(before.accessTokenEnc);
      expect(after.tokenExpiresAt?.getTime()).toBeGreaterThan(before.tokenExpiresAt?.getTime() ?? 0);
    } else {
      // Keys without an expiry (WooCommerce's REST keys) are used as they are, hours later too.
      expect(after.accessTokenEnc).toBe(before.accessTokenEnc);
      expect(after.tokenExpiresAt).toBeNull();
    }
    expect(await h.remote(after, skusOf(product))).toHaveLength(1);
  });

  it('tracking days after the order: an expired access token is refreshed first, and the store takes it (#27.2)', async () => {
    const product = tee();
    await publish(product);
    const since = new Date(Date.now() - 5_000);
    const remoteOrderId = await h.placeOrder(await store(), product.variants[0]?.sku ?? '');
    const read = (await adapter.readOrders(await store(), since)).find((o) => o.remoteOrderId === remoteOrderId);
    const before = await store();
    // The printer ships three days later: the hour-long access token of the connection ran out long ago.
    // (The app's clock only moves forward: a clock turned back would find tokens and rate buckets from the future.)
    offsetMs += 72 * HOUR;
    const tracking = {
      carrier: 'USPS',
      number: `9400${Date.now()}`,
      url: null,
      lines: (read?.lines ?? []).map((l) => ({ remoteLineId: l.remoteLineId })),
    };
    expect(await adapter.sendTracking(await store(), remoteOrderId, tracking)).toBeTruthy();
    expect(await h.trackingOf(await store(), remoteOrderId)).toEqual([tracking.number]);
    if (h.tokensExpire) expect((await store()).accessTokenEnc).not.toBe(before.accessTokenEnc);
  });
});
