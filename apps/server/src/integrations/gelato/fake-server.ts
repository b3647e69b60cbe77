import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GAddress, GFile, GOrder, GOrderCreate, GQuote, GReceipt } from './api';
import {
  FAKE_CATALOGS,
  FAKE_SEEDS,
  fakeCurrency,
  inCurrency,
  methodsFrom,
  seedOf,
  unitPriceEur,
  vatRate,
} from './fake-catalog';

/**
 * A local stand-in for Gelato's order (v4), product (v3) and shipment (v1) hosts on one 127.0.0.1 port, following
 * apis-next.md G and its checklist G.9: `X-API-KEY` only (401 `invalid_api_key_provided`), attribute catalogue
 * with per-country support and quantity-tier prices, per-hub quotes (currency may differ from the one asked),
 * strict create validation (a duplicate `orderReferenceId` is accepted, as Gelato does), drafts patched into orders
 * (items left out are removed), DELETE of drafts only, an asynchronous status walk (a file that cannot be
 * downloaded fails the order; on hold on demand), cancel refused with 409 once in production, split orders sharing
 * one reference with `connectedOrderIds`, receipts with VAT, and unsigned webhooks (order, item and tracking
 * events) tried 3 times 5 s apart. Webhook URLs are set in Gelato's dashboard, not by API: here `setWebhookUrl`.
 */

export type StoredGelatoOrder = {
  account: string;
  order: GOrder;
  /** When the order moves on next (ms since epoch); null when it waits for nothing. */
  nextAt: number | null;
};

/** Where the orders live: memory in tests, the app's database for the built-in sandbox. */
export interface GelatoOrderStore {
  /** The parts of one create (several when split), all at once. */
  insert(orders: StoredGelatoOrder[]): Promise<void>;
  get(account: string, id: string): Promise<StoredGelatoOrder | null>;
  byReference(account: string, refs: string[]): Promise<StoredGelatoOrder[]>;
  save(o: StoredGelatoOrder): Promise<void>;
  remove(o: StoredGelatoOrder): Promise<void>;
  /** Due orders, each taken once (their nextAt cleared). */
  claimDue(now: number): Promise<StoredGelatoOrder[]>;
  webhookUrl(account: string): Promise<string | null>;
  setWebhookUrl(account: string, url: string | null): Promise<void>;
}

export function memoryGelatoStore(): GelatoOrderStore {
  const orders = new Map<string, StoredGelatoOrder>();
  const hooks = new Map<string, string>();
  const copy = (o: StoredGelatoOrder): StoredGelatoOrder => structuredClone(o);
  return {
    async insert(list) {
      for (const o of list) orders.set(o.order.id, copy(o));
    },
    async get(account, id) {
      const o = orders.get(id);
      return o && o.account === account ? copy(o) : null;
    },
    async byReference(account, refs) {
      return [...orders.values()]
        .filter((o) => o.account === account && refs.includes(o.order.orderReferenceId))
        .map(copy);
    },
    async save(o) {
      if (orders.has(o.order.id)) orders.set(o.order.id, copy(o));
    },
    async remove(o) {
      orders.delete(o.order.id);
    },
    async claimDue(now) {
      const due = [...orders.values()].filter((o) => o.nextAt !== null && o.nextAt <= now);
      for (const o of due) o.nextAt = null;
      return due.map(copy);
    },
    async webhookUrl(account) {
      return hooks.get(account) ?? null;
    },
    async setWebhookUrl(account, url) {
      if (url) hooks.set(account, url);
      else hooks.delete(account);
    },
  };
}

export type FakeGelatoOptions = {
  /** API keys and the account each belongs to (or a function for the sandbox's derived keys). */
  apiKeys?: Record<string, string> | ((key: string) => string | null);
  store?: GelatoOrderStore;
  now?: () => number;
  /** Milliseconds in production, to shipping, to delivery (tests: 0, each tick is one step). */
  delays?: { production: number; ship: number; deliver: number };
  /** Whether a print file downloads (Gelato fetches every file before production). */
  fetchFile?: (url: string) => Promise<boolean>;
  /** Sends a webhook; a throw or rejection is a failed attempt. */
  post?: (url: string, body: string, headers: Record<string, string>) => Promise<void>;
  /** Between webhook attempts (Gelato: 5 s). */
  retryDelayMs?: number;
  /** Asks for a tick at this instant (the sandbox queues a job). */
  schedule?: (at: Date) => void;
  /** Webhooks in the older shape (`"object":"orderStatus"` instead of `"event"`). */
  legacyWebhooks?: boolean;
};

export type FakeGelato = {
  url: string;
  /** Every API call in order (method, path without query, status). */
  calls: { method: string; path: string; status: number }[];
  /** Answer the next `n` calls with 429, asking for a wait of `retryAfterSec` (1 unless given). */
  throttleNext(n: number, retryAfterSec?: number): void;
  /** The dashboard's webhook setting for the account of this key. */
  setWebhookUrl(apiKey: string, url: string | null): Promise<void>;
  /** The next order reaching production goes on hold instead. */
  holdNext(): void;
  /** The next file checks fail (the order fails in `uploading`). */
  failNextDownloads(n?: number): void;
  /** The next `n` orders of several items to ship go in one package per item, each with its own tracking code. */
  shipInParts(n?: number): void;
  /** Moves every due order one step on; answers how many moved. */
  tick(): Promise<number>;
  close(): Promise<void>;
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string, code = 'invalid_request') => new HttpError(400, code, message);
const notFound = () => new HttpError(404, 'not_found', 'Order not found');

/** The 35 currencies Gelato bills in (apis-next.md G.4: an ISO code from its list); the usual ones here. */
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'SEK', 'DKK', 'NOK', 'CHF', 'PLN', 'JPY', 'NZD', 'SGD'];
const FILE_TYPES = ['default', 'front', 'back', 'neck-inner', 'neck-outer', 'sleeve-left', 'sleeve-right', 'inside'];
const NEEDS_STATE = ['US', 'CA', 'AU'];
const STEP: Record<string, string> = {
  created: 'passed',
  passed: 'in_production',
  in_production: 'printed',
  printed: 'shipped',
  shipped: 'delivered',
};
const CANCELLABLE = ['created', 'uploading', 'passed', 'pending_approval', 'on_hold', 'failed', 'canceled'];

const round = (n: number) => Math.round(n * 100) / 100;

function validateAddress(a: unknown): GAddress {
  if (!a || typeof a !== 'object') throw bad('shippingAddress is required');
  const x = a as Record<string, unknown>;
  const limits: [string, number, boolean][] = [
    ['firstName', 25, true],
    ['lastName', 25, true],
    ['companyName', 60, false],
    ['addressLine1', 35, true],
    ['addressLine2', 35, false],
    ['city', 30, true],
    ['postCode', 15, true],
    ['country', 2, true],
    ['email', 255, true],
    ['state', 35, false],
    ['phone', 25, false],
  ];
  for (const [field, max, required] of limits) {
    const v = x[field];
    if (v === undefined || v === null || v === '') {
      if (required) throw bad(`shippingAddress.${field} is required`);
      continue;
    }
    if (typeof v !== 'string') throw bad(`shippingAddress.${field} must be a string`);
    if (v.length > max) throw bad(`shippingAddress.${field} must be at most ${max} characters`);
  }
  const country = String(x.country);
  if (country === 'UK') throw bad('shippingAddress.country: use GB for the United Kingdom');
  if (!/^[A-Z]{2}$/.test(country)) throw bad('shippingAddress.country must be an ISO 3166-1 alpha-2 code');
  if (NEEDS_STATE.includes(country) && !x.state) throw bad(`shippingAddress.state is required for ${country}`);
  return x as unknown as GAddress;
}

type CreateItem = GOrderCreate['items'][number];

function validateCreate(body: unknown): GOrderCreate {
  if (!body || typeof body !== 'object') throw bad('Invalid request body.');
  const b = body as Record<string, unknown>;
  const orderType = b.orderType ?? 'order';
  if (orderType !== 'order' && orderType !== 'draft') throw bad('orderType must be order or draft');
  for (const f of ['orderReferenceId', 'customerReferenceId', 'currency']) {
    if (typeof b[f] !== 'string' || !b[f]) throw bad(`${f} is required`);
  }
  if (!CURRENCIES.includes(String(b.currency))) throw bad(`currency ${String(b.currency)} is not supported`);
  const address = validateAddress(b.shippingAddress);
  if (!Array.isArray(b.items) || b.items.length === 0) throw bad('items is required');
  const refs = new Set<string>();
  for (const raw of b.items as unknown[]) {
    const i = (raw ?? {}) as Record<string, unknown>;
    if (typeof i.itemReferenceId !== 'string' || !i.itemReferenceId) throw bad('items[].itemReferenceId is required');
    if (refs.has(i.itemReferenceId)) throw bad(`itemReferenceId ${i.itemReferenceId} is used twice in the order`);
    refs.add(i.itemReferenceId);
    if (!Number.isInteger(i.quantity) || (i.quantity as number) < 1) throw bad('items[].quantity must be 1 or more');
    const seed = typeof i.productUid === 'string' ? seedOf(i.productUid) : null;
    if (!seed) throw bad(`productUid ${String(i.productUid)} does not exist`, 'invalid_product_uid');
    if (!seed.product.supportedCountries.includes(address.country)) {
      throw bad(
        `${seed.product.productUid} cannot be delivered to ${address.country}`,
        'product_not_supported_in_country',
      );
    }
    if (!Array.isArray(i.files) || i.files.length === 0) throw bad('items[].files is required');
    for (const f of i.files as GFile[]) {
      if (!FILE_TYPES.includes(f?.type)) throw bad(`file type ${String(f?.type)} is not supported`);
      if (typeof f.url !== 'string' || !/^https?:\/\//.test(f.url)) throw bad('items[].files[].url must be a URL');
    }
  }
  if (b.metadata !== undefined) {
    if (!Array.isArray(b.metadata) || b.metadata.length > 20) throw bad('metadata takes at most 20 entries');
    for (const m of b.metadata as { key?: unknown; value?: unknown }[]) {
      if (typeof m.key !== 'string' || typeof m.value !== 'string' || m.key.length > 100 || m.value.length > 100) {
        throw bad('metadata keys and values are strings of at most 100 characters');
      }
    }
  }
  return { ...(b as unknown as GOrderCreate), orderType, shippingAddress: address };
}

/** The parts one create becomes: items grouped by the hub that makes them for this country. */
function split(items: CreateItem[], country: string): { hub: string; items: CreateItem[] }[] {
  const byHub = new Map<string, CreateItem[]>();
  for (const i of items) {
    const hub = seedOf(i.productUid)?.hub(country) ?? 'DE';
    byHub.set(hub, [...(byHub.get(hub) ?? []), i]);
  }
  return [...byHub.entries()].map(([hub, list]) => ({ hub, items: list }));
}

export async function startFakeGelato(options: FakeGelatoOptions = {}): Promise<FakeGelato> {
  const now = options.now ?? Date.now;
  const store = options.store ?? memoryGelatoStore();
  const delays = options.delays ?? { production: 0, ship: 0, deliver: 0 };
  const keys = options.apiKeys ?? { 'gelato-test-key': 'acct-1' };
  const accountOf = (key: string) => (typeof keys === 'function' ? keys(key) : (keys[key] ?? null));
  const calls: FakeGelato['calls'] = [];
  let throttle = 0;
  let retryAfter = 1;
  let hold = false;
  let failDownloads = 0;
  let shipInParts = 0;

  const iso = (t = now()) => new Date(t).toISOString().replace('Z', '+00:00');
  const later = (ms: number) => {
    const at = now() + ms;
    options.schedule?.(new Date(at));
    return at;
  };

  function receipt(order: GOrder, type: 'purchase' | 'refund'): GReceipt {
    const country = order.shippingAddress.country;
    const vat = vatRate(country);
    const sign = type === 'refund' ? -1 : 1;
    const productsPrice = round(order.items.reduce((s, i) => s + (i.price ?? 0) * i.quantity, 0));
    const shippingPrice = order.shipment?.price ?? 0;
    const packagingPrice = inCurrency(1.2, order.currency);
    const total = round(productsPrice + shippingPrice + packagingPrice);
    const totalVat = round(total * vat);
    return {
      id: randomUUID(),
      orderId: order.id,
      transactionType: type,
      currency: order.currency,
      items: [
        ...order.items.map((i) => ({
          type: 'product',
          referenceId: i.id,
          price: sign * round((i.price ?? 0) * i.quantity),
          vat: sign * round((i.price ?? 0) * i.quantity * vat),
          priceInclVat: sign * round((i.price ?? 0) * i.quantity * (1 + vat)),
        })),
        {
          type: 'shipment',
          title: `Delivery using ${order.shipment?.shipmentMethodName ?? ''}`,
          price: sign * shippingPrice,
          vat: sign * round(shippingPrice * vat),
          priceInclVat: sign * round(shippingPrice * (1 + vat)),
        },
        {
          type: 'packaging',
          title: 'Packaging',
          price: sign * packagingPrice,
          vat: sign * round(packagingPrice * vat),
          priceInclVat: sign * round(packagingPrice * (1 + vat)),
        },
      ],
      productsPrice: sign * productsPrice,
      shippingPrice: sign * shippingPrice,
      packagingPrice: sign * packagingPrice,
      discount: 0,
      total: sign * total,
      totalVat: sign * totalVat,
      totalInclVat: sign * round(total + totalVat),
    };
  }

  async function create(account: string, input: GOrderCreate): Promise<GOrder> {
    const country = input.shippingAddress.country;
    const currency = input.currency;
    const parts = split(input.items, country);
    const ids = parts.map(() => randomUUID());
    const at = iso();
    const draft = input.orderType === 'draft';
    const built: StoredGelatoOrder[] = parts.map((part, n) => {
      const methods = methodsFrom(part.hub, country, currency, now());
      const wanted = (input.shipmentMethodUid ?? 'normal').split(',').map((s) => s.trim());
      const method =
        methods.find((m) => wanted.includes(m.shipmentMethodUid) || wanted.includes(m.type)) ??
        (methods[0] as (typeof methods)[number]);
      const order: GOrder = {
        id: ids[n] as string,
        orderType: input.orderType,
        orderReferenceId: input.orderReferenceId,
        customerReferenceId: input.customerReferenceId,
        fulfillmentStatus: draft ? 'draft' : 'created',
        financialStatus: draft ? 'draft' : 'pending',
        currency,
        channel: 'api',
        storeId: null,
        createdAt: at,
        updatedAt: at,
        orderedAt: draft ? null : at,
        items: part.items.map((i) => {
          const seed = seedOf(i.productUid);
          return {
            id: randomUUID(),
            itemReferenceId: i.itemReferenceId,
            productUid: i.productUid,
            files: i.files.map((f) => ({ type: f.type, url: f.url })),
            quantity: i.quantity,
            fulfillmentStatus: draft ? 'draft' : 'created',
            price: seed ? inCurrency(unitPriceEur(seed, i.quantity), currency) : 0,
            currency,
          };
        }),
        shippingAddress: input.shippingAddress,
        shipment: {
          id: randomUUID(),
          shipmentMethodName: method.name,
          shipmentMethodUid: method.shipmentMethodUid,
          price: method.price,
          currency,
          minDeliveryDays: method.minDeliveryDays,
          maxDeliveryDays: method.maxDeliveryDays,
          minDeliveryDate: method.minDeliveryDate,
          maxDeliveryDate: method.maxDeliveryDate,
          fulfillmentCountry: part.hub,
          packagesCount: 0,
          packages: [],
        },
        receipts: [],
        connectedOrderIds: ids.filter((_, m) => m !== n),
        ...(input.metadata ? { metadata: input.metadata } : {}),
      };
      order.receipts = [receipt(order, 'purchase')];
      return { account, order, nextAt: draft ? null : later(0) };
    });
    await store.insert(built);
    return (built[0] as StoredGelatoOrder).order;
  }

  async function deliver(account: string, body: Record<string, unknown>) {
    const url = await store.webhookUrl(account);
    if (!url || !options.post) return;
    const payload = JSON.stringify(
      options.legacyWebhooks && body.event === 'order_status_updated'
        ? { ...Object.fromEntries(Object.entries(body).filter(([k]) => k !== 'event')), object: 'orderStatus' }
        : body,
    );
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        await options.post(url, payload, { 'content-type': 'application/json' });
        return;
      } catch {
        if (attempt < 3) await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 5000));
      }
    }
  }

  async function announce(s: StoredGelatoOrder) {
    const o = s.order;
    const shipped = ['shipped', 'in_transit', 'delivered'].includes(o.fulfillmentStatus);
    // Each item's tracking is its own package's.
    const packageOf = (itemId: string) => o.shipment?.packages.find((p) => p.orderItemIds.includes(itemId));
    const fulfillments = (itemId: string) => {
      const pkg = packageOf(itemId);
      return shipped && pkg
        ? [
            {
              trackingCode: pkg.trackingCode,
              trackingUrl: pkg.trackingUrl,
              shipmentMethodName: o.shipment?.shipmentMethodName,
              shipmentMethodUid: o.shipment?.shipmentMethodUid,
              fulfillmentCountry: o.shipment?.fulfillmentCountry,
            },
          ]
        : [];
    };
    const tag = randomUUID().replace(/-/g, '').slice(0, 13);
    await deliver(s.account, {
      id: `os_${tag}`,
      event: 'order_status_updated',
      orderId: o.id,
      storeId: null,
      orderReferenceId: o.orderReferenceId,
      fulfillmentStatus: o.fulfillmentStatus,
      items: o.items.map((i) => ({
        itemReferenceId: i.itemReferenceId,
        fulfillmentStatus: i.fulfillmentStatus,
        fulfillments: fulfillments(i.id),
      })),
    });
    for (const i of o.items) {
      await deliver(s.account, {
        id: `is_${tag}${i.itemReferenceId}`.slice(0, 40),
        event: 'order_item_status_updated',
        itemReferenceId: i.itemReferenceId,
        orderReferenceId: o.orderReferenceId,
        orderId: o.id,
        storeId: null,
        fulfillmentCountry: o.shipment?.fulfillmentCountry,
        status: i.fulfillmentStatus,
        comment: '',
        created: iso(),
      });
      const pkg = packageOf(i.id);
      if (o.fulfillmentStatus === 'shipped' && pkg) {
        await deliver(s.account, {
          id: `tc_${tag}${i.itemReferenceId}`.slice(0, 40),
          event: 'order_item_tracking_code_updated',
          orderId: o.id,
          itemReferenceId: i.itemReferenceId,
          orderReferenceId: o.orderReferenceId,
          trackingCode: pkg.trackingCode,
          trackingUrl: pkg.trackingUrl,
          shipmentMethodName: o.shipment?.shipmentMethodName,
          shipmentMethodUid: o.shipment?.shipmentMethodUid,
          created: iso(),
        });
      }
    }
  }

  function setStatus(o: GOrder, status: string) {
    o.fulfillmentStatus = status;
    for (const i of o.items) i.fulfillmentStatus = status;
    o.updatedAt = iso();
  }

  async function step(s: StoredGelatoOrder) {
    const o = s.order;
    const next = STEP[o.fulfillmentStatus];
    if (!next || o.orderType !== 'order') return;
    if (o.fulfillmentStatus === 'created') {
      const files = o.items.flatMap((i) => i.files.map((f) => f.url));
      let ok = true;
      for (const url of files) {
        if (failDownloads > 0) {
          failDownloads--;
          ok = false;
        } else if (options.fetchFile && !(await options.fetchFile(url).catch(() => false))) ok = false;
        if (!ok) break;
      }
      if (!ok) {
        setStatus(o, 'failed');
        await store.save(s);
        await announce(s);
        return;
      }
    }
    if (next === 'in_production' && hold) {
      hold = false;
      setStatus(o, 'on_hold');
      await store.save(s);
      await announce(s);
      return;
    }
    setStatus(o, next);
    if (next === 'in_production') o.financialStatus = 'paid';
    if (next === 'shipped' && o.shipment) {
      // One package with every item, or (shipInParts) one package per item, each with its own tracking code.
      const split = shipInParts > 0 && o.items.length > 1;
      if (split) shipInParts -= 1;
      o.shipment.packages = (split ? o.items.map((i) => [i.id]) : [o.items.map((i) => i.id)]).map((orderItemIds) => {
        const code = `GT${String(Math.floor(Math.random() * 1e10)).padStart(10, '0')}`;
        return {
          id: randomUUID(),
          orderItemIds,
          trackingCode: code,
          trackingUrl: `https://tracking.gelato.com/${code}`,
        };
      });
      o.shipment.packagesCount = o.shipment.packages.length;
    }
    s.nextAt =
      next === 'passed' || next === 'in_production'
        ? later(delays.production)
        : next === 'printed'
          ? later(0)
          : next === 'shipped'
            ? later(delays.deliver)
            : null;
    await store.save(s);
    await announce(s);
  }

  async function quote(body: unknown): Promise<{ orderReferenceId: string; quotes: GQuote[] }> {
    const b = (body ?? {}) as Record<string, unknown>;
    for (const f of ['orderReferenceId', 'customerReferenceId', 'currency']) {
      if (typeof b[f] !== 'string' || !b[f]) throw bad(`${f} is required`);
    }
    const r = (b.recipient ?? {}) as Record<string, unknown>;
    const country = String(r.country ?? '');
    if (country === 'UK') throw bad('recipient.country: use GB for the United Kingdom');
    if (!/^[A-Z]{2}$/.test(country)) throw bad('recipient.country is required');
    if (!Array.isArray(b.products) || b.products.length === 0) throw bad('products is required');
    const items = (b.products as Record<string, unknown>[]).map((p) => {
      const seed = typeof p.productUid === 'string' ? seedOf(p.productUid) : null;
      if (!seed) throw bad(`productUid ${String(p.productUid)} does not exist`, 'invalid_product_uid');
      if (!seed.product.supportedCountries.includes(country)) {
        throw bad(`${seed.product.productUid} cannot be delivered to ${country}`, 'product_not_supported_in_country');
      }
      if (!Number.isInteger(p.quantity) || (p.quantity as number) < 1)
        throw bad('products[].quantity must be 1 or more');
      return {
        itemReferenceId: String(p.itemReferenceId ?? ''),
        productUid: seed.product.productUid,
        quantity: p.quantity as number,
        fileUrl: String(p.fileUrl ?? 'https://example.invalid/f.png'),
      };
    });
    // Quotes are in the account's billing currency when Gelato cannot bill in the one asked.
    const currency = fakeCurrency(String(b.currency));
    const quotes = split(
      items.map((i) => ({ ...i, files: [{ type: 'default', url: i.fileUrl }] })),
      country,
    ).map((part) => ({
      id: randomUUID(),
      itemReferenceIds: part.items.map((i) => i.itemReferenceId),
      fulfillmentCountry: part.hub,
      shipmentMethods: methodsFrom(part.hub, country, currency, now()),
      products: part.items.map((i) => {
        const seed = seedOf(i.productUid);
        return {
          itemReferenceId: i.itemReferenceId,
          productUid: i.productUid,
          quantity: i.quantity,
          price: round((seed ? inCurrency(unitPriceEur(seed, i.quantity), currency) : 0) * i.quantity),
          currency,
        };
      }),
    }));
    return { orderReferenceId: String(b.orderReferenceId), quotes };
  }

  async function route(method: string, path: string, query: URLSearchParams, body: unknown, account: string) {
    // Product host (v3).
    if (method === 'GET' && path === '/v3/catalogs') return FAKE_CATALOGS;
    let m = /^\/v3\/catalogs\/([^/:]+)$/.exec(path);
    if (method === 'GET' && m) {
      const cat = FAKE_CATALOGS.find((c) => c.catalogUid === m?.[1]);
      if (!cat) throw new HttpError(404, 'not_found', 'Catalog not found');
      const attrs = new Map<string, Set<string>>();
      for (const s of FAKE_SEEDS.filter((x) => x.catalogUid === cat.catalogUid)) {
        for (const [k, v] of Object.entries(s.product.attributes)) attrs.set(k, (attrs.get(k) ?? new Set()).add(v));
      }
      return {
        ...cat,
        productAttributes: [...attrs].map(([k, vs]) => ({
          productAttributeUid: k,
          values: [...vs].map((v) => ({ productAttributeValueUid: v, title: v })),
        })),
      };
    }
    m = /^\/v3\/catalogs\/([^/:]+)\/products:search$/.exec(path);
    if (method === 'POST' && m) {
      const b = (body ?? {}) as { attributeFilters?: Record<string, string[]>; limit?: number; offset?: number };
      const limit = b.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw bad('limit must be between 1 and 100');
      const offset = b.offset ?? 0;
      const filters = Object.entries(b.attributeFilters ?? {});
      const found = FAKE_SEEDS.filter(
        (s) => s.catalogUid === m?.[1] && filters.every(([k, vs]) => vs.includes(s.product.attributes[k] as string)),
      ).map((s) => s.product);
      return { products: found.slice(offset, offset + limit), hits: { attributeHits: {} } };
    }
    m = /^\/v3\/products\/([^/]+)\/prices$/.exec(path);
    if (method === 'GET' && m) {
      const seed = seedOf(decodeURIComponent(m[1] as string));
      if (!seed) throw new HttpError(404, 'not_found', 'Product not found');
      const country = query.get('country') ?? 'US';
      if (!seed.product.supportedCountries.includes(country)) return [];
      const currency = fakeCurrency(query.get('currency') ?? undefined);
      return [1, 10, 50].map((q) => ({
        productUid: seed.product.productUid,
        country,
        quantity: q,
        price: inCurrency(unitPriceEur(seed, q), currency),
        currency,
        pageCount: null,
      }));
    }
    m = /^\/v3\/products\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) {
      const seed = seedOf(decodeURIComponent(m[1] as string));
      if (!seed) throw new HttpError(404, 'not_found', 'Product not found');
      return seed.product;
    }
    if (method === 'POST' && path === '/v3/stock/region-availability') {
      const uids = ((body ?? {}) as { products?: string[] }).products ?? [];
      if (uids.length > 250) {
        throw bad(`Too many products requested: ${uids.length} of maximum 250.`, 'invalid_request_too_many_products');
      }
      return {
        productsAvailability: uids.map((u) => ({
          productUid: u,
          availability: ['US-CA', 'EU', 'UK', 'OC', 'AS', 'SA', 'ROW'].map((r) => ({
            stockRegionUid: r,
            status: seedOf(u) ? 'non-stockable' : 'not-supported',
            replenishmentDate: null,
          })),
        })),
      };
    }
    // Shipment host (v1).
    if (method === 'GET' && path === '/v1/shipment-methods') {
      const country = query.get('country');
      const hubs = ['US', 'GB', 'DE'];
      return {
        shipmentMethods: hubs.flatMap((h) =>
          methodsFrom(h, country ?? h, 'EUR', now()).map((x) => ({
            shipmentMethodUid: x.shipmentMethodUid,
            type: x.type,
            name: x.name,
            isBusiness: true,
            isPrivate: true,
            hasTracking: true,
            supportedCountries: country ? [country] : [h],
          })),
        ),
      };
    }
    // Order host (v4).
    if (method === 'POST' && path === '/v4/orders:quote') return quote(body);
    if (method === 'POST' && path === '/v4/orders') return create(account, validateCreate(body));
    if (method === 'POST' && path === '/v4/orders:search') {
      const b = (body ?? {}) as {
        orderReferenceIds?: string[];
        orderTypes?: string[];
        limit?: number;
        offset?: number;
      };
      const limit = b.limit ?? 50;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw bad('limit must be between 1 and 100');
      const found = (await store.byReference(account, b.orderReferenceIds ?? []))
        .map((s) => s.order)
        .filter((o) => !b.orderTypes || b.orderTypes.includes(o.orderType))
        .sort((x, y) => x.createdAt.localeCompare(y.createdAt));
      return {
        orders: found.slice(b.offset ?? 0, (b.offset ?? 0) + limit).map((o) => ({
          id: o.id,
          orderReferenceId: o.orderReferenceId,
          orderType: o.orderType,
          fulfillmentStatus: o.fulfillmentStatus,
          financialStatus: o.financialStatus,
          currency: o.currency,
          totalInclVat: o.receipts.reduce((s, r) => s + r.totalInclVat, 0),
          country: o.shippingAddress.country,
          createdAt: o.createdAt,
          updatedAt: o.updatedAt,
        })),
      };
    }
    m = /^\/v4\/orders\/([^/:]+):cancel$/.exec(path);
    if (method === 'POST' && m) {
      const s = await store.get(account, m[1] as string);
      if (!s) throw notFound();
      if (s.order.orderType === 'draft')
        throw new HttpError(409, 'order_is_draft', 'A draft is deleted, not cancelled');
      if (!CANCELLABLE.includes(s.order.fulfillmentStatus)) {
        throw new HttpError(
          409,
          'order_cannot_be_canceled',
          'The order is already in production and cannot be canceled',
        );
      }
      if (s.order.fulfillmentStatus !== 'canceled') {
        setStatus(s.order, 'canceled');
        s.order.financialStatus = 'refunded';
        s.order.receipts.push(receipt(s.order, 'refund'));
        s.nextAt = null;
        await store.save(s);
        await announce(s);
      }
      return {};
    }
    m = /^\/v4\/orders\/([^/:]+)$/.exec(path);
    if (m) {
      const s = await store.get(account, m[1] as string);
      if (!s) throw notFound();
      if (method === 'GET') return s.order;
      if (method === 'DELETE') {
        if (s.order.orderType !== 'draft')
          throw new HttpError(409, 'order_not_draft', 'Only draft orders can be deleted');
        await store.remove(s);
        return {};
      }
      if (method === 'PATCH') {
        if (s.order.orderType !== 'draft')
          throw new HttpError(409, 'order_not_draft', 'Only draft orders can be changed');
        const b = (body ?? {}) as { orderType?: string; items?: { id?: string; files?: GFile[] }[] };
        if (b.items !== undefined) {
          if (!Array.isArray(b.items)) throw bad('items must be an array');
          // Items left out of the array are removed from the draft.
          const kept = s.order.items.filter((i) => b.items?.some((x) => x.id === i.id));
          for (const i of kept) {
            const files = b.items.find((x) => x.id === i.id)?.files;
            if (files) i.files = files;
          }
          if (kept.length === 0) throw bad('an order needs at least one item');
          s.order.items = kept;
        }
        if (b.orderType !== undefined) {
          if (b.orderType !== 'order') throw bad('orderType can only change to order');
          s.order.orderType = 'order';
          setStatus(s.order, 'created');
          s.order.financialStatus = 'pending';
          s.order.orderedAt = iso();
          s.nextAt = later(0);
        }
        s.order.receipts = [receipt(s.order, 'purchase')];
        await store.save(s);
        return s.order;
      }
    }
    throw new HttpError(404, 'not_found', 'Not found');
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      calls.push({ method, path, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const key = req.headers['x-api-key'];
    const account = typeof key === 'string' ? accountOf(key) : null;
    if (!account) return send(401, { code: 'invalid_api_key_provided', message: 'Invalid API key provided.' });
    if (throttle > 0) {
      throttle--;
      return send(
        429,
        { code: 'too_many_requests', message: 'Too many requests' },
        { 'retry-after': String(retryAfter) },
      );
    }
    let body: unknown;
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    } catch {
      return send(400, { message: 'Invalid request body.' });
    }
    try {
      send(200, await route(method, path, url.searchParams, body, account));
    } catch (error) {
      if (error instanceof HttpError) return send(error.status, { code: error.code, message: error.message });
      send(500, { code: 'internal_error', message: 'Internal error' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    calls,
    throttleNext(n, retryAfterSec = 1) {
      throttle = n;
      retryAfter = retryAfterSec;
    },
    async setWebhookUrl(apiKey, hook) {
      const account = accountOf(apiKey);
      if (account) await store.setWebhookUrl(account, hook);
    },
    holdNext() {
      hold = true;
    },
    failNextDownloads(n = 1) {
      failDownloads = n;
    },
    shipInParts(n = 1) {
      shipInParts = n;
    },
    async tick() {
      const due = await store.claimDue(now());
      for (const s of due) await step(s);
      return due.length;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
