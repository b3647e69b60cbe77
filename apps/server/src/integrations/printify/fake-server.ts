import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetchImage, postWebhook } from '../fake-printer-net';
import type { PfyOrder, PfyProduct, PfyShipment } from './api';
import { type FakeRecord, memoryFakeStore, type PrintifyFakeStore } from './fake-store';
import { type FixtureBlueprint, type FixtureProvider, PRINTIFY_BLUEPRINTS } from './fixtures';

/**
 * A local stand-in for api.printify.com v1, following apis-next.md F and its checklist (F.10); listens on 127.0.0.1.
 * - Auth: `Authorization: Bearer` with a personal access token it issued (valid a year unless told otherwise; 401
 *   after expiry) and a `User-Agent`; each token has scopes and a call outside them is refused (403).
 * - Rate limits per account (not per token): 600 a minute, 100 a minute for the catalogue, 200 publishes per 30
 *   minutes; excess answers 429 with no Retry-After. Errors are counted (`errorRatio`).
 * - Catalogue: blueprints -> print providers -> variants with placeholder pixel sizes; shipping profiles in cents.
 * - Uploads: content-addressed (same bytes, same id), by base64 `contents` or `url`; no resolution check.
 * - Products: create answers 200 with the whole variant matrix (unlisted variants disabled, price seeded with the
 *   cost), print areas rewritten over every variant, unused placeholders with `images: []`, the blueprint's tags
 *   added; update needs every variant covered by the print areas (8251) and a price on every variant entry (8150),
 *   merges variants by id, ignores `blueprint_id`/`print_provider_id`, takes `sku`.
 * - Orders: three line-item forms; `{id}` answered; created `on-hold` (the shop's approval is manual) or sent by
 *   itself after `autoApproveMs`; a duplicate `external_id` is accepted (Printify does not deduplicate);
 *   send_to_production -> sending-to-production -> (images fetched; one that cannot be: has-issues) in-production
 *   -> fulfilled with a shipment -> delivered; `payment-not-received` when told to; cancel only while on-hold or
 *   payment-not-received. Shipping quote keyed by method; express split.
 * - Webhooks: per topic with a secret; deliveries signed `X-Pfy-Signature: sha256=<hex HMAC-SHA256(secret, body)>`;
 *   a failed delivery is retried 3 times, then the webhook is blocked for an hour; `simulate`; delete needs `host`.
 * - Lists answer Laravel's paginator and ignore filters they do not know.
 * Money is integer cents and no answer carries a currency. Time moves on only through `tick()`.
 */

export const PRINTIFY_SCOPES = [
  'shops.read',
  'catalog.read',
  'products.read',
  'products.write',
  'orders.read',
  'orders.write',
  'webhooks.read',
  'webhooks.write',
  'uploads.read',
  'uploads.write',
  'print_providers.read',
] as const;

export const PRINTIFY_TOPICS = [
  'shop:disconnected',
  'product:deleted',
  'product:created',
  'product:updated',
  'product:publish:started',
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
];

export function signPrintifyWebhook(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export type FakePrintifyOptions = {
  now?: () => number;
  store?: PrintifyFakeStore;
  /** Delays of an order's steps after it is sent to production, in ms. */
  delays?: { production?: number; ship?: number; deliver?: number };
  /** When set, an on-hold order is sent to production by itself this long after it was made (the shop's setting). */
  autoApproveMs?: number | null;
  /** Downloads an image the order names; true when it is an image. Defaults to fetch. */
  fetchFile?: (url: string) => Promise<boolean>;
  /** Sends a webhook; defaults to fetch POST; throws when the receiver did not answer 2xx. */
  post?: (url: string, body: string, headers: Record<string, string>) => Promise<void>;
  /** Asks the owner to call `tick()` at this instant. */
  schedule?: (at: Date) => void;
  /** Per-account limits (tests make them small). */
  rateLimits?: { global?: number; catalog?: number; publish?: number };
  /** The built-in sandbox's tokens: the account (and its one shop) a token stands for, or null. */
  sandboxAccount?: (token: string) => string | null;
  /** The OAuth app (multi-merchant) Printify knows: its id. */
  appId?: string;
};

type Account = { id: string; shops: { id: string; title: string; sales_channel: string }[] };
type Token = { account: string; expiresAt: number; scopes: Set<string> };

export type FakePrintify = {
  url: string;
  /** A personal access token of a new account with one shop (or those named). */
  issueToken(options?: {
    lifetimeSec?: number;
    scopes?: readonly string[];
    shops?: { id: string; title: string }[];
    account?: string;
  }): { token: string; account: string; shops: Account['shops'] };
  expireTokens(): void;
  /** Every call with its path and status (OAuth and webhooks deliveries not included). */
  calls: { method: string; path: string; status: number }[];
  /** Share of answers that were errors (Printify wants it under 5 %). */
  errorRatio(): number;
  /** The next `n` calls answer 429. */
  throttleNext(n: number): void;
  /** The merchant declines the next OAuth authorisation. */
  declineNext(): void;
  /** The next order sent to production finds no valid payment method. */
  failNextPayment(): void;
  /**
   * The next `n` orders of several line items to ship send each item in its own shipment (the order is
   * `partially-fulfilled` until the last); as in Printify's order object, a shipment lists no items. With
   * `deliverEach`, each parcel arrives (`order:shipment:delivered` for it) before the next one ships, as a parcel
   * from a nearer facility does.
   */
  shipInParts(n?: number, options?: { deliverEach?: boolean }): void;
  tick(): Promise<number>;
  deliveries: { topic: string; url: string; body: string; ok: boolean }[];
  store: PrintifyFakeStore;
  close(): Promise<void>;
};

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '+00:00');
const objectId = () => randomBytes(12).toString('hex');

export async function startFakePrintify(options: FakePrintifyOptions = {}): Promise<FakePrintify> {
  const now = options.now ?? Date.now;
  const store = options.store ?? memoryFakeStore();
  const delays = { production: 5_000, ship: 20_000, deliver: 60_000, ...options.delays };
  const limits = { global: 600, catalog: 100, publish: 200, ...options.rateLimits };
  const fetchFile = options.fetchFile ?? fetchImage;
  const post = options.post ?? postWebhook;
  const accounts = new Map<string, Account>();
  const tokens = new Map<string, Token>();
  const windows = new Map<string, number[]>();
  const calls: FakePrintify['calls'] = [];
  const deliveries: FakePrintify['deliveries'] = [];
  let throttle = 0;
  let failPayment = 0;
  let shipInParts = 0;
  let deliverEach = false;
  let decline = false;
  /** OAuth codes and refresh tokens -> the account they act for. */
  const codes = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  const ACCESS_LIFETIME_MS = 6 * 3600_000;

  const issueAccess = (account: string) => {
    const token = `pfy_oauth_${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { account, expiresAt: now() + ACCESS_LIFETIME_MS, scopes: new Set(PRINTIFY_SCOPES) });
    const refresh = `pfy_refresh_${randomBytes(24).toString('base64url')}`;
    refreshTokens.set(refresh, account);
    return { access_token: token, refresh_token: refresh, expire_at: stamp(now() + ACCESS_LIFETIME_MS) };
  };

  /** accept/decline URLs must be https on a domain (no IP address), as Printify asks of apps. */
  const appUrlOk = (raw: string | null) => {
    try {
      const u = new URL(raw ?? '');
      return u.protocol === 'https:' && !/^[\d.]+$|^\[/.test(u.hostname);
    } catch {
      return false;
    }
  };

  /** Printify's app authorisation and its token endpoints (apis-next.md F.1); no bearer needed. */
  async function oauth(
    req: http.IncomingMessage,
    url: URL,
  ): Promise<{ status: number; body: unknown; location?: string } | null> {
    const oauthError = (error: string, description: string) => ({
      status: 400,
      body: { error, error_description: description },
    });
    if (url.pathname === '/app/authorize' && req.method === 'GET') {
      const q = url.searchParams;
      if (!options.appId || q.get('app_id') !== options.appId) return oauthError('invalid_app', 'Unknown app_id');
      if (!appUrlOk(q.get('accept_url')) || !appUrlOk(q.get('decline_url'))) {
        return oauthError('invalid_url', 'accept_url and decline_url must be https URLs on a domain');
      }
      const state = q.get('state');
      if (decline) {
        decline = false;
        const back = new URL(q.get('decline_url') as string);
        back.searchParams.set('error', 'access_denied');
        back.searchParams.set('error_description', 'The merchant declined the app');
        if (state) back.searchParams.set('state', state);
        return { status: 302, body: {}, location: back.toString() };
      }
      // The merchant's account: a new one with one shop.
      const account = `acct_${randomBytes(4).toString('hex')}`;
      accounts.set(account, {
        id: account,
        shops: [{ id: String(7000 + accounts.size), title: 'Merchant Shop', sales_channel: 'custom_integration' }],
      });
      const code = randomBytes(16).toString('hex');
      codes.set(code, account);
      const back = new URL(q.get('accept_url') as string);
      back.searchParams.set('code', code);
      if (state) back.searchParams.set('state', state);
      return { status: 302, body: {}, location: back.toString() };
    }
    if (url.pathname === '/v1/app/oauth/tokens' && req.method === 'POST') {
      const body = (await readJson(req)) ?? {};
      if (!options.appId || body.app_id !== options.appId) return oauthError('invalid_app', 'Unknown app_id');
      const account = codes.get(String(body.code));
      if (!account) return oauthError('invalid_grant', 'The code is not valid');
      codes.delete(String(body.code));
      return { status: 200, body: issueAccess(account) };
    }
    if (url.pathname === '/v1/app/oauth/tokens/refresh' && req.method === 'POST') {
      const body = (await readJson(req)) ?? {};
      if (!options.appId || body.app_id !== options.appId) return oauthError('invalid_app', 'Unknown app_id');
      const account = refreshTokens.get(String(body.refresh_token));
      if (!account) return oauthError('invalid_grant', 'The refresh token is not valid');
      refreshTokens.delete(String(body.refresh_token));
      return { status: 200, body: issueAccess(account) };
    }
    return null;
  }

  const later = (ms: number) => {
    const at = new Date(now() + ms);
    options.schedule?.(at);
    return at;
  };

  /** Sliding-window counter per account and bucket. */
  const allow = (key: string, limit: number, windowMs: number) => {
    const t = now();
    const hits = (windows.get(key) ?? []).filter((h) => h > t - windowMs);
    if (hits.length >= limit) {
      windows.set(key, hits);
      return false;
    }
    hits.push(t);
    windows.set(key, hits);
    return true;
  };

  const validation = (code: number, reason: string) => ({ code, errors: { reason } });

  const page = <T>(items: T[], query: URLSearchParams, defaultLimit: number, max: number) => {
    const limit = Math.min(max, Math.max(1, Number(query.get('limit')) || defaultLimit));
    const current = Math.max(1, Number(query.get('page')) || 1);
    const last = Math.max(1, Math.ceil(items.length / limit));
    const data = items.slice((current - 1) * limit, current * limit);
    return {
      current_page: current,
      data,
      first_page_url: '/?page=1',
      last_page: last,
      last_page_url: `/?page=${last}`,
      next_page_url: current < last ? `/?page=${current + 1}` : null,
      prev_page_url: current > 1 ? `/?page=${current - 1}` : null,
      per_page: limit,
      total: items.length,
      from: data.length ? (current - 1) * limit + 1 : null,
      to: data.length ? (current - 1) * limit + data.length : null,
    };
  };

  const blueprint = (id: number) => PRINTIFY_BLUEPRINTS.find((b) => b.id === id) ?? null;
  const provider = (bp: FixtureBlueprint | null, id: number) => bp?.providers.find((p) => p.id === id) ?? null;
  const providerOfVariant = (variantId: number) => {
    for (const bp of PRINTIFY_BLUEPRINTS) {
      for (const pp of bp.providers) {
        const v = pp.variants.find((x) => x.id === variantId);
        if (v) return { bp, pp, v };
      }
    }
    return null;
  };

  // ---- webhooks -------------------------------------------------------------------------------------------------
  type Hook = { id: string; topic: string; url: string; shop_id: string; secret: string; blocked_until: number };

  async function deliver(shopId: string, topic: string, resource: Record<string, unknown>) {
    const hooks = (await store.list('webhook', shopId)).map((r) => r.body as unknown as Hook);
    for (const hook of hooks.filter((h) => h.topic === topic)) {
      if (hook.blocked_until > now()) continue;
      const body = JSON.stringify({
        id: randomBytes(16).toString('hex'),
        type: topic,
        created_at: stamp(now()),
        resource,
      });
      const headers = { 'content-type': 'application/json', 'x-pfy-signature': signPrintifyWebhook(body, hook.secret) };
      let ok = false;
      // Printify retries a refused delivery up to 3 times, then blocks the webhook for an hour.
      for (let attempt = 0; attempt < 4 && !ok; attempt++) {
        ok = await post(hook.url, body, headers).then(
          () => true,
          () => false,
        );
      }
      deliveries.push({ topic, url: hook.url, body, ok });
      if (!ok) {
        await store.put({
          kind: 'webhook',
          shopId,
          id: hook.id,
          body: { ...hook, blocked_until: now() + 3600_000 },
          nextAt: null,
        });
      }
    }
  }

  const orderResource = (o: PfyOrder, shopId: string, data: Record<string, unknown> = {}) => ({
    id: o.id,
    type: 'order',
    data: { shop_id: shopId, status: o.status, ...data },
  });

  // ---- orders ---------------------------------------------------------------------------------------------------
  /**
   * `in_parts`: each line item ships on its own (`shipInParts`); `deliver_each`: each parcel is delivered before the
   * next ships. Kept, never answered.
   */
  type Stored = PfyOrder & {
    external_id: string;
    images: string[];
    issue?: string | null;
    in_parts?: boolean;
    deliver_each?: boolean;
  };

  async function saveOrder(shopId: string, o: Stored, nextAt: Date | null) {
    await store.put({ kind: 'order', shopId, id: o.id, body: o as unknown as Record<string, unknown>, nextAt });
  }

  const publicOrder = (o: Stored): PfyOrder => {
    const { images: _i, issue: _x, external_id: _e, in_parts: _p, deliver_each: _d, ...rest } = o;
    return rest;
  };

  async function step(row: FakeRecord) {
    const o = row.body as unknown as Stored;
    const shopId = row.shopId;
    const t = stamp(now());
    if (o.status === 'on-hold') {
      // The shop's automatic approval: sent to production by itself.
      return sendOrder(shopId, o);
    }
    if (o.status === 'sending-to-production') {
      for (const src of o.images) {
        if (!(await fetchFile(src))) {
          o.status = 'has-issues';
          o.issue = `Image could not be downloaded: ${src.split('?')[0]}`;
          for (const li of o.line_items) li.status = 'has-issues';
          await saveOrder(shopId, o, null);
          return deliver(shopId, 'order:updated', orderResource(o, shopId, { status: 'has-issues' }));
        }
      }
      o.status = 'in-production';
      for (const li of o.line_items) li.status = 'in-production';
      await saveOrder(shopId, o, later(delays.ship));
      return deliver(shopId, 'order:updated', orderResource(o, shopId));
    }
    if (o.status === 'in-production' || o.status === 'partially-fulfilled') {
      if (o.shipments.length === 0 && shipInParts > 0 && o.line_items.length > 1) {
        shipInParts -= 1;
        o.in_parts = true;
        if (deliverEach) o.deliver_each = true;
      }
      const arriving = o.deliver_each ? o.shipments.find((s) => !s.delivered_at) : undefined;
      if (arriving) {
        // The parcel that left arrives before the next one ships; the order stays partially fulfilled.
        arriving.delivered_at = t;
        await saveOrder(shopId, o, later(delays.ship));
        return deliver(
          shopId,
          'order:shipment:delivered',
          orderResource(o, shopId, {
            delivered_at: t,
            carrier: { code: arriving.carrier, tracking_number: arriving.number },
          }),
        );
      }
      // Every line item at once, or (in parts) the next one: 'partially-fulfilled' until the last has gone.
      const waiting = o.line_items.filter((li) => li.status !== 'fulfilled');
      const parcel = o.in_parts ? waiting.slice(0, 1) : waiting;
      const all = parcel.length === waiting.length;
      const number = `9400${randomBytes(8).readBigUInt64BE(0).toString().slice(0, 18)}`;
      const shipment: PfyShipment = {
        carrier: 'usps',
        number,
        url: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${number}`,
        delivered_at: null,
      };
      o.shipments.push(shipment);
      o.status = all ? 'fulfilled' : 'partially-fulfilled';
      if (all) o.fulfilled_at = t;
      for (const li of parcel) li.status = 'fulfilled';
      await saveOrder(shopId, o, later(all ? delays.deliver : delays.ship));
      await deliver(
        shopId,
        'order:shipment:created',
        orderResource(o, shopId, {
          shipped_at: t,
          carrier: { code: shipment.carrier, tracking_number: shipment.number, tracking_url: shipment.url },
          skus: [],
        }),
      );
      return deliver(shopId, 'order:updated', orderResource(o, shopId));
    }
    const undelivered = o.shipments.find((s) => !s.delivered_at);
    if (o.status === 'fulfilled' && undelivered) {
      for (const s of o.shipments) s.delivered_at ??= t;
      await saveOrder(shopId, o, null);
      return deliver(
        shopId,
        'order:shipment:delivered',
        orderResource(o, shopId, {
          delivered_at: t,
          carrier: { code: undelivered.carrier, tracking_number: undelivered.number },
        }),
      );
    }
  }

  async function sendOrder(shopId: string, o: Stored) {
    if (failPayment > 0) {
      failPayment -= 1;
      o.status = 'payment-not-received';
      await saveOrder(shopId, o, null);
      await deliver(shopId, 'order:updated', orderResource(o, shopId));
      return;
    }
    o.status = 'sending-to-production';
    o.sent_to_production_at = stamp(now());
    for (const li of o.line_items) li.status = 'sending-to-production';
    await saveOrder(shopId, o, later(delays.production));
    await deliver(shopId, 'order:sent-to-production', orderResource(o, shopId));
  }

  /** One line item in any of the three forms, resolved to a catalogue variant and its images; or a reason. */
  async function lineItem(shopId: string, li: Record<string, unknown>, i: number) {
    const quantity = Number(li.quantity);
    if (!Number.isInteger(quantity) || quantity < 1)
      return `line_items.${i}.quantity: The quantity must be at least 1.`;
    if (typeof li.product_id === 'string') {
      const rec = await store.get('product', shopId, li.product_id);
      if (!rec) return `line_items.${i}.product_id: Product not found.`;
      const p = rec.body as unknown as PfyProduct;
      const v = p.variants.find((x) => x.id === Number(li.variant_id));
      if (!v) return `line_items.${i}.variant_id: The variant is not part of the product.`;
      const images = p.print_areas.flatMap((a) => a.placeholders.flatMap((ph) => ph.images.map((im) => im.id)));
      return {
        bp: p.blueprint_id,
        pp: p.print_provider_id,
        variant: v.id,
        cost: v.cost,
        quantity,
        images: [] as string[],
        uploads: images,
      };
    }
    if (typeof li.sku === 'string') {
      for (const rec of await store.list('product', shopId)) {
        const p = rec.body as unknown as PfyProduct;
        const v = p.variants.find((x) => x.sku === li.sku);
        if (v)
          return {
            bp: p.blueprint_id,
            pp: p.print_provider_id,
            variant: v.id,
            cost: v.cost,
            quantity,
            images: [],
            uploads: [],
          };
      }
      return `line_items.${i}.sku: No product variant has SKU ${li.sku}.`;
    }
    const bp = blueprint(Number(li.blueprint_id));
    const pp = provider(bp, Number(li.print_provider_id));
    if (!bp || !pp) return `line_items.${i}: The blueprint and print provider do not exist.`;
    const v = pp.variants.find((x) => x.id === Number(li.variant_id));
    if (!v)
      return `line_items.${i}.variant_id: Variant ${li.variant_id} does not exist for this blueprint and print provider.`;
    const areas = li.print_areas as Record<string, unknown> | undefined;
    if (!areas || typeof areas !== 'object' || Object.keys(areas).length === 0) {
      return `line_items.${i}.print_areas: The print areas field is required.`;
    }
    const images: string[] = [];
    for (const [position, value] of Object.entries(areas)) {
      if (!v.placeholders.some((p) => p.position === position)) {
        return `line_items.${i}.print_areas.${position}: The position is not available for this variant.`;
      }
      // A bare URL string, or a list of images with their `src`.
      const list =
        typeof value === 'string' ? [{ src: value }] : Array.isArray(value) ? (value as { src?: unknown }[]) : [];
      if (list.length === 0 || list.some((im) => typeof im.src !== 'string' || !/^https?:\/\//.test(im.src))) {
        return `line_items.${i}.print_areas.${position}: Every image needs a src URL.`;
      }
      images.push(...list.map((im) => String(im.src)));
    }
    return { bp: bp.id, pp: pp.id, variant: v.id, cost: v.cost, quantity, images, uploads: [] as string[] };
  }

  function addressProblem(a: Record<string, unknown> | undefined): string | null {
    if (!a || typeof a !== 'object') return 'address_to: The address to field is required.';
    for (const f of ['first_name', 'last_name', 'country', 'address1', 'city', 'zip']) {
      if (typeof a[f] !== 'string' || !a[f]) return `address_to.${f}: The address_to.${f} field is required.`;
    }
    if (!/^[A-Z]{2}$/.test(String(a.country)))
      return 'address_to.country: The country must be an ISO 3166-1 alpha-2 code.';
    if (['US', 'CA'].includes(String(a.country)) && (typeof a.region !== 'string' || !a.region)) {
      return 'address_to.region: The region field is required for this country.';
    }
    return null;
  }

  async function createOrder(
    shopId: string,
    body: Record<string, unknown>,
  ): Promise<{ status: number; body: unknown }> {
    const problem = addressProblem(body.address_to as Record<string, unknown> | undefined);
    if (problem) return { status: 400, body: validation(8150, problem) };
    const items = body.line_items;
    if (!Array.isArray(items) || items.length === 0) {
      return { status: 400, body: validation(8150, 'line_items: The line items field is required.') };
    }
    const method = body.shipping_method === undefined ? 1 : Number(body.shipping_method);
    if (![1, 2, 3, 4].includes(method)) {
      return { status: 400, body: validation(8150, 'shipping_method: The selected shipping method is invalid.') };
    }
    const resolved = [];
    for (const [i, li] of items.entries()) {
      const r = await lineItem(shopId, li as Record<string, unknown>, i);
      if (typeof r === 'string') return { status: 400, body: validation(8150, r) };
      resolved.push(r);
    }
    let shipped = 0;
    const id = objectId();
    const externalId = typeof body.external_id === 'string' ? body.external_id : '';
    const o: Stored = {
      id,
      external_id: externalId,
      address_to: body.address_to as PfyOrder['address_to'],
      line_items: resolved.map((r) => {
        const pp = provider(blueprint(r.bp), r.pp) as FixtureProvider;
        const shipping =
          shipped === 0 ? pp.shippingFirst + pp.shippingEach * (r.quantity - 1) : pp.shippingEach * r.quantity;
        shipped += r.quantity;
        return {
          quantity: r.quantity,
          variant_id: r.variant,
          print_provider_id: r.pp,
          blueprint_id: r.bp,
          cost: r.cost * r.quantity,
          shipping_cost: shipping,
          status: 'on-hold',
        };
      }),
      metadata: {
        order_type: 'api',
        shop_order_id: externalId,
        shop_order_label: typeof body.label === 'string' ? body.label : externalId,
      },
      total_price: 0,
      total_shipping: 0,
      total_tax: 0,
      status: 'on-hold',
      shipping_method: method,
      shipments: [],
      created_at: stamp(now()),
      sent_to_production_at: null,
      fulfilled_at: null,
      images: resolved.flatMap((r) => r.images),
    };
    o.total_price = o.line_items.reduce((n, li) => n + li.cost, 0);
    o.total_shipping = o.line_items.reduce((n, li) => n + li.shipping_cost, 0);
    const auto = options.autoApproveMs;
    await saveOrder(shopId, o, auto === null || auto === undefined ? null : later(auto));
    await deliver(shopId, 'order:created', orderResource(o, shopId));
    return { status: 200, body: { id } };
  }

  // ---- products -------------------------------------------------------------------------------------------------
  function productBody(
    shopId: string,
    bp: FixtureBlueprint,
    pp: FixtureProvider,
    input: Record<string, unknown>,
    id: string,
    previous?: PfyProduct,
  ): PfyProduct {
    const given = new Map(((input.variants as Record<string, unknown>[]) ?? []).map((v) => [Number(v.id), v]));
    const variants = pp.variants.map((fv) => {
      const before = previous?.variants.find((x) => x.id === fv.id);
      const g = given.get(fv.id);
      return {
        id: fv.id,
        sku: typeof g?.sku === 'string' ? g.sku : (before?.sku ?? String(100000000 + fv.id * 7)),
        cost: fv.cost,
        price: g ? Number(g.price) : (before?.price ?? fv.cost),
        title: fv.title,
        grams: 150,
        is_enabled: g ? g.is_enabled !== false : previous ? (before?.is_enabled ?? false) : false,
        is_default: false,
        is_available: true,
        options: [],
      };
    });
    const positions = [...new Set(pp.variants.flatMap((v) => v.placeholders.map((p) => p.position)))];
    const areas = (input.print_areas as PfyProduct['print_areas']) ?? previous?.print_areas ?? [];
    const imagesAt = (position: string) =>
      areas.flatMap((a) => a.placeholders.filter((p) => p.position === position).flatMap((p) => p.images ?? []));
    return {
      id,
      title: String(input.title ?? previous?.title ?? ''),
      description: String(input.description ?? previous?.description ?? ''),
      tags: [...new Set([...(previous?.tags ?? []), bp.brand, bp.title.split(' ').slice(-1)[0] as string])],
      variants,
      blueprint_id: bp.id,
      print_provider_id: pp.id,
      // Rewritten: one area over every variant; every placeholder listed, the unused ones with no images.
      print_areas: [
        {
          variant_ids: pp.variants.map((v) => v.id),
          placeholders: positions.map((position) => ({ position, images: imagesAt(position) })),
        },
      ],
      ...({ shop_id: shopId, visible: true, is_locked: false, images: [], sales_channel_properties: [] } as object),
    } as PfyProduct;
  }

  function priceProblem(variants: unknown): string | null {
    if (!Array.isArray(variants) || variants.length === 0) return 'variants: The variants field is required.';
    for (const [i, v] of (variants as Record<string, unknown>[]).entries()) {
      if (!Number.isInteger(v.price)) return `variants.${i}.price: The variants.${i}.price field is required.`;
    }
    return null;
  }

  // ---- HTTP -----------------------------------------------------------------------------------------------------
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json;charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const readJson = (req: http.IncomingMessage) =>
    new Promise<Record<string, unknown> | null>((resolve) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        } catch {
          resolve(null);
        }
      });
    });

  const SCOPE_OF: [RegExp, string, string][] = [
    [/^\/v1\/shops\.json$/, 'shops.read', 'shops.read'],
    [/^\/v\d\/catalog\//, 'catalog.read', 'catalog.read'],
    [/^\/v1\/uploads/, 'uploads.read', 'uploads.write'],
    [/^\/v1\/shops\/[^/]+\/products/, 'products.read', 'products.write'],
    [/^\/v1\/shops\/[^/]+\/orders/, 'orders.read', 'orders.write'],
    [/^\/v1\/shops\/[^/]+\/webhooks/, 'webhooks.read', 'webhooks.write'],
  ];

  async function route(
    req: http.IncomingMessage,
    url: URL,
    account: Account,
  ): Promise<{ status: number; body: unknown }> {
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const q = url.searchParams;
    const notFound = { status: 404, body: { message: 'Not found' } };
    if (path === '/v1/shops.json' && method === 'GET') return { status: 200, body: account.shops };

    // Catalogue
    if (path === '/v1/catalog/blueprints.json') {
      return {
        status: 200,
        body: PRINTIFY_BLUEPRINTS.map((b) => ({
          id: b.id,
          title: b.title,
          description: b.description,
          brand: b.brand,
          model: b.model,
          images: [],
        })),
      };
    }
    let m = /^\/v1\/catalog\/blueprints\/(\d+)\.json$/.exec(path);
    if (m) {
      const b = blueprint(Number(m[1]));
      return b
        ? {
            status: 200,
            body: { id: b.id, title: b.title, description: b.description, brand: b.brand, model: b.model, images: [] },
          }
        : notFound;
    }
    m = /^\/v1\/catalog\/blueprints\/(\d+)\/print_providers\.json$/.exec(path);
    if (m) {
      const b = blueprint(Number(m[1]));
      return b ? { status: 200, body: b.providers.map((p) => ({ id: p.id, title: p.title })) } : notFound;
    }
    m = /^\/v1\/catalog\/blueprints\/(\d+)\/print_providers\/(\d+)\/(variants|shipping)\.json$/.exec(path);
    if (m) {
      const pp = provider(blueprint(Number(m[1])), Number(m[2]));
      if (!pp) return notFound;
      if (m[3] === 'variants') {
        return {
          status: 200,
          body: {
            id: pp.id,
            title: pp.title,
            variants: pp.variants.map((v) => ({
              id: v.id,
              title: v.title,
              options: v.options,
              placeholders: v.placeholders,
            })),
          },
        };
      }
      return {
        status: 200,
        body: {
          handling_time: { value: 5, unit: 'day' },
          profiles: [
            {
              variant_ids: pp.variants.map((v) => v.id),
              first_item: { cost: pp.shippingFirst, currency: 'USD' },
              additional_items: { cost: pp.shippingEach, currency: 'USD' },
              countries: ['US'],
            },
          ],
        },
      };
    }
    if (path === '/v1/catalog/print_providers.json') {
      const all = new Map(
        PRINTIFY_BLUEPRINTS.flatMap((b) => b.providers.map((p) => [p.id, { id: p.id, title: p.title }])),
      );
      return { status: 200, body: [...all.values()] };
    }

    // Uploads (an account's, not a shop's)
    if (path === '/v1/uploads/images.json' && method === 'POST') {
      const body = await readJson(req);
      const fileName = typeof body?.file_name === 'string' ? body.file_name : '';
      if (!fileName) return { status: 400, body: validation(8150, 'file_name: The file name field is required.') };
      let bytes: Buffer;
      if (typeof body?.contents === 'string') bytes = Buffer.from(body.contents, 'base64');
      else if (typeof body?.url === 'string' && /^https?:\/\//.test(body.url)) bytes = Buffer.from(body.url);
      else return { status: 400, body: validation(8150, 'url: Either url or contents is required.') };
      // Content-addressed: the same bytes are the same upload, whatever the file name. No resolution check.
      const id = createHash('sha256').update(bytes).digest('hex').slice(0, 24);
      const existing = await store.get('upload', account.id, id);
      if (existing) return { status: 200, body: existing.body };
      const png = bytes.length > 24 && bytes.readUInt32BE(0) === 0x89504e47;
      const upload = {
        id,
        file_name: fileName,
        height: png ? bytes.readUInt32BE(20) : 0,
        width: png ? bytes.readUInt32BE(16) : 0,
        size: bytes.length,
        mime_type: png ? 'image/png' : 'image/jpeg',
        preview_url: `https://pfy-prod-image-storage.s3.us-east-2.amazonaws.com/${id}`,
        upload_time: stamp(now()),
      };
      await store.put({ kind: 'upload', shopId: account.id, id, body: upload, nextAt: null });
      return { status: 200, body: upload };
    }
    if (path === '/v1/uploads.json' && method === 'GET') {
      const all = (await store.list('upload', account.id)).map((r) => r.body);
      return { status: 200, body: page(all, q, 10, 100) };
    }
    m = /^\/v1\/uploads\/([^/]+?)(\/archive)?\.json$/.exec(path);
    if (m) {
      const rec = await store.get('upload', account.id, m[1] as string);
      if (!rec) return notFound;
      if (m[2] && method === 'POST') {
        await store.remove('upload', account.id, rec.id);
        return { status: 200, body: {} };
      }
      return { status: 200, body: rec.body };
    }

    // Shops
    m = /^\/v1\/shops\/([^/]+)\/(.+)$/.exec(path);
    if (!m) return notFound;
    const shopId = decodeURIComponent(m[1] as string);
    if (!account.shops.some((s) => s.id === shopId)) return notFound;
    const rest = m[2] as string;

    if (rest === 'products.json') {
      if (method === 'GET') {
        const all = (await store.list('product', shopId)).map((r) => r.body);
        return { status: 200, body: page(all, q, 10, 100) };
      }
      if (method === 'POST') {
        const body = (await readJson(req)) ?? {};
        const bp = blueprint(Number(body.blueprint_id));
        const pp = provider(bp, Number(body.print_provider_id));
        if (!bp || !pp)
          return {
            status: 400,
            body: validation(8150, 'blueprint_id: The blueprint and print provider do not exist.'),
          };
        const problem = priceProblem(body.variants);
        if (problem) return { status: 400, body: validation(8150, problem) };
        const areas = body.print_areas as PfyProduct['print_areas'] | undefined;
        if (!Array.isArray(areas) || areas.length === 0) {
          return { status: 400, body: validation(8150, 'print_areas: The print areas field is required.') };
        }
        const ids = new Set(pp.variants.map((v) => v.id));
        if (
          (body.variants as { id: unknown }[]).some((v) => !ids.has(Number(v.id))) ||
          areas.some((a) => a.variant_ids.some((v) => !ids.has(v)))
        ) {
          return {
            status: 400,
            body: validation(
              8251,
              'Variants do not match selected blueprint and print provider. Please make sure that all product variants are present in the `print_areas.*.variant_ids` field',
            ),
          };
        }
        const product = productBody(shopId, bp, pp, body, objectId());
        await store.put({
          kind: 'product',
          shopId,
          id: product.id,
          body: product as unknown as Record<string, unknown>,
          nextAt: null,
        });
        return { status: 200, body: product };
      }
    }
    m = /^products\/([^/]+?)(\/publish|\/unpublish|\/publishing_succeeded|\/publishing_failed)?\.json$/.exec(rest);
    if (m) {
      const rec = await store.get('product', shopId, m[1] as string);
      if (!rec) return notFound;
      const current = rec.body as unknown as PfyProduct;
      if (m[2] === '/publish' && method === 'POST') {
        if (!allow(`${account.id}:publish`, limits.publish, 30 * 60_000))
          return { status: 429, body: { message: 'Too Many Requests' } };
        await deliver(shopId, 'product:publish:started', {
          id: current.id,
          type: 'product',
          data: { shop_id: shopId },
        });
        return { status: 200, body: {} };
      }
      if (m[2]) return { status: 200, body: {} };
      if (method === 'GET') return { status: 200, body: current };
      if (method === 'DELETE') {
        await store.remove('product', shopId, current.id);
        return { status: 200, body: {} };
      }
      if (method === 'PUT') {
        const body = (await readJson(req)) ?? {};
        if (body.variants !== undefined) {
          const problem = priceProblem(body.variants);
          if (problem) return { status: 400, body: validation(8150, problem) };
        }
        if (body.print_areas !== undefined) {
          const covered = new Set((body.print_areas as PfyProduct['print_areas']).flatMap((a) => a.variant_ids));
          if (current.variants.some((v) => !covered.has(v.id))) {
            return {
              status: 400,
              body: validation(
                8251,
                'Variants do not match selected blueprint and print provider. Please make sure that all product variants are present in the `print_areas.*.variant_ids` field',
              ),
            };
          }
        }
        // blueprint_id and print_provider_id are silently immutable.
        const bp = blueprint(current.blueprint_id) as FixtureBlueprint;
        const pp = provider(bp, current.print_provider_id) as FixtureProvider;
        const { blueprint_id: _b, print_provider_id: _p, ...change } = body;
        const product = productBody(shopId, bp, pp, change, current.id, current);
        await store.put({
          kind: 'product',
          shopId,
          id: product.id,
          body: product as unknown as Record<string, unknown>,
          nextAt: null,
        });
        return { status: 200, body: product };
      }
    }

    if (rest === 'orders.json') {
      if (method === 'GET') {
        // Newest first; `status` filters, any other filter is ignored.
        const status = q.get('status');
        const all = (await store.list('order', shopId))
          .map((r) => publicOrder(r.body as unknown as Stored))
          .filter((o) => !status || o.status === status)
          .reverse();
        return { status: 200, body: page(all, q, 10, 100) };
      }
      if (method === 'POST') return createOrder(shopId, (await readJson(req)) ?? {});
    }
    if (rest === 'orders/shipping.json' && method === 'POST') {
      const body = (await readJson(req)) ?? {};
      const problem = addressProblem(body.address_to as Record<string, unknown> | undefined);
      if (problem) return { status: 400, body: validation(8150, problem) };
      let standard = 0;
      let count = 0;
      for (const [i, li] of ((body.line_items as Record<string, unknown>[]) ?? []).entries()) {
        const found = providerOfVariant(Number(li.variant_id));
        if (!found) return { status: 400, body: validation(8150, `line_items.${i}.variant_id: Unknown variant.`) };
        const qty = Math.max(1, Number(li.quantity) || 1);
        standard +=
          count === 0 ? found.pp.shippingFirst + found.pp.shippingEach * (qty - 1) : found.pp.shippingEach * qty;
        count += qty;
      }
      return {
        status: 200,
        body: {
          standard,
          express: standard * 2,
          priority: standard * 2,
          printify_express: Math.round(standard * 0.8),
          economy: Math.round(standard * 0.6),
        },
      };
    }
    if (rest === 'orders/express.json' && method === 'POST') {
      const body = (await readJson(req)) ?? {};
      const made = await createOrder(shopId, body);
      if (made.status !== 200) return made;
      const id = (made.body as { id: string }).id;
      return {
        status: 200,
        body: [{ type: 'order', id, attributes: { fulfilment_type: 'ordinary', line_items: body.line_items } }],
      };
    }
    m = /^orders\/([^/]+?)(\/send_to_production|\/cancel)?\.json$/.exec(rest);
    if (m) {
      const rec = await store.get('order', shopId, m[1] as string);
      if (!rec) return notFound;
      const o = rec.body as unknown as Stored;
      if (!m[2] && method === 'GET') return { status: 200, body: publicOrder(o) };
      if (m[2] === '/send_to_production' && method === 'POST') {
        if (o.status !== 'on-hold') {
          return { status: 400, body: validation(8502, `Order in status ${o.status} cannot be sent to production.`) };
        }
        await sendOrder(shopId, o);
        return { status: 200, body: publicOrder(o) };
      }
      if (m[2] === '/cancel' && method === 'POST') {
        if (!['on-hold', 'payment-not-received'].includes(o.status)) {
          return { status: 400, body: validation(8503, `Order in status ${o.status} cannot be canceled.`) };
        }
        o.status = 'canceled';
        for (const li of o.line_items) li.status = 'canceled';
        await saveOrder(shopId, o, null);
        await deliver(shopId, 'order:updated', orderResource(o, shopId));
        return { status: 200, body: publicOrder(o) };
      }
    }

    if (rest === 'webhooks.json') {
      if (method === 'GET') {
        return {
          status: 200,
          body: (await store.list('webhook', shopId)).map((r) => hookOut(r.body as unknown as Hook)),
        };
      }
      if (method === 'POST') {
        const body = (await readJson(req)) ?? {};
        if (!PRINTIFY_TOPICS.includes(String(body.topic)))
          return { status: 400, body: validation(8150, 'topic: The selected topic is invalid.') };
        if (typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
          return { status: 400, body: validation(8150, 'url: The url format is invalid.') };
        const hook: Hook = {
          id: objectId(),
          topic: String(body.topic),
          url: body.url,
          shop_id: shopId,
          secret: typeof body.secret === 'string' ? body.secret : '',
          blocked_until: 0,
        };
        await store.put({
          kind: 'webhook',
          shopId,
          id: hook.id,
          body: hook as unknown as Record<string, unknown>,
          nextAt: null,
        });
        return { status: 200, body: hookOut(hook) };
      }
    }
    m = /^webhooks\/([^/]+?)(\.json|\/simulate)$/.exec(rest);
    if (m) {
      const rec = await store.get('webhook', shopId, m[1] as string);
      if (!rec) return notFound;
      const hook = rec.body as unknown as Hook;
      if (m[2] === '/simulate' && method === 'POST') {
        const body = (await readJson(req)) ?? {};
        await deliver(shopId, hook.topic, body);
        return { status: 200, body: {} };
      }
      if (method === 'PUT') {
        const body = (await readJson(req)) ?? {};
        if (typeof body.url !== 'string')
          return { status: 400, body: validation(8150, 'url: The url field is required.') };
        const next = { ...hook, url: body.url };
        await store.put({ ...rec, body: next as unknown as Record<string, unknown> });
        return { status: 200, body: hookOut(next) };
      }
      if (method === 'DELETE') {
        if (q.get('host') !== new URL(hook.url).host) {
          return { status: 400, body: validation(8150, 'host: The host does not match the webhook URL.') };
        }
        await store.remove('webhook', shopId, hook.id);
        return { status: 200, body: {} };
      }
    }
    return notFound;
  }

  const hookOut = (h: Hook) => ({ topic: h.topic, url: h.url, shop_id: h.shop_id, id: h.id });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const answer = (status: number, body: unknown) => {
      calls.push({ method, path, status });
      send(res, status, body);
    };
    try {
      const flow = await oauth(req, url);
      if (flow) {
        if (flow.location) {
          res.writeHead(302, { Location: flow.location });
          res.end();
          return;
        }
        return answer(flow.status, flow.body);
      }
      if (!req.headers['user-agent']) return answer(400, { message: 'User-Agent header is required' });
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      const token = auth?.[1] ?? '';
      const sandbox = options.sandboxAccount?.(token) ?? null;
      let account: Account | undefined;
      let scopes: Set<string>;
      if (sandbox) {
        account = accounts.get(sandbox) ?? {
          id: sandbox,
          shops: [{ id: sandbox, title: 'Printify Sandbox', sales_channel: 'custom_integration' }],
        };
        accounts.set(sandbox, account);
        scopes = new Set(PRINTIFY_SCOPES);
      } else {
        const t = tokens.get(token);
        if (!t || t.expiresAt <= now()) return answer(401, { error: 'Unauthenticated.', message: 'Unauthenticated.' });
        account = accounts.get(t.account);
        scopes = t.scopes;
      }
      if (!account) return answer(401, { message: 'Unauthenticated.' });
      const rule = SCOPE_OF.find(([re]) => re.test(path));
      const needed = rule ? (method === 'GET' ? rule[1] : rule[2]) : null;
      if (needed && !scopes.has(needed)) return answer(403, { message: `This action requires the ${needed} scope.` });
      if (throttle > 0) {
        throttle -= 1;
        return answer(429, { message: 'Too Many Requests' });
      }
      if (!allow(`${account.id}:global`, limits.global, 60_000)) return answer(429, { message: 'Too Many Requests' });
      if (/^\/v\d\/catalog\//.test(path) && !allow(`${account.id}:catalog`, limits.catalog, 60_000)) {
        return answer(429, { message: 'Too Many Requests' });
      }
      const out = await route(req, url, account);
      answer(out.status, out.body);
    } catch (error) {
      answer(500, { message: error instanceof Error ? error.message : 'error' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    issueToken(opts = {}) {
      const account = opts.account ?? `acct_${randomBytes(4).toString('hex')}`;
      const existing = accounts.get(account);
      const shops = (opts.shops ?? (existing ? [] : [{ id: String(5000 + accounts.size), title: 'My new store' }])).map(
        (s) => ({ ...s, sales_channel: 'custom_integration' }),
      );
      accounts.set(account, { id: account, shops: [...(existing?.shops ?? []), ...shops] });
      const token = `pfy_${randomBytes(24).toString('base64url')}`;
      tokens.set(token, {
        account,
        expiresAt: now() + (opts.lifetimeSec ?? 365 * 24 * 3600) * 1000,
        scopes: new Set(opts.scopes ?? PRINTIFY_SCOPES),
      });
      return { token, account, shops: (accounts.get(account) as Account).shops };
    },
    expireTokens() {
      for (const t of tokens.values()) t.expiresAt = now();
    },
    calls,
    errorRatio: () => (calls.length ? calls.filter((c) => c.status >= 400).length / calls.length : 0),
    throttleNext(n) {
      throttle = n;
    },
    declineNext() {
      decline = true;
    },
    failNextPayment() {
      failPayment += 1;
    },
    shipInParts(n = 1, options = {}) {
      shipInParts = n;
      deliverEach = options.deliverEach === true;
    },
    async tick() {
      const due = await store.claimDue(new Date(now()));
      for (const row of due) await step(row);
      return due.length;
    },
    deliveries,
    store,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
