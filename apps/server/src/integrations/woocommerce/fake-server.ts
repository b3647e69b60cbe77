import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
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
 * WordPress's own routes beside it: `/wp-json/wp/v2/users/me` and `/wp-json/wp/v2/media`, authenticated only by a
 * WordPress user's application password (Basic auth; consumer keys are not accepted there, as on a real site), the
 * upload as WordPress's attachments controller takes it (the raw file with Content-Type and Content-Disposition, or
 * multipart `file`; images only), answering the attachment's `id` and `source_url`, which products' `images[].id`
 * and variations' `image.id` then take (an id that is not an image attachment is refused). Orders: a buyer's order
 * (`placeOrder`) with its shipping address and lines, `order.created` / `order.updated` deliveries, and the order
 * routes fulfilment uses (read, status update, notes).
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
      orders: WooFakeOrder[];
      /** WordPress users with application passwords (SHA-256 of the password without spaces). */
      users?: { id: number; username: string; uploadFiles: boolean; appPasswords: string[] }[];
      /** Attachments (uploaded or downloaded by URL), by id. */
      media?: Record<string, WooFakeMedia>;
    }
  >;
};

export type WooFakeMedia = { id: number; source_url: string; mime_type: string; media_type: 'image'; author: number };
export type WooFakeAddress = {
  first_name: string;
  last_name: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  phone?: string;
};
export type WooFakeOrder = {
  id: number;
  number: string;
  total: string;
  currency: string;
  status?: string;
  customer_id?: number;
  date_created?: string;
  date_created_gmt?: string;
  date_paid_gmt?: string | null;
  date_modified_gmt?: string;
  shipping?: WooFakeAddress;
  line_items: {
    id: number;
    name?: string;
    product_id?: number;
    variation_id?: number;
    sku: string;
    quantity: number;
    price: number;
    total: string;
  }[];
  notes?: { id: number; note: string; customer_note: boolean; date_created: string }[];
};

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** The image type from the bytes (WordPress checks the real type of an upload, not its name). */
const sniffImage = (bytes: Buffer): string | null => {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'webp';
  return null;
};
const ALLOWED_EXT = /\.(png|jpe?g|gif|webp)$/i;
export const appPasswordHash = (password: string) =>
  createHash('sha256').update(password.replace(/\s+/g, '')).digest('hex');

/** `Content-Disposition: attachment; filename="a.png"` (or `filename=a.png`) -> the name, as WordPress reads it. */
const dispositionFilename = (header: string): string | null => {
  const m = /filename\*?=(?:"([^"]*)"|([^;\s]+))/i.exec(header);
  const name = (m?.[1] ?? m?.[2] ?? '').trim();
  return name ? decodeURIComponent(name.replace(/^UTF-8''/i, '')) : null;
};

/** The `file` part of a multipart body: its name and bytes. */
const multipartFile = (raw: Buffer, contentType: string): { filename: string; bytes: Buffer } | null => {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return null;
  const delimiter = Buffer.from(`--${b}`);
  let start = raw.indexOf(delimiter);
  while (start >= 0) {
    const next = raw.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = raw.subarray(start + delimiter.length + 2, next - 2);
    const headEnd = part.indexOf('\r\n\r\n');
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString('utf8');
      if (/name="file"/i.test(head)) {
        const filename = /filename="([^"]*)"/i.exec(head)?.[1] ?? '';
        return { filename, bytes: part.subarray(headEnd + 4) };
      }
    }
    start = next;
  }
  return null;
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
  stores?: {
    host: string;
    name?: string;
    consumerKey: string;
    consumerSecret: string;
    /** WordPress users with an application password (as WordPress shows it, spaces allowed). */
    users?: { username: string; appPassword: string; uploadFiles?: boolean }[];
  }[];
  now?: () => number;
  /** Hosts whose web server drops the Authorization header before WordPress sees it (some FastCGI setups). */
  stripAuthorization?: string[];
};

export type FakeWoo = {
  url: string;
  /** The client's base URL for a store's https address. */
  baseFor(storeUrl: string): string;
  createStore(host: string, name: string): { consumerKey: string; consumerSecret: string };
  /** A WordPress user of the store (made if new) and a new application password for it, as WordPress shows it. */
  createAppPassword(host: string, username: string, options?: { uploadFiles?: boolean }): string;
  products(host: string): WooFakeProduct[];
  media(host: string): WooFakeMedia[];
  /** The seller deletes an attachment from the media library. */
  deleteMedia(host: string, id: number): void;
  orders(host: string): WooFakeOrder[];
  webhooks(host: string): WooFakeState['stores'][string]['webhooks'];
  snapshot(): WooFakeState;
  /**
   * A buyer's order (paid: 'processing' unless said otherwise): sends `order.created` to every active webhook of
   * that topic, signed; the delivery answers. A line's product, variation, name and price come from the store's
   * variation with that SKU when there is one.
   */
  placeOrder(
    host: string,
    order: {
      lineItems: { sku: string; quantity: number; price?: string; name?: string }[];
      currency?: string;
      status?: string;
      shipping?: Partial<WooFakeAddress>;
    },
  ): Promise<{ orderId: number; deliveries: { url: string; status: number; deliveryId: string }[] }>;
  /** The store changes an order's status (payment taken, cancelled...) and sends `order.updated`. */
  setOrderStatus(
    host: string,
    orderId: number,
    status: string,
  ): Promise<{ deliveries: { url: string; status: number; deliveryId: string }[] }>;
  /**
   * The host drops (or, with false, passes again) the Authorization header before WordPress sees it: Basic auth
   * is then never seen, and only `?consumer_key=…&consumer_secret=…` authenticates (apis.md C2).
   */
  stripAuthorization(host: string, strip?: boolean): void;
  /** The next delivery is sent twice with the same X-WC-Webhook-Delivery-ID (a retried delivery). */
  duplicateNextDelivery(): void;
  /** The next product create is applied, then answers 500 (a lost answer). */
  failNextCreateAfterCreating(): void;
  /** The next variations batch answers 500 and applies nothing (a host's timeout). */
  failNextVariationBatch(): void;
  /** The next `n` REST calls answer 429 with `Retry-After: seconds` (a host's or a security plugin's limit). */
  rateLimitNext(n: number, seconds?: number): void;
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

const ORDER_STATUSES = ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed', 'trash'];

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
  let failBatch = false;
  let limited = { n: 0, seconds: 1 };
  let base = '';
  const id = () => ++state.nextId;
  const persist = async () => options.persist?.(structuredClone(state));
  const stripping = new Set(options.stripAuthorization ?? []);
  const stamp = () => new Date(now()).toISOString().slice(0, 19);

  function addAppPassword(host: string, username: string, password: string, uploadFiles: boolean) {
    const store = state.stores[host];
    if (!store) throw new Error(`No store ${host}`);
    store.users ??= [];
    let user = store.users.find((u) => u.username === username);
    if (!user) {
      user = { id: id(), username, uploadFiles, appPasswords: [] };
      store.users.push(user);
    }
    user.uploadFiles = uploadFiles;
    user.appPasswords.push(appPasswordHash(password));
  }

  /**
   * WordPress's application-password check for `/wp/v2/` routes [SRC wp-includes/user.php
   * wp_authenticate_application_password, as we read it]: an unknown user and a wrong password are refused with
   * their own codes; WooCommerce's consumer keys mean nothing here, so they fail as an unknown user.
   */
  const wpUser = (req: http.IncomingMessage, host: string) => {
    const store = state.stores[host];
    const header = String(req.headers.authorization ?? '');
    if (!store || !header.startsWith('Basic ')) return null;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const username = decoded.slice(0, colon);
    const user = (store.users ?? []).find((u) => u.username === username);
    if (!user)
      throw new WooRefusal(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
    if (!user.appPasswords.includes(appPasswordHash(decoded.slice(colon + 1))))
      throw new WooRefusal(401, 'incorrect_password', 'The provided password is an invalid application password.');
    return user;
  };

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
    for (const u of s.users ?? []) addAppPassword(s.host, u.username, u.appPassword, u.uploadFiles !== false);
  }

  /**
   * WooCommerce's REST authentication over https [SRC class-wc-rest-authentication.php, _authentication.md]: Basic
   * auth with the consumer key and secret, else `consumer_key`/`consumer_secret` in the query string. With neither
   * (a host that strips Authorization) no user is authenticated and the route's permission check refuses:
   * `woocommerce_rest_cannot_view` (read), `_create`, `_edit`, `_delete`.
   */
  const authStore = (req: http.IncomingMessage, host: string, url: URL) => {
    const store = state.stores[host];
    const header = stripping.has(host) ? '' : String(req.headers.authorization ?? '');
    const [user, pass] = header.startsWith('Basic ')
      ? Buffer.from(header.slice(6), 'base64').toString('utf8').split(':')
      : [url.searchParams.get('consumer_key') ?? undefined, url.searchParams.get('consumer_secret') ?? undefined];
    if (!store || !user) {
      const method = req.method ?? 'GET';
      const [code, message] =
        method === 'GET'
          ? ['woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.']
          : method === 'POST'
            ? ['woocommerce_rest_cannot_create', 'Sorry, you are not allowed to create resources.']
            : method === 'DELETE'
              ? ['woocommerce_rest_cannot_delete', 'Sorry, you are not allowed to delete this resource.']
              : ['woocommerce_rest_cannot_edit', 'Sorry, you are not allowed to edit this resource.'];
      throw new WooRefusal(401, code, message);
    }
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
    const url = `${base}/${host}/wp-content/uploads/${imageId}.png`;
    const store = state.stores[host];
    if (store) {
      store.media ??= {};
      store.media[String(imageId)] = {
        id: imageId,
        source_url: url,
        mime_type: 'image/png',
        media_type: 'image',
        author: 0,
      };
    }
    return { id: imageId, src: url, name: `${imageId}.png`, position };
  };

  /** `images[].id` / `image.id`: an image attachment of this store, else refused as WooCommerce refuses it. */
  const attachment = (host: string, value: unknown, position: number, code: string): WooImage => {
    const media = state.stores[host]?.media?.[String(Number(value))];
    if (media?.media_type !== 'image') throw new WooRefusal(400, code, `#${String(value)} is an invalid image ID.`);
    const name = media.source_url.split('/').pop() ?? `${media.id}`;
    return { id: media.id, src: media.source_url, name, position };
  };

  const readImages = async (host: string, p: WooFakeProduct, list: unknown) => {
    if (!Array.isArray(list)) return;
    const out: WooImage[] = [];
    for (const [i, entry] of (list as Record<string, unknown>[]).entries()) {
      const given = entry.id !== undefined && entry.id !== null && Number(entry.id) !== 0;
      out.push(
        given
          ? attachment(host, entry.id, i, 'woocommerce_product_invalid_image_id')
          : await sideload(host, entry.src, i),
      );
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
        const given = img.id !== undefined && img.id !== null && Number(img.id) !== 0;
        v.image = given
          ? attachment(host, img.id, 0, 'woocommerce_variation_invalid_image_id')
          : await sideload(host, img.src, 0);
      }
    }
    if (body.manage_stock !== undefined) v.manage_stock = body.manage_stock === true;
    if (body.status !== undefined) v.status = String(body.status);
  };

  /** WordPress's routes: the application password's user, and the media library. */
  async function wordpress(req: http.IncomingMessage, url: URL, res: http.ServerResponse, host: string, p: string) {
    const store = state.stores[host];
    if (!store) throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const method = req.method ?? 'GET';
    const user = wpUser(req, host);
    if (method === 'GET' && p === '/users/me') {
      if (!user) throw new WooRefusal(401, 'rest_not_logged_in', 'You are not currently logged in.');
      const capabilities = { read: true, upload_files: user.uploadFiles, edit_posts: user.uploadFiles };
      return send(res, 200, {
        id: user.id,
        name: user.username,
        slug: user.username,
        ...(url.searchParams.get('context') === 'edit' ? { username: user.username, capabilities } : {}),
      });
    }
    const one = /^\/media\/(\d+)$/.exec(p);
    if (method === 'GET' && one) {
      if (!user && url.searchParams.get('context') === 'edit')
        throw new WooRefusal(401, 'rest_forbidden_context', 'Sorry, you are not allowed to edit this post.');
      const media = store.media?.[one[1] ?? ''];
      if (!media) throw new WooRefusal(404, 'rest_post_invalid_id', 'Invalid post ID.');
      return send(res, 200, media);
    }
    if (method === 'POST' && p === '/media') {
      if (!user)
        throw new WooRefusal(401, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
      if (!user.uploadFiles)
        throw new WooRefusal(403, 'rest_cannot_create', 'Sorry, you are not allowed to upload media on this site.');
      const raw = await readRaw(req);
      const contentType = String(req.headers['content-type'] ?? '');
      let file: { filename: string; bytes: Buffer } | null;
      if (/^multipart\/form-data/i.test(contentType)) {
        file = multipartFile(raw, contentType);
        if (!file) throw new WooRefusal(400, 'rest_upload_no_data', 'No data supplied.');
      } else {
        if (raw.length === 0) throw new WooRefusal(400, 'rest_upload_no_data', 'No data supplied.');
        if (!contentType) throw new WooRefusal(400, 'rest_upload_no_content_type', 'No Content-Type supplied.');
        const disposition = String(req.headers['content-disposition'] ?? '');
        if (!disposition)
          throw new WooRefusal(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
        const filename = dispositionFilename(disposition);
        if (!filename)
          throw new WooRefusal(
            400,
            'rest_upload_invalid_disposition',
            'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.',
          );
        file = { filename, bytes: raw };
      }
      // wp_handle_sideload refuses a type the site does not allow (SVG by default), answered as a 500 by the
      // attachments controller; an image's real type comes from its bytes.
      const kind = sniffImage(file.bytes);
      if (!ALLOWED_EXT.test(file.filename) || !kind)
        throw new WooRefusal(500, 'rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.');
      const mediaId = id();
      await images.put(mediaId, file.bytes);
      const media: WooFakeMedia = {
        id: mediaId,
        source_url: `${base}/${host}/wp-content/uploads/${mediaId}.${kind}`,
        mime_type: IMAGE_TYPES[kind] ?? 'image/png',
        media_type: 'image',
        author: user.id,
      };
      store.media ??= {};
      store.media[String(mediaId)] = media;
      await persist();
      return send(res, 201, { ...media, title: { rendered: file.filename.replace(/\.[^.]+$/, '') } });
    }
    throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  async function route(req: http.IncomingMessage, url: URL, res: http.ServerResponse) {
    const m = /^\/([a-z0-9.-]+)(\/.*)$/.exec(url.pathname);
    if (!m) throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const host = m[1] ?? '';
    const path = m[2] ?? '';
    const method = req.method ?? 'GET';
    const upload = /^\/wp-content\/uploads\/(\d+)\.(png|jpg|gif|webp)$/.exec(path);
    if (method === 'GET' && upload) {
      const bytes = await images.get(Number(upload[1]));
      if (!bytes) return send(res, 404, { code: 'not_found' });
      res.writeHead(200, { 'Content-Type': IMAGE_TYPES[upload[2] ?? 'png'] ?? 'application/octet-stream' });
      res.end(bytes);
      return;
    }
    if (path.startsWith('/wp-json/wp/v2/')) return wordpress(req, url, res, host, path.slice('/wp-json/wp/v2'.length));
    if (method === 'GET' && path === '/wp-json/') {
      const store = state.stores[host];
      if (!store) throw new WooRefusal(404, 'rest_no_route', 'Not found');
      return send(res, 200, { name: store.name, description: '', url: `https://${host}`, namespaces: ['wc/v3'] });
    }
    if (!path.startsWith('/wp-json/wc/v3/'))
      throw new WooRefusal(404, 'rest_no_route', 'No route was found matching the URL and request method.');
    const store = authStore(req, host, url);
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
        if (failBatch) {
          failBatch = false;
          throw new WooRefusal(500, 'internal_server_error', 'The request timed out.');
        }
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
    if (method === 'GET' && p === '/orders') {
      // modified_after (with dates_are_gmt), oldest first, paged as WooCommerce pages.
      const after = url.searchParams.get('modified_after');
      const perPage = Number(url.searchParams.get('per_page') ?? 10);
      const page = Number(url.searchParams.get('page') ?? 1);
      const changed = store.orders
        .filter((o) => !after || (o.date_modified_gmt ?? o.date_created_gmt ?? '') >= after.replace(/Z$/, ''))
        .sort((a, b) => a.id - b.id);
      return send(
        res,
        200,
        changed.slice((page - 1) * perPage, page * perPage).map((o) => orderView(host, o)),
      );
    }
    const om = /^\/orders\/(\d+)(\/notes)?$/.exec(p);
    if (om) {
      const order = store.orders.find((o) => o.id === Number(om[1]));
      if (!order) throw new WooRefusal(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
      if (!om[2] && method === 'GET') return send(res, 200, orderView(host, order));
      if (!om[2] && (method === 'PUT' || method === 'POST')) {
        if (body.status !== undefined) {
          const status = String(body.status);
          if (!ORDER_STATUSES.includes(status))
            throw new WooRefusal(400, 'rest_invalid_param', 'Invalid parameter(s): status');
          order.status = status;
          order.date_modified_gmt = stamp();
        }
        await persist();
        return send(res, 200, orderView(host, order));
      }
      if (om[2] && method === 'GET') return send(res, 200, [...(order.notes ?? [])].reverse());
      if (om[2] && method === 'POST') {
        if (typeof body.note !== 'string' || !body.note)
          throw new WooRefusal(400, 'rest_missing_callback_param', 'Missing parameter(s): note');
        const note = { id: id(), note: body.note, customer_note: body.customer_note === true, date_created: stamp() };
        order.notes ??= [];
        order.notes.push(note);
        await persist();
        return send(res, 201, { ...note, author: 'system' });
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

  const orderView = (host: string, o: WooFakeOrder) => ({
    ...o,
    notes: undefined,
    status: o.status ?? 'processing',
    _links: { self: [{ href: `https://${host}/wp-json/wc/v3/orders/${o.id}` }] },
  });

  let duplicateNext = false;
  /** Sends a topic's payload to every active webhook of that topic, signed as WooCommerce signs it. */
  const deliver = async (host: string, topic: string, payload: string) => {
    const store = state.stores[host];
    const deliveries: { url: string; status: number; deliveryId: string }[] = [];
    const times = duplicateNext ? 2 : 1;
    duplicateNext = false;
    for (const hook of (store?.webhooks ?? []).filter((w) => w.topic === topic && w.status === 'active')) {
      const deliveryId = randomUUID();
      for (let i = 0; i < times; i++) {
        const r = await fetch(hook.delivery_url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-WC-Webhook-Source': `https://${host}/`,
            'X-WC-Webhook-Topic': topic,
            'X-WC-Webhook-Resource': topic.split('.')[0] ?? '',
            'X-WC-Webhook-Event': topic.split('.')[1] ?? '',
            'X-WC-Webhook-Signature': wooSignature(payload, hook.secret),
            'X-WC-Webhook-ID': String(hook.id),
            'X-WC-Webhook-Delivery-ID': deliveryId,
          },
          body: payload,
        }).catch(() => null);
        await r?.body?.cancel();
        deliveries.push({ url: hook.delivery_url, status: r?.status ?? 0, deliveryId });
      }
    }
    return deliveries;
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (limited.n > 0 && url.pathname.includes('/wp-json/wc/')) {
      limited.n -= 1;
      const retryAfter = { 'Retry-After': String(limited.seconds) };
      send(res, 429, { code: 'too_many_requests', message: 'Too many requests', data: { status: 429 } }, retryAfter);
      calls.push({ method: req.method ?? 'GET', path: url.pathname, status: 429 });
      return;
    }
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
    createAppPassword: (host, username, opts = {}) => {
      // WordPress shows a new application password once, as six groups of four.
      const password = (
        randomBytes(18)
          .toString('base64')
          .replace(/[^A-Za-z0-9]/g, 'x')
          .slice(0, 24)
          .match(/.{4}/g) ?? []
      ).join(' ');
      addAppPassword(host, username, password, opts.uploadFiles !== false);
      void persist();
      return password;
    },
    products: (host) => Object.values(state.stores[host]?.products ?? {}),
    media: (host) => Object.values(state.stores[host]?.media ?? {}),
    deleteMedia: (host, mediaId) => {
      delete state.stores[host]?.media?.[String(mediaId)];
      void persist();
    },
    orders: (host) => state.stores[host]?.orders ?? [],
    webhooks: (host) => state.stores[host]?.webhooks ?? [],
    snapshot: () => structuredClone(state),
    async placeOrder(host, order) {
      const store = state.stores[host];
      if (!store) throw new Error(`No store ${host}`);
      const lines = order.lineItems.map((l) => {
        for (const p of Object.values(store.products)) {
          const v = p.variations.find((x) => x.sku === l.sku);
          if (v) {
            const options = v.attributes.map((a) => a.option).join(', ');
            return {
              id: id(),
              name: `${p.name}${options ? ` - ${options}` : ''}`,
              product_id: p.id,
              variation_id: v.id,
              sku: l.sku,
              quantity: l.quantity,
              price: Number(l.price ?? v.regular_price),
              total: (Number(l.price ?? v.regular_price) * l.quantity).toFixed(2),
            };
          }
        }
        const price = Number(l.price ?? '0');
        return {
          id: id(),
          name: l.name ?? l.sku,
          product_id: 0,
          variation_id: 0,
          sku: l.sku,
          quantity: l.quantity,
          price,
          total: (price * l.quantity).toFixed(2),
        };
      });
      const total = lines.reduce((sum, l) => sum + Number(l.total), 0).toFixed(2);
      const status = order.status ?? 'processing';
      const record: WooFakeOrder = {
        id: id(),
        number: '',
        status,
        total,
        currency: order.currency ?? 'USD',
        customer_id: 0,
        date_created: stamp(),
        date_created_gmt: stamp(),
        date_paid_gmt: ['processing', 'completed'].includes(status) ? stamp() : null,
        shipping: {
          first_name: 'Ada',
          last_name: 'Buyer',
          address_1: '19749 Dearborn St',
          address_2: '',
          city: 'Chatsworth',
          state: 'CA',
          postcode: '91311',
          country: 'US',
          phone: '',
          ...order.shipping,
        },
        line_items: lines,
        notes: [],
      };
      record.number = String(record.id);
      store.orders.push(record);
      await persist();
      const deliveries = await deliver(host, 'order.created', JSON.stringify(orderView(host, record)));
      return { orderId: record.id, deliveries };
    },
    async setOrderStatus(host, orderId, status) {
      const order = state.stores[host]?.orders.find((o) => o.id === orderId);
      if (!order) throw new Error(`No order ${orderId}`);
      order.status = status;
      order.date_modified_gmt = stamp();
      if (['processing', 'completed'].includes(status)) order.date_paid_gmt ??= stamp();
      await persist();
      return { deliveries: await deliver(host, 'order.updated', JSON.stringify(orderView(host, order))) };
    },
    stripAuthorization: (host, strip = true) => {
      if (strip) stripping.add(host);
      else stripping.delete(host);
    },
    duplicateNextDelivery: () => {
      duplicateNext = true;
    },
    failNextCreateAfterCreating: () => {
      failCreate = true;
    },
    failNextVariationBatch: () => {
      failBatch = true;
    },
    rateLimitNext: (n, seconds = 1) => {
      limited = { n, seconds };
    },
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
