import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import { fetchImage, postWebhook } from '../fake-printer-net';
import { PRODUCT_SEEDS } from './catalog/products';
import { signPrintfulWebhook } from './orders';

export { signPrintfulWebhook };

/**
 * Printful v2 orders and webhooks for the fake (apis.md E6): orders are accepted idempotently by `external_id`,
 * held as drafts until confirmed (nothing charged), then every print file URL is downloaded (a file that cannot be
 * fetched fails the order with `order_failed` and Printful's reason); a good order goes to in process, ships after
 * a configurable delay (a shipment with carrier, tracking number and URL, `shipment_sent`) and is delivered later
 * (the shipment's `delivery_status` 'delivered' and `delivered_at`; Printful's v2 events have none for a delivery).
 * Webhooks v2 are signed with HMAC-SHA256 of the raw body with the configuration's secret key hex-decoded to bytes,
 * in `x-pf-webhook-signature` (hex).
 *
 * State lives in a `PrintfulOrderStore`: in memory for a fake of its own, or in the app's database for the
 * built-in sandbox, so a restart loses nothing. Time moves on only through `tick()`, which the owner calls when
 * `schedule(at)` asked it to (the sandbox: a pg-boss job at that instant).
 */

export type PfRecipient = {
  name: string;
  address1: string;
  address2?: string;
  city: string;
  state_code?: string;
  country_code: string;
  zip: string;
  phone?: string;
  email?: string;
};
export type PfOrderItem = {
  source: 'catalog';
  catalog_variant_id: number;
  quantity: number;
  retail_price?: string;
  name?: string;
  external_id?: string;
  placements: { placement: string; technique: string; layers: { type: 'file'; url: string }[] }[];
};
export type PfShipment = {
  id: number;
  carrier: string;
  service: string;
  tracking_number: string;
  tracking_url: string;
  shipment_status: string;
  delivery_status: string;
  shipped_at: string;
  delivered_at: string | null;
  /** OpenAPI ShipmentItem: which of the order's items (and how many) this parcel carries. */
  shipment_items: {
    id: number;
    order_item_id: number;
    order_item_external_id: string | null;
    order_item_name: string | null;
    quantity: number;
  }[];
};
export type PfOrder = {
  id: number;
  external_id: string;
  store_id: string;
  status: 'draft' | 'pending' | 'failed' | 'canceled' | 'inprocess' | 'onhold' | 'partial' | 'fulfilled';
  shipping: string;
  created_at: string;
  updated_at: string;
  recipient: PfRecipient;
  order_items: (PfOrderItem & { id: number; price: string })[];
  costs: {
    calculation_status: 'done';
    currency: string;
    subtotal: string;
    shipping: string;
    tax: string;
    total: string;
  };
  shipments: PfShipment[];
  failure_reason: string | null;
  /**
   * Printful calculates costs asynchronously: until both run out, the order answers `calculation_status:
   * 'calculating'` with null amounts (reads of the order left; the instant they are done). Kept, never answered.
   */
  costs_pending_reads?: number;
  costs_ready_at?: string;
  /** Each item ships in its own parcel (`shipInParts`), as when items come from different facilities. Kept, never answered. */
  ship_in_parts?: boolean;
};
export type StoredOrder = { id: number; storeId: string; externalId: string; order: PfOrder; nextAt: Date | null };
export type WebhookConfig = { url: string; events: string[]; secretKey: string; publicKey: string };

export interface PrintfulOrderStore {
  /** Inserts a new order, or returns the one the store already has with this external id. */
  insert(storeId: string, externalId: string, build: (id: number) => PfOrder): Promise<StoredOrder>;
  get(storeId: string, ref: { id?: number; externalId?: string }): Promise<StoredOrder | null>;
  save(order: StoredOrder): Promise<void>;
  remove(order: StoredOrder): Promise<void>;
  list(storeId: string): Promise<StoredOrder[]>;
  /** Orders whose next step is due, taken (their `nextAt` cleared) so two ticks never move one twice. */
  claimDue(now: Date): Promise<StoredOrder[]>;
  webhook(storeId: string): Promise<WebhookConfig | null>;
  setWebhook(storeId: string, config: WebhookConfig): Promise<void>;
}

export function memoryOrderStore(): PrintfulOrderStore {
  const orders: StoredOrder[] = [];
  const hooks = new Map<string, WebhookConfig>();
  let seq = 0;
  const copy = (o: StoredOrder): StoredOrder => structuredClone(o);
  return {
    async insert(storeId, externalId, build) {
      const found = orders.find((o) => o.storeId === storeId && o.externalId === externalId);
      if (found) return copy(found);
      seq += 1;
      const row = { id: 7000 + seq, storeId, externalId, order: build(7000 + seq), nextAt: null };
      orders.push(row);
      return copy(row);
    },
    async get(storeId, ref) {
      const found = orders.find(
        (o) => o.storeId === storeId && (ref.id !== undefined ? o.id === ref.id : o.externalId === ref.externalId),
      );
      return found ? copy(found) : null;
    },
    async save(order) {
      const i = orders.findIndex((o) => o.id === order.id);
      if (i >= 0) orders[i] = copy(order);
    },
    async remove(order) {
      const i = orders.findIndex((o) => o.id === order.id);
      if (i >= 0) orders.splice(i, 1);
    },
    async list(storeId) {
      return orders.filter((o) => o.storeId === storeId).map(copy);
    },
    async claimDue(now) {
      const due = orders.filter((o) => o.nextAt && o.nextAt.getTime() <= now.getTime());
      for (const o of due) o.nextAt = null;
      return due.map(copy);
    },
    async webhook(storeId) {
      return hooks.get(storeId) ?? null;
    },
    async setWebhook(storeId, config) {
      hooks.set(storeId, config);
    },
  };
}

export type FakeOrdersOptions = {
  store?: PrintfulOrderStore;
  now?: () => number;
  /** Delays of the order's steps after confirmation, in ms (defaults: 5 s, 20 s, 60 s). */
  delays?: { production?: number; ship?: number; deliver?: number };
  /** Downloads a print file; true when it is a usable image. Defaults to fetch. */
  fetchFile?: (url: string) => Promise<boolean>;
  /** Sends a webhook; defaults to fetch POST. */
  post?: (url: string, body: string, headers: Record<string, string>) => Promise<void>;
  /** Asks the owner to call `tick()` at this instant (the next step of some order is due). */
  schedule?: (at: Date) => void;
  /**
   * How long a new order's costs stay `calculating` (OpenAPI CalculationStatus): the create answer always, then this
   * many reads of the order (default 1) and until this many ms have passed (default 0).
   */
  costs?: { reads?: number; ms?: number };
};

const money = (n: number) => n.toFixed(2);

/** Base price of every catalogue variant the fake knows (the whole seed catalogue, ids as the bundled catalogue). */
const VARIANT_PRICES = new Map<number, string>(
  PRODUCT_SEEDS.flatMap((p) =>
    p.colours.flatMap((_c, ci) =>
      p.sizes.map(([, price], si) => [p.id * 1000 + ci * p.sizes.length + si + 1, price] as [number, string]),
    ),
  ),
);

const CARRIER = { carrier: 'USPS', service: 'USPS First Class Package' };
/** Printful's documented shipping: a first item and each further item (the sandbox charges these flat rates). */
const SHIPPING_FIRST = 4.75;
const SHIPPING_EACH = 2.2;

export type FakeOrdersApi = ReturnType<typeof createFakeOrders>;

export function createFakeOrders(options: FakeOrdersOptions = {}) {
  const store = options.store ?? memoryOrderStore();
  const now = options.now ?? Date.now;
  const delays = { production: 5_000, ship: 20_000, deliver: 60_000, ...options.delays };
  const fetchFile = options.fetchFile ?? fetchImage;
  const post = options.post ?? postWebhook;
  let failDownloads = 0;
  let shipInParts = 0;
  const deliveries: { storeId: string; type: string; body: string }[] = [];

  const iso = () => new Date(now()).toISOString();
  const later = (ms: number) => {
    const at = new Date(now() + ms);
    options.schedule?.(at);
    return at;
  };

  async function sendWebhook(row: StoredOrder, type: string, data: Record<string, unknown>) {
    const config = await store.webhook(row.storeId);
    if (!config?.events.includes(type)) return;
    const body = JSON.stringify({ type, occurred_at: iso(), retries: 0, store_id: row.storeId, data });
    deliveries.push({ storeId: row.storeId, type, body });
    const headers = {
      'content-type': 'application/json',
      'x-pf-webhook-signature': signPrintfulWebhook(body, config.secretKey),
      'x-pf-webhook-public-key': config.publicKey,
    };
    await post(config.url, body, headers).catch(() => {
      // Printful retries later (1, 4, 16... minutes); the sandbox tries once more on the next tick of this order.
    });
  }

  const orderData = (o: PfOrder) => ({
    id: o.id,
    external_id: o.external_id,
    status: o.status,
    store_id: o.store_id,
    created_at: o.created_at,
    updated_at: o.updated_at,
  });

  const calculating = (o: PfOrder) =>
    (o.costs_pending_reads ?? 0) > 0 || (o.costs_ready_at !== undefined && Date.parse(o.costs_ready_at) > now());

  /** The order as Printful answers it: costs null while they are calculated (OpenAPI Costs, all nullable). */
  const publicOrder = (o: PfOrder) => {
    const {
      shipments: _s,
      failure_reason: _f,
      costs_pending_reads: _r,
      costs_ready_at: _a,
      ship_in_parts: _p,
      ...rest
    } = o;
    if (!calculating(o)) return rest;
    const pending = Object.fromEntries(Object.keys(o.costs).map((k) => [k, null]));
    return { ...rest, costs: { ...pending, calculation_status: 'calculating' } };
  };

  function validate(body: Record<string, unknown>): string | null {
    const r = body.recipient as Partial<PfRecipient> | undefined;
    if (!r || typeof r !== 'object') return 'Recipient is required';
    for (const f of ['name', 'address1', 'city', 'country_code', 'zip'] as const) {
      if (typeof r[f] !== 'string' || !r[f]) return `Recipient ${f} is required`;
    }
    const items = body.order_items as PfOrderItem[] | undefined;
    if (!Array.isArray(items) || items.length === 0) return 'Order items are required';
    for (const [i, item] of items.entries()) {
      if (item.source !== 'catalog') return `order_items[${i}].source must be catalog`;
      if (!VARIANT_PRICES.has(Number(item.catalog_variant_id))) {
        return `order_items[${i}]: catalog variant ${item.catalog_variant_id} does not exist`;
      }
      if (!Number.isInteger(item.quantity) || item.quantity < 1) return `order_items[${i}].quantity is not valid`;
      if (!Array.isArray(item.placements) || item.placements.length === 0) {
        return `order_items[${i}] has no placements`;
      }
      for (const p of item.placements) {
        if (!p.placement || !Array.isArray(p.layers) || !p.layers.some((l) => l.type === 'file' && l.url)) {
          return `order_items[${i}] placement ${p.placement ?? '?'} has no file layer`;
        }
      }
    }
    return null;
  }

  function build(storeId: string, body: Record<string, unknown>, id: number): PfOrder {
    const items = (body.order_items as PfOrderItem[]).map((item, i) => ({
      ...item,
      id: id * 100 + i + 1,
      price: VARIANT_PRICES.get(Number(item.catalog_variant_id)) ?? '0.00',
    }));
    const quantity = items.reduce((n, i) => n + i.quantity, 0);
    const subtotal = items.reduce((n, i) => n + Number(i.price) * i.quantity, 0);
    const shipping = SHIPPING_FIRST + SHIPPING_EACH * Math.max(0, quantity - 1);
    return {
      id,
      external_id: String(body.external_id),
      store_id: storeId,
      status: 'draft',
      shipping: typeof body.shipping === 'string' ? body.shipping : 'STANDARD',
      created_at: iso(),
      updated_at: iso(),
      recipient: body.recipient as PfRecipient,
      order_items: items,
      costs: {
        calculation_status: 'done',
        currency: 'USD',
        subtotal: money(subtotal),
        shipping: money(shipping),
        tax: '0.00',
        total: money(subtotal + shipping),
      },
      shipments: [],
      failure_reason: null,
      costs_pending_reads: options.costs?.reads ?? 1,
      costs_ready_at: new Date(now() + (options.costs?.ms ?? 0)).toISOString(),
    };
  }

  /** Moves one order on by one step (called for due orders). */
  async function step(row: StoredOrder) {
    const o = row.order;
    if (o.status === 'pending') {
      // Printful fetches every print file now; one that cannot be downloaded fails the order.
      for (const item of o.order_items) {
        for (const p of item.placements) {
          for (const layer of p.layers) {
            let ok = false;
            if (failDownloads > 0) failDownloads -= 1;
            else ok = await fetchFile(layer.url);
            if (!ok) {
              o.status = 'failed';
              o.failure_reason = `Printfile could not be downloaded (${p.placement}): ${layer.url.split('?')[0]}`;
              o.updated_at = iso();
              await store.save(row);
              return sendWebhook(row, 'order_failed', { reason: o.failure_reason, order: orderData(o) });
            }
          }
        }
      }
      o.status = 'inprocess';
      o.updated_at = iso();
      row.nextAt = later(delays.ship);
      await store.save(row);
      return sendWebhook(row, 'order_updated', { order: orderData(o) });
    }
    if (o.status === 'inprocess' || o.status === 'partial') {
      if (o.shipments.length === 0 && shipInParts > 0 && o.order_items.length > 1) {
        shipInParts -= 1;
        o.ship_in_parts = true;
      }
      // What is still to ship: every item at once, or (in parts) the next one; 'partial' until all have gone.
      const sent = new Set(o.shipments.flatMap((s) => s.shipment_items.map((i) => i.order_item_id)));
      const waiting = o.order_items.filter((i) => !sent.has(i.id));
      const parcel = o.ship_in_parts ? waiting.slice(0, 1) : waiting;
      const shipmentId = o.id * 10 + o.shipments.length + 1;
      const shipment: PfShipment = {
        id: shipmentId,
        ...CARRIER,
        tracking_number: `9400${String(o.id).padStart(6, '0')}${randomBytes(4).readUInt32BE(0) % 100000}`,
        tracking_url: '',
        shipment_status: 'shipped',
        delivery_status: 'in_transit',
        shipped_at: iso(),
        delivered_at: null,
        shipment_items: parcel.map((i, n) => ({
          id: shipmentId * 100 + n + 1,
          order_item_id: i.id,
          order_item_external_id: i.external_id ?? null,
          order_item_name: i.name ?? null,
          quantity: i.quantity,
        })),
      };
      shipment.tracking_url = `https://tools.usps.com/go/TrackConfirmAction?tLabels=${shipment.tracking_number}`;
      o.shipments.push(shipment);
      const all = parcel.length === waiting.length;
      o.status = all ? 'fulfilled' : 'partial';
      o.updated_at = iso();
      row.nextAt = later(all ? delays.deliver : delays.ship);
      await store.save(row);
      return sendWebhook(row, 'shipment_sent', {
        shipment: {
          id: shipment.id,
          status: shipment.shipment_status,
          store_id: o.store_id,
          tracking_number: shipment.tracking_number,
          created_at: shipment.shipped_at,
          ship_date: shipment.shipped_at.slice(0, 10),
          shipped_at: shipment.shipped_at,
          reshipment: false,
        },
        order: orderData(o),
      });
    }
    if (o.status === 'fulfilled' && o.shipments.some((s) => s.delivery_status !== 'delivered')) {
      for (const s of o.shipments) {
        s.delivery_status = 'delivered';
        s.delivered_at = iso();
      }
      o.updated_at = iso();
      await store.save(row);
      // No event: Printful v2 has none for a delivery (apis.md B6); it is read from the order's shipments.
    }
  }

  type Reply = (status: number, body: unknown) => void;
  const v1Error = (status: number, reason: string, message: string) => ({
    code: status,
    result: message,
    error: { reason, message },
  });

  // The path segment arrives encoded ('%40' for '@', as encodeURIComponent sends it): decoded first, as Printful does.
  const ref = (raw: string) => {
    const decoded = decodeURIComponent(raw);
    return decoded.startsWith('@') ? { externalId: decoded.slice(1) } : { id: Number(decoded) };
  };

  /**
   * Handles the orders and webhooks routes; false when the path is none of them. `json` is the request's body as
   * parsed by the server (checked against Printful's OpenAPI there), null when it was not JSON.
   */
  async function handle(
    req: http.IncomingMessage,
    path: string,
    storeId: string,
    reply: Reply,
    json: Record<string, unknown> | null = null,
  ): Promise<boolean> {
    const method = req.method ?? 'GET';
    const notFound = () => {
      reply(404, v1Error(404, 'NotFound', 'Not found'));
      return true;
    };
    if (path === '/v2/shipping-rates' && method === 'POST') {
      // apis.md / OpenAPI ShippingRatesInput: recipient (address1, city, country_code) and catalogue items.
      const body = json;
      const r = (body?.recipient ?? {}) as Record<string, unknown>;
      const items = Array.isArray(body?.order_items) ? (body.order_items as Record<string, unknown>[]) : [];
      const missing = ['address1', 'city', 'country_code'].find((f) => typeof r[f] !== 'string' || !r[f]);
      if (missing) {
        reply(400, v1Error(400, 'BadRequest', `recipient.${missing} is required`));
        return true;
      }
      if (items.length === 0) {
        reply(400, v1Error(400, 'BadRequest', 'order_items is required'));
        return true;
      }
      for (const [i, item] of items.entries()) {
        const q = Number(item.quantity);
        if (item.source !== 'catalog' || !VARIANT_PRICES.has(Number(item.catalog_variant_id))) {
          reply(400, v1Error(400, 'BadRequest', `order_items[${i}].catalog_variant_id is not valid`));
          return true;
        }
        if (!Number.isInteger(q) || q < 1 || q > 1000) {
          reply(400, v1Error(400, 'BadRequest', `order_items[${i}].quantity is not valid`));
          return true;
        }
      }
      const quantity = items.reduce((n, i) => n + Number(i.quantity), 0);
      const domestic = r.country_code === 'US';
      const [min, max] = domestic ? [4, 7] : [7, 14];
      const day = (d: number) => new Date(now() + d * 86_400_000).toISOString().slice(0, 10);
      reply(200, {
        data: [
          {
            shipping: 'STANDARD',
            shipping_method_name: `Flat Rate (Estimated delivery: ${day(min)}–${day(max)})`,
            rate: money(SHIPPING_FIRST + SHIPPING_EACH * Math.max(0, quantity - 1)),
            currency: 'USD',
            min_delivery_days: min,
            max_delivery_days: max,
            min_delivery_date: day(min),
            max_delivery_date: day(max),
          },
        ],
      });
      return true;
    }
    if (path === '/v2/webhooks') {
      if (method === 'GET') {
        const config = await store.webhook(storeId);
        if (!config) return notFound();
        reply(200, { code: 200, result: webhookResult(config) });
        return true;
      }
      if (method === 'POST') {
        const body = json;
        const url = typeof body?.default_url === 'string' ? body.default_url : '';
        const events = Array.isArray(body?.events) ? (body.events as { type?: unknown }[]) : [];
        if (!/^https?:\/\//.test(url) || events.length === 0) {
          reply(400, v1Error(400, 'BadRequest', 'Missing required parameters'));
          return true;
        }
        // A new configuration replaces the old one, with a new key pair.
        const config: WebhookConfig = {
          url,
          events: events.map((e) => String(e.type)),
          secretKey: randomBytes(32).toString('hex'),
          publicKey: randomBytes(9).toString('base64'),
        };
        await store.setWebhook(storeId, config);
        reply(200, { code: 200, result: webhookResult(config) });
        return true;
      }
    }
    if (path === '/v2/orders') {
      if (method === 'GET') {
        const rows = await store.list(storeId);
        reply(200, {
          data: rows.map((r) => publicOrder(r.order)),
          paging: { total: rows.length, offset: 0, limit: 100 },
        });
        return true;
      }
      if (method === 'POST') {
        const body = json;
        const problem = body ? validate(body) : 'The body is not JSON';
        if (problem || !body) {
          reply(400, v1Error(400, 'BadRequest', problem ?? 'Bad request'));
          return true;
        }
        if (typeof body.external_id !== 'string' || !body.external_id) {
          reply(400, v1Error(400, 'BadRequest', 'external_id is required'));
          return true;
        }
        // Printful: "up to 32 characters long and contain digits, Latin alphabet letters, dashes and underscores
        // ... must be unique within the store"; a used one is refused, not answered with the first order.
        if (!/^[A-Za-z0-9_-]{1,32}$/.test(body.external_id)) {
          reply(400, v1Error(400, 'BadRequest', 'external_id must be up to 32 letters, digits, dashes or underscores'));
          return true;
        }
        if (await store.get(storeId, { externalId: body.external_id })) {
          reply(400, v1Error(400, 'BadRequest', `An order with external_id ${body.external_id} already exists`));
          return true;
        }
        const row = await store.insert(storeId, body.external_id, (id) => build(storeId, body, id));
        reply(200, { data: publicOrder(row.order) });
        return true;
      }
    }
    const m = /^\/v2\/orders\/([^/]+)(\/confirmation|\/shipments)?$/.exec(path);
    if (m?.[1]) {
      const row = await store.get(storeId, ref(m[1]));
      if (!row) return notFound();
      const o = row.order;
      if (!m[2] && method === 'GET') {
        reply(200, { data: publicOrder(o) });
        // This read counts towards the costs' calculation.
        if ((o.costs_pending_reads ?? 0) > 0) {
          o.costs_pending_reads = (o.costs_pending_reads ?? 1) - 1;
          await store.save(row);
        }
        return true;
      }
      if (m[2] === '/shipments' && method === 'GET') {
        reply(200, {
          data: o.shipments.map((s) => ({ ...s, order_id: o.id, order_external_id: o.external_id })),
          paging: { total: o.shipments.length, offset: 0, limit: 20 },
        });
        return true;
      }
      if (!m[2] && method === 'DELETE') {
        // v2 deletes an order that was never charged: draft, failed or cancelled.
        if (!['draft', 'failed', 'canceled'].includes(o.status)) {
          reply(409, v1Error(409, 'Conflict', `An order in status ${o.status} cannot be deleted`));
          return true;
        }
        await store.remove(row);
        reply(204, null);
        return true;
      }
      if (m[2] === '/confirmation' && method === 'POST') {
        if (o.status !== 'draft' && o.status !== 'failed') {
          reply(409, v1Error(409, 'Conflict', `Order is already confirmed (status ${o.status})`));
          return true;
        }
        o.status = 'pending';
        o.failure_reason = null;
        o.updated_at = iso();
        row.nextAt = later(delays.production);
        await store.save(row);
        reply(200, { data: publicOrder(o) });
        return true;
      }
    }
    // v1 cancels a confirmed order that has not gone into production (v2 has no cancel).
    const c = /^\/orders\/([^/]+)$/.exec(path);
    if (c?.[1] && method === 'DELETE') {
      const row = await store.get(storeId, ref(c[1]));
      if (!row) return notFound();
      const o = row.order;
      if (!['draft', 'pending', 'failed', 'onhold'].includes(o.status)) {
        reply(400, v1Error(400, 'BadRequest', `Order in status ${o.status} cannot be cancelled`));
        return true;
      }
      o.status = 'canceled';
      o.updated_at = iso();
      row.nextAt = null;
      await store.save(row);
      await sendWebhook(row, 'order_canceled', { reason: 'Cancelled by the store', order: orderData(o) });
      reply(200, { code: 200, result: publicOrder(o) });
      return true;
    }
    return false;
  }

  const webhookResult = (config: WebhookConfig) => ({
    default_url: config.url,
    expires_at: null,
    events: config.events.map((type) => ({ type })),
    public_key: config.publicKey,
    secret_key: config.secretKey,
  });

  return {
    store,
    handle,
    deliveries,
    /** Moves every due order one step on; returns how many moved. */
    async tick(): Promise<number> {
      const due = await store.claimDue(new Date(now()));
      for (const row of due) await step(row);
      return due.length;
    },
    /**
     * The next `n` orders of several items to ship send each item in its own shipment (Printful splits an order
     * whose items come from different facilities): the order is `partial` until the last one has gone.
     */
    shipInParts(n = 1) {
      shipInParts = n;
    },
    /** The next `n` print file downloads fail, as when Printful cannot reach the URL. */
    failNextDownloads(n = 1) {
      failDownloads = n;
    },
  };
}
