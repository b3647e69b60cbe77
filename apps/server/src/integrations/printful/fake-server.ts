import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenApiRequestValidator } from '../openapi/request-validator';
import { slug } from './catalog/bundled';
import { renderProductSvg } from './catalog/product-image';
import { CATEGORY_SEEDS, PRODUCT_SEEDS, type ProductSeed } from './catalog/products';
import { createFakeOrders, type FakeOrdersApi, type FakeOrdersOptions } from './fake-orders';

/** Printful's v2 OpenAPI (its request side), read and compiled once per process, on the first API call. */
let requests: OpenApiRequestValidator | null = null;
const printfulRequests = () => {
  requests ??= OpenApiRequestValidator.fromAsset('printful-v2.requests.json');
  return requests;
};

/**
 * A local stand-in for www.printful.com (OAuth) and api.printful.com (catalogue), following apis.md B and the
 * fake-server checklist in D. Used by the API tests and by e2e's global-setup; listens on 127.0.0.1 only.
 * Seeded with three products (so a test can tell the live catalogue from the bundled one of 43).
 */

export type FakePrintfulOptions = {
  clientId?: string;
  clientSecret?: string;
  /** Seconds an access token lives; Printful's is one hour. */
  tokenLifetimeSec?: number;
  now?: () => number;
  /** Requests per 60 s per token before 429 (Printful: 120). */
  rateLimit?: number;
  storeName?: string;
  /** Private tokens (Developer Portal) that never expire, as PRINTFUL_TOKEN would be. */
  privateTokens?: string[];
  /** Largest page a list answers (Printful: 100); smaller makes a client's paging visible in tests. */
  maxPageSize?: number;
  /**
   * Catalogue variants left out of the variant list (as variants no longer offered): the list is paged before they
   * are left out, so a page holds fewer than `limit` while `_links.next` moves on by `limit`, and only a client
   * that follows `_links.next` reads every variant once.
   */
  unlistedVariants?: number[];
  /** Orders and webhooks v2 (fake-orders.ts): where they are kept, their delays, downloads and deliveries. */
  orders?: FakeOrdersOptions;
  /** Tokens of the built-in sandbox: the store each one belongs to, or null for any other token. */
  sandboxStore?: (token: string) => string | null;
};

export type FakePrintful = {
  url: string;
  /** Answer the next authorize with success=0, as when the user rejects. */
  denyNextAuthorization(): void;
  /** Answer the next `n` API calls with 429 and Retry-After. */
  throttleNext(n: number, retryAfterSec?: number): void;
  /** Make every access token issued so far expire now. */
  expireAccessTokens(): void;
  /** Paths of API calls (not OAuth), in order, with their status. */
  calls: { path: string; status: number }[];
  tokenGrants: string[];
  /** The account's stores (GET /stores); OAuth tokens act for the one named in X-PF-Store-Id, else the first. */
  setStores(stores: { id: number; name: string }[]): void;
  /** Orders and webhooks: tick() moves due orders on, failNextDownloads() makes Printful's file download fail. */
  orders: FakeOrdersApi;
  close(): Promise<void>;
};

const SEEDED_IDS = [71, 19, 1];

export async function startFakePrintful(options: FakePrintfulOptions = {}): Promise<FakePrintful> {
  const clientId = options.clientId ?? 'fake-client-id';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const lifetime = options.tokenLifetimeSec ?? 3600;
  const now = options.now ?? Date.now;
  const limit = options.rateLimit ?? 120;
  const products = PRODUCT_SEEDS.filter((p) => SEEDED_IDS.includes(p.id));
  const categories = CATEGORY_SEEDS.filter(
    (c) => products.some((p) => p.categoryId === c.id) || products.some((p) => parentOf(p.categoryId) === c.id),
  );

  const codes = new Map<string, number>();
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Set<string>();
  const buckets = new Map<string, { tokens: number; at: number }>();
  let denyNext = false;
  let throttle = 0;
  let throttleRetryAfter = 1;
  const calls: FakePrintful['calls'] = [];
  const tokenGrants: string[] = [];
  let base = '';
  const orders = createFakeOrders({ now, ...options.orders });
  let stores = [{ id: 10001, name: options.storeName ?? 'Fake Print Store' }];

  function parentOf(categoryId: number) {
    return CATEGORY_SEEDS.find((c) => c.id === categoryId)?.parentId ?? 0;
  }

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const v1Error = (status: number, reason: string, message: string) => ({
    code: status,
    result: message,
    error: { reason, message },
  });

  const issueTokens = () => {
    const access = `fake_at_${randomBytes(12).toString('hex')}`;
    const refresh = `fake_rt_${randomBytes(16).toString('hex')}`;
    const expiresAt = Math.floor(now() / 1000) + lifetime;
    accessTokens.set(access, expiresAt * 1000);
    refreshTokens.add(refresh);
    return { access_token: access, expires_at: String(expiresAt), token_type: 'bearer', refresh_token: refresh };
  };

  const readRaw = (req: http.IncomingMessage) =>
    new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });

  const readBody = (req: http.IncomingMessage) =>
    new Promise<Record<string, string>>((resolve) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      req.on('end', () => {
        try {
          if ((req.headers['content-type'] ?? '').includes('json')) return resolve(JSON.parse(raw || '{}'));
        } catch {
          return resolve({});
        }
        resolve(Object.fromEntries(new URLSearchParams(raw)));
      });
    });

  const v2Product = (p: ProductSeed) => ({
    id: p.id,
    main_category_id: p.categoryId,
    type: p.type === 'tshirt' ? 'T-Shirt' : p.type === 'mug' ? 'Mug' : 'Poster',
    name: p.name,
    brand: p.brand,
    model: p.model,
    image: `${base}/images/${p.id}/${slug(p.colours[0]?.[0] ?? 'white')}.svg`,
    variant_count: p.colours.length * p.sizes.length,
    is_discontinued: false,
    description: p.description,
    sizes: p.sizes.map(([s]) => s),
    colors: p.colours.map(([name, value]) => ({ name, value })),
    techniques: [{ key: p.printAreas[0]?.technique ?? 'dtg', display_name: 'Printing', is_default: true }],
    placements: p.printAreas.map((a) => ({
      placement: a.placement,
      technique: a.technique,
      print_area_width: a.widthPx / a.dpi,
      print_area_height: a.heightPx / a.dpi,
      layers: [{ type: 'file', layer_options: [] }],
      placement_options: [],
      conflicting_placements: [],
    })),
    product_options: [],
    _links: { self: { href: `${base}/v2/catalog-products/${p.id}` } },
  });
  const v2Variants = (p: ProductSeed) =>
    p.colours.flatMap(([color, code], ci) =>
      p.sizes.map(([size, price], si) => ({
        variant: {
          id: p.id * 1000 + ci * p.sizes.length + si + 1,
          catalog_product_id: p.id,
          name: `${p.name} (${color} / ${size})`,
          size,
          color,
          color_code: code,
          color_code2: null,
          image: `${base}/images/${p.id}/${slug(color)}.svg`,
          _links: { self: { href: `${base}/v2/catalog-variants/${p.id * 1000 + ci * p.sizes.length + si + 1}` } },
        },
        price,
      })),
    );
  const v2Category = (c: (typeof CATEGORY_SEEDS)[number]) => ({
    id: c.id,
    parent_id: c.parentId,
    image_url: `${base}/images/categories/${c.id}.svg`,
    title: c.title,
    _links: { self: { href: `${base}/v2/catalog-categories/${c.id}` } },
  });
  const page = <T>(items: T[], url: URL, path: string) => {
    const lim = Math.min(options.maxPageSize ?? 100, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
    const off = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
    const links: Record<string, { href: string }> = {
      self: { href: `${base}${path}?offset=${off}&limit=${lim}` },
      first: { href: `${base}${path}?offset=0&limit=${lim}` },
    };
    if (off + lim < items.length) links.next = { href: `${base}${path}?offset=${off + lim}&limit=${lim}` };
    return {
      data: items.slice(off, off + lim),
      paging: { total: items.length, offset: off, limit: lim },
      _links: links,
    };
  };

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const path = url.pathname;

    if (req.method === 'GET' && path === '/oauth/authorize') {
      const redirect = url.searchParams.get('redirect_url');
      const state = url.searchParams.get('state') ?? '';
      if (url.searchParams.get('client_id') !== clientId || !redirect) {
        return send(res, 400, { error: 'invalid_request', error_description: 'Unknown client_id or no redirect_url' });
      }
      const target = new URL(redirect);
      if (denyNext) {
        denyNext = false;
        target.searchParams.set('success', '0');
        target.searchParams.set('state', state);
      } else {
        const code = randomBytes(10).toString('hex');
        codes.set(code, now() + 60_000);
        target.searchParams.set('state', state);
        target.searchParams.set('code', code);
        target.searchParams.set('success', '1');
      }
      res.writeHead(302, { Location: target.toString() });
      return res.end();
    }

    if (req.method === 'POST' && path === '/oauth/token') {
      const body = await readBody(req);
      if (body.client_id !== clientId || body.client_secret !== clientSecret) {
        return send(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      }
      tokenGrants.push(body.grant_type ?? '');
      if (body.grant_type === 'authorization_code') {
        const expires = body.code ? codes.get(body.code) : undefined;
        if (!body.code || !expires || expires < now()) {
          return send(res, 400, { error: 'invalid_grant', error_description: 'The authorization code is invalid' });
        }
        codes.delete(body.code);
        return send(res, 200, issueTokens());
      }
      if (body.grant_type === 'refresh_token') {
        if (!body.refresh_token || !refreshTokens.has(body.refresh_token)) {
          return send(res, 400, { error: 'invalid_grant', error_description: 'The refresh token is invalid' });
        }
        // Each refresh rotates the pair: the old refresh token stops working.
        refreshTokens.delete(body.refresh_token);
        return send(res, 200, issueTokens());
      }
      return send(res, 400, { error: 'unsupported_grant_type', error_description: 'Unsupported grant_type' });
    }

    if (req.method === 'GET' && path.startsWith('/images/')) {
      const m = path.match(/^\/images\/(\d+)\/([a-z0-9-]+)\.svg$/);
      const product = m ? products.find((p) => p.id === Number(m[1])) : undefined;
      const colour = product?.colours.find(([name]) => slug(name) === m?.[2]);
      if (!product || !colour) return send(res, 404, v1Error(404, 'NotFound', 'Not Found'));
      res.writeHead(200, { 'Content-Type': 'image/svg+xml' });
      return res.end(renderProductSvg(product.type, colour[1], product.name));
    }

    // Everything below is the API: bearer token, rate limit, then the route.
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const sandboxStore = token ? (options.sandboxStore?.(token) ?? null) : null;
    const expiry =
      options.privateTokens?.includes(token) || sandboxStore ? Number.POSITIVE_INFINITY : accessTokens.get(token);
    if (!token || !expiry || expiry <= now()) {
      calls.push({ path, status: 401 });
      return send(res, 401, {
        code: 401,
        result: 'Malformed Authorization header.',
        error: { reason: 'BadRequest', message: 'Malformed Authorization header.' },
      });
    }
    const bucket = buckets.get(token) ?? { tokens: limit, at: now() };
    bucket.tokens = Math.min(limit, bucket.tokens + ((now() - bucket.at) * limit) / 60_000);
    bucket.at = now();
    buckets.set(token, bucket);
    const rateHeaders = (remaining: number) => ({
      'X-Ratelimit-Policy': `${limit};w=60;`,
      'X-Ratelimit-Limit': String(limit),
      'X-Ratelimit-Remaining': String(Math.max(0, Math.floor(remaining))),
      'X-Ratelimit-Reset': (((limit - remaining) * 60) / limit).toFixed(1),
    });
    if (throttle > 0 || bucket.tokens < 1) {
      // Asked for by the test: its Retry-After; the bucket empty: the seconds until it holds one call again.
      const retryAfter = throttle > 0 ? throttleRetryAfter : Math.ceil(((1 - bucket.tokens) * 60) / limit);
      if (throttle > 0) throttle--;
      calls.push({ path, status: 429 });
      return send(res, 429, v1Error(429, 'TooManyRequests', 'Too Many Requests'), {
        ...rateHeaders(0),
        'Retry-After': String(retryAfter),
      });
    }
    bucket.tokens -= 1;
    const headers = rateHeaders(bucket.tokens);
    const ok = (body: unknown) => {
      calls.push({ path, status: 200 });
      send(res, 200, body, headers);
    };
    const notFound = () => {
      calls.push({ path, status: 404 });
      send(res, 404, { data: 'Not found', error: { reason: 'NotFound', message: 'Not found' } }, headers);
    };

    // The request as Printful's API checks it: the body read once, then held against the v2 OpenAPI operation.
    let json: Record<string, unknown> | null = null;
    let body: unknown;
    const contentType = String(req.headers['content-type'] ?? '');
    if (req.method === 'POST' || req.method === 'PATCH' || req.method === 'PUT') {
      const raw = await readRaw(req);
      if (raw.length > 0 && contentType.includes('json')) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          calls.push({ path, status: 400 });
          return send(res, 400, v1Error(400, 'BadRequest', 'The request body is not valid JSON'), headers);
        }
        json = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
      } else if (raw.length > 0) {
        body = new URLSearchParams(raw.toString('utf8'));
      }
    }
    const problem = printfulRequests().check({
      method: req.method ?? 'GET',
      pathname: path,
      query: url.searchParams,
      headers: req.headers,
      body,
      contentType,
    });
    if (problem) {
      calls.push({ path, status: 400 });
      return send(res, 400, v1Error(400, 'BadRequest', problem.errors.join('; ')), headers);
    }

    if (
      path.startsWith('/v2/orders') ||
      path === '/v2/webhooks' ||
      path === '/v2/shipping-rates' ||
      path.startsWith('/orders/')
    ) {
      const asked = String(req.headers['x-pf-store-id'] ?? '');
      const store = sandboxStore ?? String(stores.find((x) => String(x.id) === asked)?.id ?? stores[0]?.id);
      if (!sandboxStore && asked && store !== asked) {
        calls.push({ path, status: 404 });
        return send(
          res,
          404,
          { code: 404, result: 'Store not found', error: { reason: 'NotFound', message: 'Store not found' } },
          headers,
        );
      }
      const handled = await orders.handle(
        req,
        path,
        store,
        (status, body) => {
          calls.push({ path, status });
          if (status === 204) {
            res.writeHead(204, headers);
            return res.end();
          }
          send(res, status, body, headers);
        },
        json,
      );
      if (handled) return;
    }
    if (path === '/stores') return ok({ code: 200, result: stores.map((x) => ({ ...x, type: 'native' })) });
    if (path === '/v2/oauth-scopes')
      return ok({ data: [{ name: 'View all orders', value: 'orders/read' }], _links: {} });
    if (path === '/v2/catalog-categories') return ok({ data: categories.map(v2Category), _links: {} });
    let m = path.match(/^\/v2\/catalog-categories\/(\d+)$/);
    if (m) {
      const c = categories.find((x) => x.id === Number(m?.[1]));
      return c ? ok({ data: v2Category(c), _links: {} }) : notFound();
    }
    if (path === '/v2/catalog-products') {
      const ids = (url.searchParams.get('category_ids') ?? '').split(',').filter(Boolean).map(Number);
      const list = products.filter((p) => !ids.length || ids.includes(p.categoryId));
      return ok(page(list.map(v2Product), url, path));
    }
    m = path.match(/^\/v2\/catalog-products\/(\d+)(\/[a-z-]+)?$/);
    if (m) {
      const p = products.find((x) => x.id === Number(m?.[1]));
      if (!p) return notFound();
      if (!m[2]) return ok({ data: v2Product(p), _links: {} });
      if (m[2] === '/catalog-variants') {
        const paged = page(
          v2Variants(p).map((v) => v.variant),
          url,
          path,
        );
        const unlisted = new Set(options.unlistedVariants ?? []);
        return ok({ ...paged, data: paged.data.filter((v) => !unlisted.has(v.id)) });
      }
      if (m[2] === '/prices') {
        return ok({
          data: {
            currency: 'USD',
            product: {
              id: p.id,
              placements: p.printAreas.map((a, i) => ({
                id: a.placement,
                title: a.title,
                type: a.technique,
                technique_key: a.technique,
                price: i === 0 ? '0.00' : '5.95',
                discounted_price: i === 0 ? '0.00' : '5.95',
                placement_options: [],
                layers: [],
              })),
            },
            variants: v2Variants(p).map(({ variant, price }) => ({
              id: variant.id,
              techniques: [
                { technique_key: 'dtg', technique_display_name: 'Printing', price, discounted_price: price },
              ],
            })),
          },
          _links: {},
        });
      }
      return notFound();
    }
    if (path === '/categories') return ok({ code: 200, result: { categories: categories.map(v2Category) } });
    if (path === '/products')
      return ok({ code: 200, result: products.map((p) => ({ ...v2Product(p), title: p.name })) });
    return notFound();
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { type: 'about:blank', status: 500, title: 'Internal Server Error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    denyNextAuthorization: () => {
      denyNext = true;
    },
    throttleNext: (n, retryAfterSec = 1) => {
      throttle = n;
      throttleRetryAfter = retryAfterSec;
    },
    expireAccessTokens: () => {
      for (const key of accessTokens.keys()) accessTokens.set(key, now() - 1);
    },
    calls,
    tokenGrants,
    setStores: (list) => {
      stores = list;
    },
    orders,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
