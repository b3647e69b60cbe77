import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isValidShopDomain, queryHmac, webhookHmac } from './hmac';

/**
 * A local Shopify (apis.md A, checklist D): OAuth authorize (auto-approve) and access_token, and the Admin GraphQL
 * calls Podforge makes (shop, productSet, stagedUploadsCreate, products, orders), with a cost bucket per token.
 * Shops live under a path prefix: `{url}/{shop}/admin/...`, so the client's base URL is `{url}/{shop}`.
 * The API tests and e2e use it, and it is the built-in sandbox the app runs when SHOPIFY_API_KEY is not set.
 * Listens on 127.0.0.1 only; every shop with a valid *.myshopify.com name exists.
 */

export type FakeShopifyOptions = {
  apiKey?: string;
  apiSecret?: string;
  /** Callback URLs must start with one of these; any when empty. */
  redirectUriPrefixes?: string[];
  now?: () => number;
  /** Shops that do not exist: everything under them answers 404. */
  unknownShops?: string[];
  /** Bucket size and refill per second (Shopify's standard plan: 2000 and 100). */
  bucket?: { maximum: number; restoreRate: number };
};

type Variant = { id: string; title: string; price: string; sku: string | null; selectedOptions: Opt[] };
type Opt = { name: string; value: string };
type Media = { id: string; alt: string; originalSource: string; status: 'UPLOADED' | 'READY'; reads: number };
export type FakeProduct = {
  id: string;
  handle: string;
  title: string;
  descriptionHtml: string;
  productType: string;
  tags: string[];
  status: string;
  options: { name: string; values: string[] }[];
  variants: Variant[];
  media: Media[];
  createdAt: string;
  updatedAt: string;
};
export type FakeOrder = { id: string; name: string; createdAt: string; total: string; currency: string };
type Shop = { products: Map<string, FakeProduct>; orders: FakeOrder[] };

export type FakeShopify = {
  url: string;
  apiKey: string;
  apiSecret: string;
  /** The shop's products (by GID), for tests and the sandbox page. */
  products(shop: string): FakeProduct[];
  addOrder(shop: string, order: { total: string; currency?: string; createdAt?: Date }): FakeOrder;
  /** The next `n` GraphQL calls answer THROTTLED (HTTP 200) with an empty bucket. */
  throttleNext(n: number): void;
  /**
   * The next productSet fails: `userError` answers a userError and changes nothing; `after-apply` applies the
   * change and then answers HTTP 500, as when the connection drops after Shopify did the work.
   */
  failNextProductSet(mode: 'userError' | 'after-apply', message?: string): void;
  /** The next authorize redirect carries a wrong hmac. */
  tamperNextHmac(): void;
  /** Signs a webhook the way Shopify does (apis.md A4). */
  signWebhook(body: string): string;
  /** GraphQL calls by top-level field, in order, with whether they were throttled. */
  calls: { field: string; throttled: boolean }[];
  close(): Promise<void>;
};

const json = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', 'X-Request-Id': randomUUID(), ...headers });
  res.end(JSON.stringify(body));
};

const readRaw = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

const numericId = () => String(Math.floor(1e9 + Math.random() * 8e9));

/** The top-level field of the operation, e.g. `productSet` in `mutation x($a: T) { productSet(...) {...} }`. */
export function topLevelField(query: string): string | null {
  const open = query.indexOf('{');
  if (open < 0) return null;
  return /^\s*([A-Za-z_]\w*)/.exec(query.slice(open + 1))?.[1] ?? null;
}

export async function startFakeShopify(options: FakeShopifyOptions = {}): Promise<FakeShopify> {
  const apiKey = options.apiKey ?? 'fake-shopify-key';
  const apiSecret = options.apiSecret ?? 'fake-shopify-secret';
  const now = options.now ?? Date.now;
  const { maximum, restoreRate } = options.bucket ?? { maximum: 2000, restoreRate: 100 };
  const shops = new Map<string, Shop>();
  const codes = new Map<string, { shop: string; scope: string; expiresAt: number }>();
  const tokens = new Map<string, { shop: string; scope: string }>();
  const buckets = new Map<string, { available: number; at: number }>();
  const staged = new Map<string, { bytes: Buffer; type: string }>();
  const calls: FakeShopify['calls'] = [];
  let throttle = 0;
  let failNext: { mode: 'userError' | 'after-apply'; message: string } | null = null;
  let tamper = false;
  let base = '';

  const shopOf = (name: string): Shop => {
    let shop = shops.get(name);
    if (!shop) {
      shop = { products: new Map(), orders: [] };
      shops.set(name, shop);
    }
    return shop;
  };

  /** A leaky bucket per token: a call costs 10 (mutation) or 2 + first (connection), refilled per second. */
  const spend = (token: string, cost: number) => {
    const t = now();
    const b = buckets.get(token) ?? { available: maximum, at: t };
    b.available = Math.min(maximum, b.available + ((t - b.at) / 1000) * restoreRate);
    b.at = t;
    const ok = b.available >= cost;
    if (ok) b.available -= cost;
    buckets.set(token, b);
    return {
      ok,
      extensions: {
        cost: {
          requestedQueryCost: cost,
          actualQueryCost: ok ? cost : null,
          throttleStatus: { maximumAvailable: maximum, currentlyAvailable: Math.floor(b.available), restoreRate },
        },
      },
    };
  };

  const productNode = (p: FakeProduct) => {
    for (const m of p.media) {
      // Media are processed asynchronously: UPLOADED on the first read, READY on a later one.
      m.reads += 1;
      if (m.reads > 1) m.status = 'READY';
    }
    return {
      id: p.id,
      title: p.title,
      handle: p.handle,
      status: p.status,
      descriptionHtml: p.descriptionHtml,
      productType: p.productType,
      tags: p.tags,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
      options: p.options.map((o, i) => ({ name: o.name, position: i + 1, values: o.values })),
      variants: { nodes: p.variants },
      media: {
        nodes: p.media.map((m) => ({
          id: m.id,
          alt: m.alt,
          mediaContentType: 'IMAGE',
          status: m.status,
          preview: { image: m.status === 'READY' ? { url: m.originalSource } : null },
        })),
      },
    };
  };

  type SetInput = {
    title?: string;
    handle?: string;
    descriptionHtml?: string;
    productType?: string;
    tags?: string[];
    status?: string;
    productOptions?: { name: string; values: { name: string }[] }[];
    variants?: { optionValues: { optionName: string; name: string }[]; price: string | number; sku?: string }[];
    files?: { originalSource: string; alt?: string }[];
  };
  type UserError = { field: string[] | null; message: string; code: string };

  const validateSet = (input: SetInput): UserError[] => {
    const errors: UserError[] = [];
    if (!input.title?.trim())
      errors.push({ field: ['input', 'title'], message: "Title can't be blank", code: 'BLANK' });
    const options = input.productOptions ?? [];
    if (options.length > 3) {
      errors.push({ field: ['input', 'productOptions'], message: 'Too many options', code: 'INVALID_INPUT' });
    }
    const variants = input.variants ?? [];
    if (variants.length > 100) {
      errors.push({ field: ['input', 'variants'], message: 'Too many variants', code: 'TOO_MANY_VARIANTS' });
    }
    if ((input.tags ?? []).length > 250) {
      errors.push({ field: ['input', 'tags'], message: 'Too many tags', code: 'INVALID_INPUT' });
    }
    const seen = new Set<string>();
    variants.forEach((v, i) => {
      const key = v.optionValues.map((o) => `${o.optionName}=${o.name}`).join('|');
      if (seen.has(key)) {
        errors.push({
          field: ['input', 'variants', String(i)],
          message: `The variant '${v.optionValues.map((o) => o.name).join(' / ')}' already exists.`,
          code: 'DUPLICATE_VARIANT',
        });
      }
      seen.add(key);
      const price = Number(v.price);
      if (!Number.isFinite(price) || price < 0) {
        errors.push({
          field: ['input', 'variants', String(i), 'price'],
          message: 'Price must be a non-negative amount',
          code: 'INVALID_INPUT',
        });
      }
      for (const o of v.optionValues) {
        if (!options.some((p) => p.name === o.optionName && p.values.some((x) => x.name === o.name))) {
          errors.push({
            field: ['input', 'variants', String(i), 'optionValues'],
            message: `Option value '${o.name}' is not listed in productOptions`,
            code: 'INVALID_INPUT',
          });
        }
      }
    });
    return errors;
  };

  const applySet = (shop: Shop, input: SetInput, identifier: { id?: string; handle?: string } | undefined) => {
    const existing = identifier?.id
      ? shop.products.get(identifier.id)
      : [...shop.products.values()].find((p) => p.handle === (identifier?.handle ?? input.handle));
    if (identifier?.id && !existing) return { error: 'Product does not exist' };
    const stamp = new Date(now()).toISOString();
    const handle =
      input.handle ??
      (input.title ?? 'product')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
    const product: FakeProduct = existing ?? {
      id: `gid://shopify/Product/${numericId()}`,
      handle,
      title: '',
      descriptionHtml: '',
      productType: '',
      tags: [],
      status: 'DRAFT',
      options: [],
      variants: [],
      media: [],
      createdAt: stamp,
      updatedAt: stamp,
    };
    product.handle = handle;
    product.title = input.title ?? product.title;
    product.descriptionHtml = input.descriptionHtml ?? product.descriptionHtml;
    product.productType = input.productType ?? product.productType;
    product.tags = input.tags ?? product.tags;
    product.status = input.status ?? product.status;
    product.options = (input.productOptions ?? []).map((o) => ({ name: o.name, values: o.values.map((v) => v.name) }));
    // List fields are replaced (apis.md productSet): a variant or file not listed is gone.
    product.variants = (input.variants ?? []).map((v) => ({
      id: `gid://shopify/ProductVariant/${numericId()}`,
      title: v.optionValues.map((o) => o.name).join(' / '),
      price: Number(v.price).toFixed(2),
      sku: v.sku ?? null,
      selectedOptions: v.optionValues.map((o) => ({ name: o.optionName, value: o.name })),
    }));
    if (input.files) {
      product.media = input.files.map((f) => ({
        id: `gid://shopify/MediaImage/${numericId()}`,
        alt: f.alt ?? '',
        originalSource: f.originalSource,
        status: 'UPLOADED',
        reads: 0,
      }));
    }
    product.updatedAt = stamp;
    shop.products.set(product.id, product);
    return { product };
  };

  const graphql = async (req: http.IncomingMessage, res: http.ServerResponse, shopName: string, version: string) => {
    const headers = { 'X-Shopify-API-Version': version };
    const token = req.headers['x-shopify-access-token'];
    const grant = typeof token === 'string' ? tokens.get(token) : undefined;
    const raw = await readRaw(req);
    if (!grant || grant.shop !== shopName || typeof token !== 'string') {
      return json(
        res,
        401,
        { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' },
        headers,
      );
    }
    let body: { query?: string; variables?: Record<string, unknown> };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return json(res, 400, { errors: 'Bad Request' }, headers);
    }
    const query = body.query ?? '';
    const vars = body.variables ?? {};
    const field = topLevelField(query) ?? '';
    const isMutation = /^\s*mutation\b/.test(query);
    const first = Number(/first:\s*(\d+)/.exec(query)?.[1] ?? (vars.first as number | undefined) ?? 1);
    const cost = isMutation ? 10 : 2 + first;
    if (throttle > 0) {
      throttle -= 1;
      calls.push({ field, throttled: true });
      return json(
        res,
        200,
        {
          errors: [
            {
              message: 'Throttled',
              extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' },
            },
          ],
          extensions: {
            cost: {
              requestedQueryCost: cost,
              actualQueryCost: null,
              throttleStatus: { maximumAvailable: maximum, currentlyAvailable: 0, restoreRate },
            },
          },
        },
        headers,
      );
    }
    const bucket = spend(token, cost);
    calls.push({ field, throttled: !bucket.ok });
    if (!bucket.ok) {
      return json(
        res,
        200,
        { errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }], extensions: bucket.extensions },
        headers,
      );
    }
    const shop = shopOf(shopName);
    const answer = (data: unknown) => json(res, 200, { data, extensions: bucket.extensions }, headers);
    const scopes = grant.scope.split(',');
    const denied = (needed: string) =>
      json(
        res,
        200,
        {
          errors: [
            {
              message: `Access denied for ${field} field. Required access: \`${needed}\` access scope.`,
              extensions: { code: 'ACCESS_DENIED' },
            },
          ],
          extensions: bucket.extensions,
        },
        headers,
      );

    switch (field) {
      case 'shop':
        return answer({ shop: { name: shopName.replace('.myshopify.com', ''), myshopifyDomain: shopName } });
      case 'productSet': {
        if (!scopes.includes('write_products')) return denied('write_products');
        const input = (vars.input ?? {}) as SetInput;
        const fail = failNext;
        failNext = null;
        if (fail?.mode === 'userError') {
          return answer({ productSet: { product: null, userErrors: [{ field: null, message: fail.message }] } });
        }
        const userErrors = validateSet(input);
        if (userErrors.length) return answer({ productSet: { product: null, userErrors } });
        const result = applySet(shop, input, vars.identifier as { id?: string; handle?: string } | undefined);
        if (fail?.mode === 'after-apply') return json(res, 500, { errors: fail.message }, headers);
        if (!result.product) {
          return answer({
            productSet: {
              product: null,
              userErrors: [{ field: ['identifier', 'id'], message: result.error, code: 'PRODUCT_DOES_NOT_EXIST' }],
            },
          });
        }
        return answer({ productSet: { product: productNode(result.product), userErrors: [] } });
      }
      case 'stagedUploadsCreate': {
        const inputs = (vars.input ?? []) as { filename: string; mimeType: string }[];
        return answer({
          stagedUploadsCreate: {
            stagedTargets: inputs.map((i) => {
              const key = `${randomBytes(8).toString('hex')}/${encodeURIComponent(i.filename)}`;
              return {
                url: `${base}/staged-uploads/${key}`,
                resourceUrl: `${base}/files/${key}`,
                parameters: [
                  { name: 'Content-Type', value: i.mimeType },
                  { name: 'key', value: key },
                ],
              };
            }),
            userErrors: [],
          },
        });
      }
      case 'products': {
        if (!scopes.includes('write_products') && !scopes.includes('read_products')) return denied('read_products');
        const nodes = [...shop.products.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
        return answer({ products: { nodes: nodes.slice(0, first).map(productNode) } });
      }
      case 'orders': {
        if (!scopes.includes('read_orders')) return denied('read_orders');
        const nodes = [...shop.orders].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, first);
        return answer({
          orders: {
            nodes: nodes.map((o) => ({
              id: o.id,
              name: o.name,
              createdAt: o.createdAt,
              totalPriceSet: { shopMoney: { amount: o.total, currencyCode: o.currency } },
            })),
          },
        });
      }
      default:
        return json(
          res,
          200,
          {
            errors: [
              { message: `Field '${field}' doesn't exist on type 'QueryRoot'`, extensions: { code: 'undefinedField' } },
            ],
          },
          headers,
        );
    }
  };

  const authorize = (res: http.ServerResponse, shop: string, params: URLSearchParams) => {
    const redirectUri = params.get('redirect_uri') ?? '';
    const prefixes = options.redirectUriPrefixes ?? [];
    if (params.get('client_id') !== apiKey) {
      return json(res, 400, { error: 'invalid_request', error_description: 'Unknown client_id' });
    }
    if (!/^https?:\/\//.test(redirectUri) || (prefixes.length && !prefixes.some((p) => redirectUri.startsWith(p)))) {
      return json(res, 400, { error: 'invalid_request', error_description: 'redirect_uri is not allowed' });
    }
    const code = randomBytes(16).toString('hex');
    const scope = params.get('scope') ?? '';
    codes.set(code, { shop, scope, expiresAt: now() + 60_000 });
    const back: Record<string, string> = {
      code,
      host: Buffer.from(`admin.shopify.com/store/${shop.replace('.myshopify.com', '')}`).toString('base64'),
      shop,
      state: params.get('state') ?? '',
      timestamp: String(Math.floor(now() / 1000)),
    };
    back.hmac = queryHmac(back, apiSecret);
    if (tamper) {
      tamper = false;
      back.hmac = `${back.hmac.slice(0, -1)}${back.hmac.endsWith('0') ? '1' : '0'}`;
    }
    const location = `${redirectUri}?${new URLSearchParams(back).toString().replace(/\+/g, '%20')}`;
    res.writeHead(302, { Location: location });
    res.end();
  };

  const accessToken = async (req: http.IncomingMessage, res: http.ServerResponse, shop: string) => {
    const raw = (await readRaw(req)).toString('utf8');
    let body: Record<string, string> = {};
    try {
      body = (req.headers['content-type'] ?? '').includes('json')
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
    } catch {
      return json(res, 400, { error: 'invalid_request', error_description: 'Malformed body' });
    }
    if (body.client_id !== apiKey || body.client_secret !== apiSecret) {
      return json(res, 400, { error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    const grant = body.code ? codes.get(body.code) : undefined;
    // Single use: a code is gone once presented, whatever happens next.
    if (body.code) codes.delete(body.code);
    if (!grant || grant.shop !== shop || grant.expiresAt < now()) {
      return json(res, 400, { error: 'invalid_request', error_description: 'The authorization code is invalid' });
    }
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    tokens.set(token, { shop, scope: grant.scope });
    return json(res, 200, { access_token: token, scope: grant.scope });
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const parts = url.pathname.split('/').filter(Boolean);
    (async () => {
      if (req.method === 'POST' && parts[0] === 'staged-uploads') {
        const key = parts.slice(1).join('/');
        const raw = await readRaw(req);
        staged.set(key, { bytes: raw, type: 'application/octet-stream' });
        res.writeHead(201);
        return res.end();
      }
      if (req.method === 'GET' && parts[0] === 'files') {
        const file = staged.get(parts.slice(1).join('/'));
        if (!file) return json(res, 404, { errors: 'Not Found' });
        res.writeHead(200, { 'Content-Type': file.type });
        return res.end(file.bytes);
      }
      const [shop, admin, ...rest] = parts;
      if (!shop || !isValidShopDomain(shop) || admin !== 'admin' || options.unknownShops?.includes(shop)) {
        return json(res, 404, { errors: 'Not Found' });
      }
      const route = rest.join('/');
      if (req.method === 'GET' && route === 'oauth/authorize') return authorize(res, shop, url.searchParams);
      if (req.method === 'POST' && route === 'oauth/access_token') return accessToken(req, res, shop);
      const gql = /^api\/(\d{4}-\d{2}|unstable)\/graphql\.json$/.exec(route);
      if (req.method === 'POST' && gql?.[1]) return graphql(req, res, shop, gql[1]);
      return json(res, 404, { errors: 'Not Found' });
    })().catch(() => {
      if (!res.headersSent) json(res, 500, { errors: 'Internal Server Error' });
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    apiKey,
    apiSecret,
    products: (shop) => [...(shops.get(shop)?.products.values() ?? [])],
    addOrder(shop, order) {
      const created: FakeOrder = {
        id: `gid://shopify/Order/${numericId()}`,
        name: `#${1001 + shopOf(shop).orders.length}`,
        createdAt: (order.createdAt ?? new Date(now())).toISOString(),
        total: order.total,
        currency: order.currency ?? 'USD',
      };
      shopOf(shop).orders.push(created);
      return created;
    },
    throttleNext(n) {
      throttle = n;
    },
    failNextProductSet(mode, message = 'Shopify had a problem') {
      failNext = { mode, message };
    },
    tamperNextHmac() {
      tamper = true;
    },
    signWebhook: (body) => webhookHmac(body, apiSecret),
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
