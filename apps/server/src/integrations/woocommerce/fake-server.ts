import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local WooCommerce (apis.md C and E7): stores under a path prefix (`{url}/{host}/wp-json/...`, so the client's
 * base URL for `https://{host}` is `{url}/{host}`), each with REST keys, the site index, products (variable, with
 * local attributes), variations and their batch endpoint, and webhooks.
 *
 * Strict where WooCommerce is: Basic auth with the store's consumer key and secret (a wrong one answers 401
 * `woocommerce_rest_authentication_error`), unique SKUs, prices as strings, variation options that the parent's
 * attributes list, at most 100 objects per batch, and pictures given by a URL the store downloads itself (one it
 * cannot fetch refuses the product, `woocommerce_product_image_upload_error`). Webhooks are signed as WooCommerce
 * signs them: base64 HMAC-SHA256 of the raw body with the webhook's secret in `X-WC-Webhook-Signature`.
 *
 * Its state is one JSON value (`snapshot()`) handed to `persist` after every change (the sandbox keeps it in the
 * database); downloaded picture bytes go to `images` under their id.
 */

export type WooFakeState = {
  nextId: number;
  stores: Record<
    string,
    {
      name: string;
      keys: { consumer_key: string; consumer_secret: string }[];
      products: Record<string, WooFakeProduct>;
      webhooks: { id: number; topic: string; delivery_url: string; secret: string; status: string }[];
      orders: { id: number; number: string; total: string; currency: string; line_items: unknown[] }[];
    }
  >;
};

type Attribute = { id: 0; name: string; position: number; visible: boolean; variation: boolean; options: string[] };
type WooImage = { id: number; src: string; name: string; position: number };
export type WooFakeVariation = {
  id: number;
  sku: string;
  regular_price: string;
  status: string;
  attributes: { id: 0; name: string; option: string }[];
  image: WooImage | null;
  manage_stock: boolean;
  stock_status: string;
};
export type WooFakeProduct = {
  id: number;
  name: string;
  slug: string;
  type: string;
  status: string;
  description: string;
  short_description: string;
  sku: string;
  tags: { id: number; name: string }[];
  images: WooImage[];
  attributes: Attribute[];
  variations: WooFakeVariation[];
  date_created: string;
  date_modified: string;
};

export type FakeWooOptions = {
  state?: WooFakeState | null;
  persist?: (state: WooFakeState) => Promise<void>;
  images?: { put(id: number, bytes: Buffer): Promise<void>; get(id: number): Promise<Buffer | null> };
  /** How the store downloads a picture by URL (the global fetch by default). */
  fetchImage?: (src: string) => Promise<Buffer | null>;
  /** Stores that exist at start (host -> keys); the sandbox adds its own with `createStore`. */
  stores?: { host: string; name?: string; consumerKey: string; consumerSecret: string }[];
  now?: () => number;
};

export type FakeWoo = {
  url: string;
  /** The client's base URL for a store's https address. */
  baseFor(storeUrl: string): string;
  createStore(host: string, name: string): { consumerKey: string; consumerSecret: string };
  products(host: string): WooFakeProduct[];
  webhooks(host: string): WooFakeState['stores'][string]['webhooks'];
  snapshot(): WooFakeState;
  /** A buyer's order: sends `order.created` to every active webhook of that topic, signed; the delivery answers. */
  placeOrder(
    host: string,
    order: { lineItems: { sku: string; quantity: number; price: string }[]; currency?: string },
  ): Promise<{ orderId: number; deliveries: { url: string; status: number }[] }>;
  /** The next product create is applied, then answers 500 (a lost answer). */
  failNextCreateAfterCreating(): void;
  calls: { method: string; path: string; status: number }[];
  close(): Promise<void>;
};

const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
};
const readRaw = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

class WooRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const wooSignature = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body, 'utf8').digest('base64');

export async function startFakeWooCommerce(options: FakeWooOptions = {}): Promise<FakeWoo> {
  const now = options.now ?? Date.now;
  const state: WooFakeState = options.state ? structuredClone(options.state) : { nextId: 100, stores: {} };
  const memory = new Map<number, Buffer>();
  const images = options.images ?? {
    put: async (id: number, bytes: Buffer) => void memory.set(id, bytes),
    get: async (id: number) => memory.get(id) ?? null,
  };
  const fetchImage =
    options.fetchImage ??
    (async (src: string) => {
      const r = await fetch(src).catch(() => null);
      if (!r?.ok) return null;
      return Buffer.from(await r.arrayBuffer());
    });
  const calls: FakeWoo['calls'] = [];
  let failCreate = false;
  let base = '';
  const id = () => ++state.nextId;
  const persist = async () => options.persist?.(structuredClone(state));
  const stamp = () => new Date(now()).toISOString().slice(0, 19);

  const createStore = (host: string, name: string) => {
    const keys = {
      consumer_key: `ck_${randomBytes(20).toString('hex')}`,
      consumer_secret: `cs_${randomBytes(20).toString('hex')}`,
    };
    const existing = state.stores[host];
    if (existing) existing.keys.push(keys);
    else state.stores[host] = { name, keys: [keys], products: {}, webhooks: [], orders: [] };
    return { consumerKey: keys.consumer_key, consumerSecret: keys.consumer_secret };
  };
  for (const s of options.stores ?? []) {
    state.stores[s.host] ??= { name: s.name ?? s.host, keys: [], products: {}, webhooks: [], orders: [] };
    state.stores[s.host]?.keys.push({ consumer_key: s.consumerKey, consumer_secret: s.consumerSecret });
  }

  const authStore = (req: http.IncomingMessage, host: string) => {
    const store = state.stores[host];
    const header = String(req.headers.authorization ?? '');
    const [user, pass] = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')
      : [];
    if (!store || !user) throw new WooRefusal(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.');
    const key = store.keys.find((k) => k.consumer_key === user);
    if (!key) throw new WooRefusal(401, 'woocommerce_rest_authentication_error', 'Consumer key is invalid.');
    if (key.consumer_secret !== pass)
      throw new WooRefusal(
        401,
        'woocommerce_rest_authentication_error',
        'Invalid signature - provided signature does not match.',
      );
    return store;
  };

  const productView = (host: string, p: WooFakeProduct) => ({
    ...p,
    permalink: `https://${host}/product/${p.slug}/`,
    variations: p.variations.map((v) => v.id),
    regular_price: '',
    price: p.variations[0]?.regular_price ?? '',
  });

  const sideload = async (host: string, src: unknown, position: number): Promise<WooImage> => {
    if (typeof src !== 'string' || !/^https?:\/\//.test(src))
      throw new WooRefusal(400, 'woocommerce_product_image_upload_error', `Invalid image: ${String(src)}`);
    const bytes = await fetchImage(src);
    if (!bytes || bytes.length < 8 || bytes.readUInt32BE(0) !== 0x89504e47)
      throw new WooRefusal(
        400,
        'woocommerce_product_image_upload_error',
        `Error getting remote image ${src}. Error: the picture could not be downloaded.`,
      );
    const imageId = id();
    await images.put(imageId, bytes);
    return { id: imageId, src: `${base}/${host}/wp-content/uploads/${imageId}.png`, name: `${imageId}.png`, position };
  };

  const readImages = async (host: string, p: WooFakeProduct, list: unknown) => {
    if (!Array.isArray(list)) return;
    const out: WooImage[] = [];
    for (const [i, entry] of (list as Record<string, unknown>[]).entries()) {
      const known = p.images.find((x) => x.id === Number(entry.id));
      out.push(known ? { ...known, position: i } : await sideload(host, entry.src, i));
    }
    p.images = out;
  };

  const readAttributes = (list: unknown): Attribute[] => {
    if (!Array.isArray(list)) return [];
    return (list as Record<string, unknown>[]).map((a, i) => {
      if (typeof a.name !== 'string' || !a.name.trim())
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): attributes');
      return {
        id: 0,
        name: a.name,
        position: Number(a.position ?? i),
        visible: a.visible !== false,
        variation: a.variation === true,
        options: Array.isArray(a.options) ? a.options.map(String) : [],
      };
    });
  };

  const skuTaken = (host: string, sku: string, except: number | null) => {
    if (!sku) return false;
    for (const p of Object.values(state.stores[host]?.products ?? {})) {
      if (p.id !== except && p.sku === sku) return true;
      if (p.variations.some((v) => v.id !== except && v.sku === sku)) return true;
    }
    return false;
  };

  const applyProduct = async (host: string, p: WooFakeProduct, body: Record<string, unknown>) => {
    if (body.regular_price !== undefined && typeof body.regular_price !== 'string')
      throw new WooRefusal(
        400,
        'rest_invalid_param',
        'Invalid parameter(s): regular_price (regular_price is not of type string.)',
      );
    if (body.name !== undefined) p.name = String(body.name);
    if (body.type !== undefined) {
      if (!['simple', 'variable', 'grouped', 'external'].includes(String(body.type)))
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): type');
      p.type = String(body.type);
    }
    if (body.status !== undefined) {
      if (!['draft', 'pending', 'private', 'publish'].includes(String(body.status)))
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): status');
      p.status = String(body.status);
    }
    if (body.description !== undefined) p.description = String(body.description);
    if (body.short_description !== undefined) p.short_description = String(body.short_description);
    if (body.sku !== undefined) {
      const sku = String(body.sku);
      if (skuTaken(host, sku, p.id)) throw new WooRefusal(400, 'product_invalid_sku', 'Invalid or duplicated SKU.');
      p.sku = sku;
    }
    if (Array.isArray(body.tags))
      p.tags = (body.tags as { name?: string }[]).map((t) => ({ id: id(), name: String(t.name ?? '') }));
    if (body.attributes !== undefined) p.attributes = readAttributes(body.attributes);
    await readImages(host, p, body.images);
    p.slug ||=
      p.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '') || String(p.id);
    p.date_modified = stamp();
  };

  const applyVariation = async (
    host: string,
    p: WooFakeProduct,
    v: WooFakeVariation,
    body: Record<string, unknown>,
  ) => {
    if (body.regular_price !== undefined) {
      if (typeof body.regular_price !== 'string')
        throw new WooRefusal(
          400,
          'rest_invalid_param',
          'Invalid parameter(s): regular_price (regular_price is not of type string.)',
        );
      if (body.regular_price !== '' && !/^\d+(\.\d+)?$/.test(body.regular_price))
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): regular_price');
      v.regular_price = body.regular_price;
    }
    if (body.sku !== undefined) {
      const sku = String(body.sku);
      if (skuTaken(host, sku, v.id)) throw new WooRefusal(400, 'product_invalid_sku', 'Invalid or duplicated SKU.');
      v.sku = sku;
    }
    if (Array.isArray(body.attributes)) {
      v.attributes = (body.attributes as Record<string, unknown>[]).map((a) => {
        const parent = p.attributes.find((x) => x.name === a.name && x.variation);
        const option = String(a.option ?? '');
        if (!parent?.options.includes(option))
          throw new WooRefusal(
            400,
            'woocommerce_rest_invalid_variation_attribute',
            `${String(a.name)}: '${option}' is not an option of the product's variation attributes`,
          );
        return { id: 0, name: parent.name, option };
      });
    }
    if (body.image !== undefined) {
      const img = body.image as Record<string, unknown> | null;
      if (img === null) v.image = null;
      else {
        const known = p.images.find((x) => x.id === Number(img.id));
        v.image = known ?? (await sideload(host, img.src, 0));
      }
    }
    if (body.manage_stock !== undefined) v.manage_stock = body.manage_stock === true;
    if (body.status !== undefined) v.status = String(body.status);
  };

  async function route(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    const m = /^\/([a-z0-9.-]+)(\/.*)$/.exec(url.pathname);
    if (!m) throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const host = m[1] ?? '';
    const path = m[2] ?? '';
    const method = req.method ?? 'GET';
    const upload = /^\/wp-content\/uploads\/(\d+)\.png$/.exec(path);
    if (method === 'GET' && upload) {
      const bytes = await images.get(Number(upload[1]));
      if (!bytes) return send(res, 404, { code: 'not_found' });
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(bytes);
      return;
    }
    if (method === 'GET' && path === '/wp-json/') {
      const store = state.stores[host];
      if (!store) throw new WooRefusal(404, 'rest_no_route', 'Not found');
      return send(res, 200, { name: store.name, description: '', url: `https://${host}`, namespaces: ['wc/v3'] });
    }
    if (!path.startsWith('/wp-json/wc/v3/'))
      throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const store = authStore(req, host);
    const p = path.slice('/wp-json/wc/v3'.length);
    const raw = method === 'GET' || method === 'DELETE' ? Buffer.alloc(0) : await readRaw(req);
    let body: Record<string, unknown> = {};
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        throw new WooRefusal(400, 'rest_invalid_json', 'Invalid JSON body passed.');
      }
    }

    if (method === 'GET' && p === '/products') {
      const sku = url.searchParams.get('sku');
      const all = Object.values(store.products).filter((x) => x.status !== 'trash' && (!sku || x.sku === sku));
      return send(
        res,
        200,
        all.map((x) => productView(host, x)),
        {
          'X-WP-Total': String(all.length),
          'X-WP-TotalPages': '1',
        },
      );
    }
    if (method === 'POST' && p === '/products') {
      const product: WooFakeProduct = {
        id: id(),
        name: '',
        slug: '',
        type: 'simple',
        status: 'publish',
        description: '',
        short_description: '',
        sku: '',
        tags: [],
        images: [],
        attributes: [],
        variations: [],
        date_created: stamp(),
        date_modified: stamp(),
      };
      await applyProduct(host, product, body);
      if (!product.name) throw new WooRefusal(400, 'rest_missing_callback_param', 'Missing parameter(s): name');
      store.products[String(product.id)] = product;
      await persist();
      if (failCreate) {
        failCreate = false;
        return send(res, 500, {
          code: 'internal_server_error',
          message: 'There has been a critical error on this website.',
        });
      }
      return send(res, 201, productView(host, product));
    }
    const pm = /^\/products\/(\d+)(\/.*)?$/.exec(p);
    if (pm) {
      const product = store.products[pm[1] ?? ''];
      if (!product || (product.status === 'trash' && method !== 'DELETE'))
        throw new WooRefusal(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
      const sub = pm[2] ?? '';
      if (method === 'GET' && sub === '') return send(res, 200, productView(host, product));
      if ((method === 'PUT' || method === 'POST') && sub === '') {
        await applyProduct(host, product, body);
        await persist();
        return send(res, 200, productView(host, product));
      }
      if (method === 'DELETE' && sub === '') {
        const view = productView(host, product);
        if (url.searchParams.get('force') === 'true') delete store.products[String(product.id)];
        else product.status = 'trash';
        await persist();
        return send(res, 200, view);
      }
      if (method === 'GET' && sub === '/variations') return send(res, 200, product.variations);
      if (method === 'POST' && sub === '/variations/batch') {
        const create = Array.isArray(body.create) ? (body.create as Record<string, unknown>[]) : [];
        const update = Array.isArray(body.update) ? (body.update as Record<string, unknown>[]) : [];
        const del = Array.isArray(body.delete) ? (body.delete as unknown[]) : [];
        if (create.length + update.length + del.length > 100)
          throw new WooRefusal(
            413,
            'woocommerce_rest_request_entity_too_large',
            'Unable to accept more than 100 items for this request.',
          );
        const itemError = (e: unknown) => ({
          id: 0,
          error:
            e instanceof WooRefusal
              ? { code: e.code, message: e.message, data: { status: e.status } }
              : { code: 'error', message: String(e), data: { status: 500 } },
        });
        const out: { create: unknown[]; update: unknown[]; delete: unknown[] } = { create: [], update: [], delete: [] };
        for (const c of create) {
          const v: WooFakeVariation = {
            id: id(),
            sku: '',
            regular_price: '',
            status: 'publish',
            attributes: [],
            image: null,
            manage_stock: false,
            stock_status: 'instock',
          };
          try {
            await applyVariation(host, product, v, c);
            product.variations.push(v);
            out.create.push(v);
          } catch (e) {
            out.create.push(itemError(e));
          }
        }
        for (const u of update) {
          const v = product.variations.find((x) => x.id === Number(u.id));
          if (!v) {
            out.update.push(
              itemError(new WooRefusal(400, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.')),
            );
            continue;
          }
          try {
            await applyVariation(host, product, v, u);
            out.update.push(v);
          } catch (e) {
            out.update.push(itemError(e));
          }
        }
        for (const d of del) {
          const v = product.variations.find((x) => x.id === Number(d));
          if (!v) {
            out.delete.push(
              itemError(new WooRefusal(400, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.')),
            );
            continue;
          }
          product.variations = product.variations.filter((x) => x.id !== v.id);
          out.delete.push(v);
        }
        product.date_modified = stamp();
        await persist();
        return send(res, 200, out);
      }
    }
    if (method === 'POST' && p === '/webhooks') {
      const topic = String(body.topic ?? '');
      const delivery = String(body.delivery_url ?? '');
      if (!/^[a-z_]+\.[a-z_]+$/.test(topic))
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): topic');
      if (!/^https?:\/\//.test(delivery))
        throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): delivery_url');
      const hook = {
        id: id(),
        topic,
        delivery_url: delivery,
        secret: String(body.secret ?? ''),
        status: String(body.status ?? 'active'),
      };
      store.webhooks.push(hook);
      await persist();
      return send(res, 201, { ...hook, secret: undefined, name: body.name ?? topic });
    }
    const wm = /^\/webhooks\/(\d+)$/.exec(p);
    if (method === 'DELETE' && wm) {
      store.webhooks = store.webhooks.filter((w) => w.id !== Number(wm[1]));
      await persist();
      return send(res, 200, { id: Number(wm[1]) });
    }
    throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    route(req, url, res)
      .catch((error: unknown) => {
        if (error instanceof WooRefusal)
          return send(res, error.status, { code: error.code, message: error.message, data: { status: error.status } });
        return send(res, 500, { code: 'internal_server_error', message: String(error) });
      })
      .finally(() => {
        if (url.pathname.includes('/wp-json/wc/'))
          calls.push({ method: req.method ?? 'GET', path: url.pathname, status: res.statusCode });
      });
  });
  // Idle connections stay open until the client drops them: on a loaded machine a server-side timeout raced
  // clients reusing the socket (ECONNRESET).
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    baseFor: (storeUrl) => `${base}/${new URL(storeUrl).host}`,
    createStore: (host, name) => {
      const keys = createStore(host, name);
      void persist();
      return keys;
    },
    products: (host) => Object.values(state.stores[host]?.products ?? {}),
    webhooks: (host) => state.stores[host]?.webhooks ?? [],
    snapshot: () => structuredClone(state),
    async placeOrder(host, order) {
      const store = state.stores[host];
      if (!store) throw new Error(`No store ${host}`);
      const total = order.lineItems.reduce((sum, l) => sum + Number(l.price) * l.quantity, 0).toFixed(2);
      const record = {
        id: id(),
        number: '',
        total,
        currency: order.currency ?? 'USD',
        line_items: order.lineItems.map((l) => ({
          id: id(),
          sku: l.sku,
          quantity: l.quantity,
          price: Number(l.price),
          total: (Number(l.price) * l.quantity).toFixed(2),
        })),
      };
      record.number = String(record.id);
      store.orders.push(record);
      await persist();
      const payload = JSON.stringify({ ...record, status: 'processing', date_created: stamp() });
      const deliveries: { url: string; status: number }[] = [];
      for (const hook of store.webhooks.filter((w) => w.topic === 'order.created' && w.status === 'active')) {
        const r = await fetch(hook.delivery_url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-WC-Webhook-Source': `https://${host}/`,
            'X-WC-Webhook-Topic': 'order.created',
            'X-WC-Webhook-Resource': 'order',
            'X-WC-Webhook-Event': 'created',
            'X-WC-Webhook-Signature': wooSignature(payload, hook.secret),
            'X-WC-Webhook-ID': String(hook.id),
            'X-WC-Webhook-Delivery-ID': randomUUID(),
          },
          body: payload,
        }).catch(() => null);
        await r?.body?.cancel();
        deliveries.push({ url: hook.delivery_url, status: r?.status ?? 0 });
      }
      return { orderId: record.id, deliveries };
    },
    failNextCreateAfterCreating: () => {
      failCreate = true;
    },
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
