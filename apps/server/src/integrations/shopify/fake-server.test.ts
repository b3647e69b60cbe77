import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductSetInput, ShopifyClient, ShopifyError } from './client';
import { type FakeShopify, startFakeShopify } from './fake-server';
import { memoryFakeShopifyStore } from './fake-state';
import { queryCost } from './query-cost';

/** The fake is strict where Shopify is (apis.md E3, A3): what a client that forgets something gets. */

let fake: FakeShopify;
const shop = 'strict-shop.myshopify.com';

beforeAll(async () => {
  fake = await startFakeShopify({ apiKey: 'k', apiSecret: 's' });
});
afterAll(async () => {
  await fake.close();
});

/** A client and a token granted `scopes` through the fake's OAuth. */
async function tokenWith(scopes: string[], apiVersion = '2026-04', log?: (message: string) => void) {
  const client = new ShopifyClient({
    apiKey: 'k',
    apiSecret: 's',
    scopes,
    apiVersion,
    shopBaseUrl: (name) => `${fake.url}/${name}`,
    sleep: async () => {},
    log,
  });
  const approved = await fetch(client.authorizeUrl(shop, 'st', 'http://app.test/cb'), { redirect: 'manual' });
  const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
  const { accessToken } = await client.exchangeCode(shop, code);
  return { client, token: accessToken };
}

/** A one-variant product; what the variant says about stock is up to the test (the fake accepts any input). */
const tee = (variant: Record<string, unknown> = {}): ProductSetInput =>
  ({
    title: 'Strict Tee',
    handle: `strict-${Math.random().toString(36).slice(2)}`,
    descriptionHtml: '',
    productType: 'tshirt',
    tags: [],
    status: 'ACTIVE' as const,
    productOptions: [{ name: 'Size', position: 1, values: [{ name: 'S' }] }],
    variants: [{ optionValues: [{ optionName: 'Size', name: 'S' }], price: '20.00', ...variant }],
  }) as unknown as ProductSetInput;

describe('the fake Shopify (apis.md E3)', () => {
  it('makes new variants tracked with 0 in stock and DENY: not for sale unless untracked or CONTINUE', async () => {
    const { client, token } = await tokenWith(['write_products', 'write_publications']);
    const bare = await client.productSet(shop, token, tee());
    const untracked = await client.productSet(
      shop,
      token,
      tee({ inventoryPolicy: 'DENY', inventoryItem: { tracked: false } }),
    );
    const continues = await client.productSet(
      shop,
      token,
      tee({ inventoryPolicy: 'CONTINUE', inventoryItem: { tracked: true } }),
    );
    const sold = async (id: string) =>
      (await fake.storefront(shop)).find((p) => p.id === id)?.variants.map((v) => v.availableForSale);
    expect(await sold(bare.id)).toEqual([false]);
    expect(await sold(untracked.id)).toEqual([true]);
    expect(await sold(continues.id)).toEqual([true]);
  });

  it('shows buyers only ACTIVE products published to the Online Store', async () => {
    const { client, token } = await tokenWith(['write_products', 'write_publications']);
    const product = await client.productSet(shop, token, tee({ inventoryPolicy: 'CONTINUE' }));
    const online = async () => (await fake.storefront(shop)).find((p) => p.id === product.id)?.onlineStore;
    expect(await online()).toBe(false);
    const publication = await client.onlineStorePublicationId(shop, token);
    expect(publication).toBe(fake.onlineStorePublicationId(shop));
    await client.publish(shop, token, product.id, publication);
    expect(await online()).toBe(true);
    await client.archiveProduct(shop, token, product.id);
    expect(await online()).toBe(false);
    await client.deleteProduct(shop, token, product.id);
    expect((await fake.products(shop)).some((p) => p.id === product.id)).toBe(false);
  });

  it('enforces scopes with ACCESS_DENIED: write_products to make products, write_publications to publish', async () => {
    const { client, token } = await tokenWith(['read_orders']);
    const refused = await client.productSet(shop, token, tee()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ShopifyError);
    expect((refused as ShopifyError).code).toBe('ACCESS_DENIED');
    expect((refused as ShopifyError).message).toMatch(/write_products/);
    const products = await tokenWith(['write_products']);
    const made = await products.client.productSet(shop, products.token, tee());
    const publish = await products.client
      .publish(shop, products.token, made.id, fake.onlineStorePublicationId(shop))
      .catch((e: unknown) => e);
    expect((publish as ShopifyError).message).toMatch(/write_publications/);
  });

  it('moves media UPLOADED -> PROCESSING -> READY, or FAILED when switched, and refuses a variant file not in files', async () => {
    const { client, token } = await tokenWith(['write_products', 'write_publications']);
    const upload = () =>
      client.stagedUpload(shop, token, { filename: 'a.png', mimeType: 'image/png', bytes: Buffer.from('png bytes') });
    const good = await upload();
    const file = { originalSource: good, contentType: 'IMAGE' as const, alt: 'Front' };
    const product = await client.productSet(shop, token, { ...tee({ file }), files: [file] });
    const statuses: string[] = [];
    const media = await client.waitForMedia(shop, token, product.id, {
      onPoll: async (m) => {
        statuses.push(m[0]?.status ?? '');
      },
    });
    expect(statuses).toEqual(['PROCESSING', 'READY']);
    expect(media[0]?.status).toBe('READY');
    const [front] = (await fake.storefront(shop)).filter((p) => p.id === product.id);
    expect(front?.variants[0]?.image).toBe(front?.images[0]?.url);

    fake.failNextMedia(1);
    const bad = await upload();
    const badFile = { originalSource: bad, contentType: 'IMAGE' as const, alt: 'Broken' };
    const failing = await client.productSet(shop, token, { ...tee(), files: [badFile] });
    const ended = await client.waitForMedia(shop, token, failing.id);
    expect(ended[0]).toMatchObject({ status: 'FAILED', mediaErrors: [{ message: 'Image could not be processed' }] });

    const stray = await client.productSet(shop, token, tee({ file })).catch((e: unknown) => e);
    expect((stray as ShopifyError).message).toMatch(/must also be specified in the files input/);
  });

  it('prices nested connections multiplied and refuses a query over 1000 points (MAX_COST_EXCEEDED)', async () => {
    expect(queryCost('query { products(first: 10) { nodes { variants(first: 100) { nodes { id } } } } }')).toBe(
      1 + 2 + 10 * (1 + 2 + 100),
    );
    const { client, token } = await tokenWith(['write_products']);
    const refused = await client
      .graphql(shop, token, 'query { products(first: 50) { nodes { variants(first: 100) { nodes { id } } } } }')
      .catch((e: unknown) => e);
    expect((refused as ShopifyError).code).toBe('MAX_COST_EXCEEDED');
  });
});

describe('the fake Shopify keeps orders in its store', () => {
  it('shows an order placed on one instance to another on the same store, with its cancellation', async () => {
    const store = memoryFakeShopifyStore();
    const [one, two] = await Promise.all([0, 1].map(() => startFakeShopify({ apiKey: 'k', apiSecret: 's', store })));
    if (!one || !two) throw new Error('two fakes expected');
    try {
      const placed = await one.orders.placePaidOrder(shop, {
        lines: [{ title: 'Custom item', price: '12.50', quantity: 2 }],
        address: null,
      });
      const seen = await two.orders.orders(shop);
      expect(seen.map((o) => [o.id, o.name, o.total])).toEqual([[placed.id, '#1001', '25.00']]);
      await two.orders.cancelOrder(shop, placed.id);
      const [after] = await one.orders.orders(shop);
      expect(after?.cancelledAt).not.toBeNull();
      expect(after?.fulfillmentOrders.map((fo) => fo.status)).toEqual(['CANCELLED']);
      const next = await two.addOrder(shop, { total: '5.00' });
      expect(next.name).toBe('#1002');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});

describe("the fake Shopify's API versions (shopify.dev/docs/api/usage/versioning)", () => {
  it('serves a supported version as asked, and our client logs nothing', async () => {
    const logged: string[] = [];
    const { client, token } = await tokenWith(['read_products'], '2026-04', (m) => logged.push(m));
    await client.shop(shop, token);
    expect(fake.received.at(-1)).toMatchObject({ asked: '2026-04', served: '2026-04' });
    expect(logged).toEqual([]);
  });

  it('falls a retired version forward to the oldest supported one, says so in a header, and our client logs it once', async () => {
    const logged: string[] = [];
    const { client, token } = await tokenWith(['read_products'], '2025-10', (m) => logged.push(m));
    const raw = await fetch(`${fake.url}/${shop}/admin/api/2025-10/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query: 'query shop { shop { name } }' }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('x-shopify-api-version')).toBe('2026-01');
    await client.shop(shop, token);
    await client.shop(shop, token);
    expect(fake.received.at(-1)).toMatchObject({ asked: '2025-10', served: '2026-01' });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/asked for Shopify API 2025-10.*served 2026-01/);
  });

  it('answers 404 to a version that is malformed or not released', async () => {
    const { token } = await tokenWith(['read_products']);
    for (const version of ['2026-05', '2027-10', 'latest', '26-04']) {
      const res = await fetch(`${fake.url}/${shop}/admin/api/${version}/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
        body: JSON.stringify({ query: 'query shop { shop { name } }' }),
      });
      expect([version, res.status]).toEqual([version, 404]);
    }
  });

  it('signs webhooks with the version in use, not a fixed one', async () => {
    const seen: (string | undefined)[] = [];
    const mine = await startFakeShopify({
      apiKey: 'k',
      apiSecret: 's',
      apiVersion: '2026-07',
      webhookTransport: async (_url, { headers }) => {
        seen.push(headers['X-Shopify-API-Version']);
        return { status: 200 };
      },
    });
    try {
      const order = await mine.orders.placePaidOrder(shop, {
        lines: [{ title: 'Mug', price: '9.00', quantity: 1 }],
        address: null,
      });
      expect(order.id).toBeGreaterThan(0);
      expect(mine.orders.deliveries.at(-1)?.headers['x-shopify-api-version']).toBe('2026-07');
      await mine.webhooks.sendTo('https://app.example.com/hook', shop, 'shop/redact', {});
      expect(seen).toEqual(['2026-07']);
      const retired = await startFakeShopify({ apiKey: 'k', apiSecret: 's', apiVersion: '2025-10' });
      try {
        await retired.orders.placePaidOrder(shop, {
          lines: [{ title: 'Mug', price: '9.00', quantity: 1 }],
          address: null,
        });
        expect(retired.orders.deliveries.at(-1)?.headers['x-shopify-api-version']).toBe('2026-01');
      } finally {
        await retired.close();
      }
    } finally {
      await mine.close();
    }
  });

  it('refuses callbackUrl, removed from WebhookSubscriptionInput, naming the field', async () => {
    const { client, token } = await tokenWith(['read_orders']);
    const create = `mutation webhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) { webhookSubscription { id } userErrors { field message } } }`;
    await expect(
      client.graphql(shop, token, create, {
        topic: 'ORDERS_PAID',
        webhookSubscription: { callbackUrl: 'https://app.example.com/hook', format: 'JSON' },
      }),
    ).rejects.toThrow(/invalid value for callbackUrl \(Field is not defined on WebhookSubscriptionInput\)/);
    await client.webhookSubscriptionCreate(shop, token, 'ORDERS_PAID', 'https://app.example.com/hook');
    expect(fake.webhooks.subscriptions(shop).at(-1)).toMatchObject({
      topic: 'ORDERS_PAID',
      uri: 'https://app.example.com/hook',
    });
  });
});

describe("the fake Shopify executes GraphQL on Shopify's schema (issue #27, point 1)", () => {
  /** The raw answer to a document, as Shopify sends it (status and JSON body). */
  const post = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${fake.url}/${shop}/admin/api/2026-04/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query, variables }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: Record<string, unknown>[] } };
  };

  it('refuses a field the schema lacks and a selection on a scalar, as graphql-ruby words them (HTTP 200)', async () => {
    const { token } = await tokenWith(['read_products']);
    const unknown = await post(token, 'query { shop { name planetName } }');
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toBeUndefined();
    expect(unknown.body.errors).toEqual([
      expect.objectContaining({
        message: "Field 'planetName' doesn't exist on type 'Shop'",
        extensions: { code: 'undefinedField' },
      }),
    ]);
    const leaf = await post(token, 'query { shop { name { value } } }');
    expect(leaf.body.errors?.[0]).toMatchObject({ extensions: { code: 'selectionMismatch' } });
    const missingArg = await post(token, 'query { product { id } }');
    expect(missingArg.body.errors?.[0]).toMatchObject({
      message: "Field 'product' is missing required arguments: id",
      extensions: { code: 'missingRequiredArguments' },
    });
  });

  it('refuses variables of the wrong type, naming the path and the problem', async () => {
    const { token } = await tokenWith(['write_products']);
    const res = await post(
      token,
      'mutation m($product: ProductUpdateInput!) { productUpdate(product: $product) { userErrors { message } } }',
      { product: { id: 'gid://shopify/Product/1', status: 'SOLD_OUT', colour: 'red' } },
    );
    expect(res.status).toBe(200);
    const [error] = res.body.errors ?? [];
    expect(error?.message).toMatch(/^Variable \$product of type ProductUpdateInput! was provided invalid value for /);
    expect(error?.extensions).toMatchObject({
      code: 'INVALID_VARIABLE',
      problems: expect.arrayContaining([
        { path: ['status'], explanation: expect.stringContaining('to be one of: ACTIVE, ARCHIVED, DRAFT') },
        { path: ['colour'], explanation: 'Field is not defined on ProductUpdateInput' },
      ]),
    });
    const notGlobal = await post(token, 'query p($id: ID!) { product(id: $id) { id } }', { id: '632910392' });
    expect(notGlobal.body.errors?.[0]).toMatchObject({
      message: 'Variable $id of type ID! was provided invalid value',
      extensions: { code: 'INVALID_VARIABLE', problems: [{ path: [], explanation: 'Invalid global id `632910392`' }] },
    });
    const missing = await post(token, 'query p($id: ID!) { product(id: $id) { id } }', {});
    expect(missing.body.errors?.[0]).toMatchObject({
      message: 'Variable $id of type ID! was provided invalid value',
      extensions: { code: 'INVALID_VARIABLE', problems: [{ path: [], explanation: 'Expected value to not be null' }] },
    });
  });

  it('answers only the fields asked for, pages by the parsed `first`, and wants first or last on a connection', async () => {
    const { client, token } = await tokenWith(['write_products']);
    await client.productSet(shop, token, tee());
    await client.productSet(shop, token, tee());
    // A literal 5 deeper in the document is not the page size: the argument is.
    const paged = await post(
      token,
      'query p($n: Int!) { products(first: $n) { nodes { title variants(first: 5) { nodes { price } } } } }',
      { n: 1 },
    );
    const nodes = (paged.body.data as { products: { nodes: Record<string, unknown>[] } }).products.nodes;
    expect(nodes).toEqual([{ title: 'Strict Tee', variants: { nodes: [{ price: '20.00' }] } }]);
    const aliased = await post(token, 'query { shop { shopName: name } }');
    expect(aliased.body).toMatchObject({ data: { shop: { shopName: 'strict-shop' } } });
    expect(Object.keys((aliased.body.data as { shop: object }).shop)).toEqual(['shopName']);
    const deprecated = await fetch(`${fake.url}/${shop}/admin/api/2026-04/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': token },
      body: JSON.stringify({ query: 'query { publications(first: 1) { nodes { name } } }' }),
    });
    expect(deprecated.headers.get('x-shopify-api-deprecated-reason')).toMatch(/^https:\/\/shopify\.dev\//);
    const unbounded = await post(token, 'query { products { nodes { id } } }');
    expect(unbounded.body.errors?.[0]).toMatchObject({
      message: 'you must provide one of first or last',
      path: ['products'],
    });
  });
});

describe('the fake Shopify without protected customer data approval (issue #27, 3)', () => {
  it('refuses orders webhooks with a userError, withholds customer and address, and redacts a webhook address', async () => {
    const mine = await startFakeShopify({ apiKey: 'k', apiSecret: 's', protectedCustomerData: 'none' });
    try {
      const client = new ShopifyClient({
        apiKey: 'k',
        apiSecret: 's',
        scopes: ['read_orders'],
        apiVersion: '2026-04',
        shopBaseUrl: (name) => `${mine.url}/${name}`,
        sleep: async () => {},
      });
      const approved = await fetch(client.authorizeUrl(shop, 'st', 'http://app.test/cb'), { redirect: 'manual' });
      const code = new URL(approved.headers.get('location') as string).searchParams.get('code') as string;
      const { accessToken } = await client.exchangeCode(shop, code);
      const refused = await client
        .webhookSubscriptionCreate(shop, accessToken, 'ORDERS_PAID', 'https://app.example.com/hook')
        .catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'PROTECTED_CUSTOMER_DATA' });
      expect((refused as Error).message).toMatch(/not approved to subscribe to webhook topics containing protected/);
      await client.webhookSubscriptionCreate(shop, accessToken, 'APP_UNINSTALLED', 'https://app.example.com/hook');

      const address = { name: 'Ada', address1: '1 Row', city: 'London', country_code: 'GB', zip: 'N1' };
      await mine.orders.placePaidOrder(shop, { lines: [{ title: 'Mug', price: '9.00', quantity: 1 }], address });
      const res = await fetch(`${mine.url}/${shop}/admin/api/2026-04/graphql.json`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': accessToken },
        body: JSON.stringify({
          query: 'query { orders(first: 5) { nodes { name customer { id } shippingAddress { city } } } }',
        }),
      });
      const body = (await res.json()) as { data: unknown; errors: { message: string; path: unknown[] }[] };
      expect(res.status).toBe(200);
      expect(body.data).toEqual({ orders: { nodes: [{ name: '#1001', customer: null, shippingAddress: null }] } });
      expect(body.errors.map((e) => [e.path, e.message])).toEqual([
        [['orders', 'nodes', 0, 'customer'], expect.stringContaining('not approved to access the Customer object')],
        [['orders', 'nodes', 0, 'shippingAddress'], expect.stringContaining('not approved to use the shippingAddress')],
      ]);

      mine.setProtectedCustomerData('level1');
      await mine.orders.placePaidOrder(shop, { lines: [{ title: 'Mug', price: '9.00', quantity: 1 }], address });
      expect(JSON.parse(mine.orders.deliveries.at(-1)?.body ?? '{}')).toMatchObject({ shipping_address: null });
    } finally {
      await mine.close();
    }
  });
});

describe('query cost from the parsed document (apis.md A3)', () => {
  it('reads first/last as arguments (literal or variable), through fragments, not the first number in the text', () => {
    // A literal 5 inside a title filter is no page size; the variable is.
    expect(queryCost('query p($n: Int!) { products(first: $n, query: "title:5") { nodes { id } } }', { n: 3 })).toBe(
      1 + 2 + 3 * 1,
    );
    expect(queryCost('query { orders(last: 4) { nodes { id } } }')).toBe(1 + 2 + 4 * 1);
    expect(
      queryCost(
        'query { products(first: 2) { nodes { ...P } } } fragment P on Product { variants(first: 10) { nodes { id } } }',
      ),
    ).toBe(1 + 2 + 2 * (1 + 2 + 10));
    expect(queryCost('mutation m { shop { name } }')).toBe(10);
  });
});
