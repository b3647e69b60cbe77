import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * WooCommerce REST API v3 client (apis.md C, E7). Keys travel as HTTP Basic auth, which WooCommerce accepts over
 * HTTPS only, so a store address that is not https is refused before anything is sent. Where a store's https
 * address is served from (`baseFor`), fetch and sleep are injectable, so the same code talks to a real store and to
 * the local fake (the sandbox).
 */

export class WooError extends Error {
  constructor(
    /** HTTP status the store answered, or 502 when it could not be reached or answered nonsense. */
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WooError';
  }
}

/**
 * WooCommerce's consumer keys authenticate its own routes (`/wc/v3/`) only; WordPress's routes (`/wp/v2/media`)
 * take a WordPress user's application password, also as Basic auth (woocommerce/woocommerce#19730,
 * woocommerce/woocommerce-rest-api#123). Optional: without it pictures go by URL.
 */
export type WpCredentials = { username: string; appPassword: string };
export type WooCredentials = {
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  wordpress?: WpCredentials | null;
};
/** A WordPress media item (the attachment's id is what `images[].id` and a variation's `image.id` take). */
export type WpMedia = { id: number; source_url: string; media_type: string; mime_type: string };
export type WpUser = { id: number; name: string; capabilities?: Record<string, boolean> };
export type WooOrder = { id: number; status: string; number?: string };
export type WooOrderNote = { id: number; note: string; customer_note: boolean };
export type WooImageInput = { id?: number; src?: string };
export type WooProductInput = {
  name: string;
  type: 'variable';
  status: 'publish' | 'draft';
  description: string;
  sku: string;
  tags: { name: string }[];
  images: WooImageInput[];
  attributes: { name: string; position: number; visible: boolean; variation: boolean; options: string[] }[];
};
export type WooProduct = {
  id: number;
  name: string;
  sku: string;
  status: string;
  permalink: string;
  images: { id: number; src: string }[];
  attributes: { name: string; options: string[] }[];
  tags: { name: string }[];
  type: string;
};
export type WooVariationInput = {
  id?: number;
  sku: string;
  regular_price: string;
  attributes: { name: string; option: string }[];
  image?: WooImageInput;
  manage_stock?: boolean;
};
export type WooVariation = {
  id: number;
  sku: string;
  regular_price: string;
  attributes: { name: string; option: string }[];
  image: { id: number; src: string } | null;
};
type BatchItem = WooVariation | { id: number; error: { code: string; message: string } };

export type WooClientOptions = {
  /** The base URL requests go to for a store's https address: the address itself for real stores. */
  baseFor?: (storeUrl: string) => string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** A host's 429s waited out per call before its refusal is answered. */
  maxRateLimitRetries?: number;
  /** The longest `Retry-After` waited out; a longer one is answered at once (the host says to come back later). */
  maxWaitMs?: number;
};

/** `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body with the webhook's secret. */
export function verifyWooSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(header, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export class WooClient {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  /** Stores whose host strips the Authorization header: their keys go in the query string (see `request`). */
  private readonly strippingHosts = new Set<string>();

  constructor(readonly options: WooClientOptions = {}) {
    this.fetchImpl = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private base(storeUrl: string): string {
    let url: URL;
    try {
      url = new URL(storeUrl);
    } catch {
      throw new WooError(400, `Not a store address: ${storeUrl}`);
    }
    if (url.protocol !== 'https:') throw new WooError(400, 'WooCommerce keys are only sent over https://');
    return (this.options.baseFor?.(storeUrl) ?? storeUrl).replace(/\/+$/, '');
  }

  /**
   * A WooCommerce route with the store's keys: Basic auth, or the query string on a host found to strip the
   * Authorization header (WooCommerce's documented fallback over https, apis.md C2). A host is found out by its
   * answer to Basic auth: 401 `woocommerce_rest_cannot_*`, the refusal of a request in which WooCommerce saw no
   * credentials at all (wrong keys answer `woocommerce_rest_authentication_error` instead). Nothing was done by a
   * refused request, so it is sent again with the keys in the query, and the host is remembered.
   */
  async request<T>(creds: WooCredentials, method: string, path: string, body?: unknown): Promise<T> {
    const json = body !== undefined ? { body: JSON.stringify(body), contentType: 'application/json' } : undefined;
    const opts = {
      user: creds.consumerKey,
      password: creds.consumerSecret,
      label: 'WooCommerce',
      ...(json ? { payload: json } : {}),
    };
    const site = creds.storeUrl.replace(/\/+$/, '');
    if (!this.strippingHosts.has(site)) {
      try {
        return await this.send<T>(creds.storeUrl, `/wp-json/wc/v3${path}`, method, opts);
      } catch (error) {
        if (
          !(error instanceof WooError && error.status === 401 && /^woocommerce_rest_cannot_/.test(error.code ?? ''))
        ) {
          throw error;
        }
        this.strippingHosts.add(site);
      }
    }
    const keys = new URLSearchParams({ consumer_key: creds.consumerKey, consumer_secret: creds.consumerSecret });
    const withKeys = `/wp-json/wc/v3${path}${path.includes('?') ? '&' : '?'}${keys.toString()}`;
    return this.send<T>(creds.storeUrl, withKeys, method, { ...opts, basic: false });
  }

  /** A WordPress route (`/wp/v2/...`) as the WordPress user of the application password. */
  private wpRequest<T>(
    creds: WooCredentials,
    method: string,
    path: string,
    payload?: { body: Buffer | string; contentType: string; headers?: Record<string, string> },
  ): Promise<T> {
    if (!creds.wordpress) throw new WooError(400, 'No WordPress application password was given for this store');
    return this.send<T>(creds.storeUrl, `/wp-json/wp/v2${path}`, method, {
      user: creds.wordpress.username,
      // WordPress shows application passwords in groups of four and ignores the spaces.
      password: creds.wordpress.appPassword.replace(/\s+/g, ''),
      label: 'WordPress',
      ...(payload ? { payload } : {}),
    });
  }

  private async send<T>(
    storeUrl: string,
    path: string,
    method: string,
    opts: {
      user: string;
      password: string;
      label: string;
      payload?: { body: Buffer | string; contentType: string; headers?: Record<string, string> };
      /** false: no Authorization header (the keys are in the query string). */
      basic?: boolean;
    },
  ): Promise<T> {
    const url = `${this.base(storeUrl)}${path}`;
    const auth = Buffer.from(`${opts.user}:${opts.password}`).toString('base64');
    let response: Response;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await this.fetchImpl(url, {
          method,
          headers: {
            ...(opts.basic === false ? {} : { Authorization: `Basic ${auth}` }),
            Accept: 'application/json',
            ...(opts.payload ? { 'Content-Type': opts.payload.contentType, ...opts.payload.headers } : {}),
          },
          ...(opts.payload
            ? { body: typeof opts.payload.body === 'string' ? opts.payload.body : new Uint8Array(opts.payload.body) }
            : {}),
        });
      } catch {
        throw new WooError(502, `${new URL(storeUrl).host} could not be reached`);
      }
      // WooCommerce has no limit of its own; a host or a security plugin may (429 with Retry-After in seconds). A
      // short one is waited out (the request did nothing); a long one is the host's refusal, answered as it is.
      if (response.status !== 429 || attempt >= (this.options.maxRateLimitRetries ?? 3)) break;
      const seconds = Number(response.headers.get('retry-after') ?? '1');
      const waitMs = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
      if (waitMs > (this.options.maxWaitMs ?? 30_000)) break;
      await response.body?.cancel();
      await this.sleep(waitMs);
    }
    const json = (await response.json().catch(() => null)) as (T & { code?: unknown; message?: unknown }) | null;
    if (!response.ok) {
      const message = typeof json?.message === 'string' ? json.message : `HTTP ${response.status}`;
      throw new WooError(
        response.status,
        `${opts.label}: ${message}`.slice(0, 300),
        typeof json?.code === 'string' ? json.code : undefined,
      );
    }
    if (json === null) throw new WooError(502, `${opts.label} sent an unreadable answer`);
    return json;
  }

  /** The application password's user, with its capabilities (`context=edit`, which a user may read of itself). */
  wpMe(creds: WooCredentials) {
    return this.wpRequest<WpUser>(creds, 'GET', '/users/me?context=edit');
  }

  /**
   * Uploads a picture to the store's media library: the file as the raw body, its type in Content-Type and its
   * name in Content-Disposition (WordPress's attachments controller refuses a body without either).
   */
  uploadMedia(creds: WooCredentials, file: { bytes: Buffer; filename: string; contentType: string }) {
    return this.wpRequest<WpMedia>(creds, 'POST', '/media', {
      body: file.bytes,
      contentType: file.contentType,
      headers: { 'Content-Disposition': `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '')}"` },
    });
  }

  /** A media item, or null when the store no longer has it. */
  async getMedia(creds: WooCredentials, id: number): Promise<WpMedia | null> {
    try {
      return await this.wpRequest<WpMedia>(creds, 'GET', `/media/${id}?context=edit`);
    } catch (error) {
      if (error instanceof WooError && error.status === 404) return null;
      throw error;
    }
  }

  /** One page (from 1) of the orders changed at or after `after`, oldest first, 100 a page (REST v3 orders list). */
  ordersModifiedAfter(creds: WooCredentials, after: Date, page = 1) {
    const query = new URLSearchParams({
      modified_after: after.toISOString().slice(0, 19),
      dates_are_gmt: 'true',
      orderby: 'date',
      order: 'asc',
      per_page: '100',
      page: String(page),
    });
    return this.request<unknown[]>(creds, 'GET', `/orders?${query.toString()}`);
  }

  getOrder(creds: WooCredentials, id: number) {
    return this.request<WooOrder>(creds, 'GET', `/orders/${id}`);
  }

  updateOrder(creds: WooCredentials, id: number, input: { status: string }) {
    return this.request<WooOrder>(creds, 'PUT', `/orders/${id}`, input);
  }

  orderNotes(creds: WooCredentials, id: number) {
    return this.request<WooOrderNote[]>(creds, 'GET', `/orders/${id}/notes`);
  }

  /** An order note; `customer_note: true` shows it to the customer and emails it to them. */
  addOrderNote(creds: WooCredentials, id: number, input: { note: string; customer_note: boolean }) {
    return this.request<WooOrderNote>(creds, 'POST', `/orders/${id}/notes`, input);
  }

  /** The site's name from the WordPress index (public), for the store's label. */
  async siteName(storeUrl: string): Promise<string> {
    const response = await this.fetchImpl(`${this.base(storeUrl)}/wp-json/`, {
      headers: { Accept: 'application/json' },
    }).catch(() => null);
    const json = response?.ok ? ((await response.json().catch(() => null)) as { name?: unknown } | null) : null;
    return typeof json?.name === 'string' && json.name.trim() ? json.name : new URL(storeUrl).host;
  }

  /** Proves the keys work (and may write products) with a cheap authenticated read. */
  async verify(creds: WooCredentials): Promise<void> {
    await this.request<unknown[]>(creds, 'GET', '/products?per_page=1');
  }

  async productsBySku(creds: WooCredentials, sku: string): Promise<WooProduct[]> {
    return this.request<WooProduct[]>(creds, 'GET', `/products?sku=${encodeURIComponent(sku)}`);
  }

  createProduct(creds: WooCredentials, input: WooProductInput) {
    return this.request<WooProduct>(creds, 'POST', '/products', input);
  }

  updateProduct(creds: WooCredentials, id: number, input: Partial<WooProductInput>) {
    return this.request<WooProduct>(creds, 'PUT', `/products/${id}`, input);
  }

  getProduct(creds: WooCredentials, id: number) {
    return this.request<WooProduct>(creds, 'GET', `/products/${id}`);
  }

  deleteProduct(creds: WooCredentials, id: number, force: boolean) {
    return this.request<WooProduct>(creds, 'DELETE', `/products/${id}?force=${force}`);
  }

  variations(creds: WooCredentials, productId: number) {
    return this.request<WooVariation[]>(creds, 'GET', `/products/${productId}/variations?per_page=100`);
  }

  /** Creates, updates and deletes variations in batches of at most 100; any item's error throws with its message. */
  async batchVariations(
    creds: WooCredentials,
    productId: number,
    ops: { create: WooVariationInput[]; update: WooVariationInput[]; delete: number[] },
  ): Promise<WooVariation[]> {
    const all = [
      ...ops.create.map((v) => ['create', v] as const),
      ...ops.update.map((v) => ['update', v] as const),
      ...ops.delete.map((v) => ['delete', v] as const),
    ];
    const done: WooVariation[] = [];
    for (let i = 0; i < all.length; i += 100) {
      const chunk = all.slice(i, i + 100);
      const body = {
        create: chunk.filter(([k]) => k === 'create').map(([, v]) => v),
        update: chunk.filter(([k]) => k === 'update').map(([, v]) => v),
        delete: chunk.filter(([k]) => k === 'delete').map(([, v]) => v),
      };
      const result = await this.request<{ create?: BatchItem[]; update?: BatchItem[] }>(
        creds,
        'POST',
        `/products/${productId}/variations/batch`,
        body,
      );
      for (const item of [...(result.create ?? []), ...(result.update ?? [])]) {
        if ('error' in item)
          throw new WooError(400, `WooCommerce refused a variation: ${item.error.message}`, item.error.code);
        done.push(item);
      }
    }
    return done;
  }

  deleteWebhook(creds: WooCredentials, id: number) {
    return this.request<{ id: number }>(creds, 'DELETE', `/webhooks/${id}?force=true`);
  }

  createWebhook(creds: WooCredentials, input: { name: string; topic: string; deliveryUrl: string; secret: string }) {
    return this.request<{ id: number }>(creds, 'POST', '/webhooks', {
      name: input.name,
      topic: input.topic,
      delivery_url: input.deliveryUrl,
      secret: input.secret,
      status: 'active',
    });
  }
}
