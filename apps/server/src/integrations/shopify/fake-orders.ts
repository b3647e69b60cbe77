import { randomUUID } from 'node:crypto';
import { DEFAULT_SHOPIFY_API_VERSION } from './api-versions';
import type { FakeShopifyStore } from './fake-state';
import { webhookHmac } from './hmac';

/**
 * Orders in the fake Shopify (apis.md E5): a paid order for given variants (by SKU or variant id) with line items,
 * a shipping address and a customer, announced with `orders/paid` the way Shopify delivers webhooks (A4, E4:
 * signed raw body, topic, shop, event id; a switch delivers one event twice). Each order has one fulfillment order;
 * `fulfillmentCreate` records the carrier, tracking number and URL and closes it. Read through GraphQL `orders`
 * (newest first) and `order(id)`. Orders are kept in the fake's store (the app's database for the built-in sandbox),
 * so they survive a restart and every instance sees them.
 */

export type FakeAddress = {
  name: string;
  address1: string;
  address2?: string | undefined;
  city: string;
  province_code?: string | undefined;
  country_code: string;
  zip: string;
  phone?: string | undefined;
};
export type FakeLineItem = {
  id: number;
  variantId: number | null;
  sku: string | null;
  title: string;
  quantity: number;
  price: string;
};
export type FakeFulfillment = {
  id: string;
  fulfillmentOrderId: string;
  trackingInfo: { company: string | null; number: string | null; url: string | null };
  notifyCustomer: boolean;
};
export type FakeShopOrder = {
  id: number;
  name: string;
  createdAt: string;
  currency: string;
  total: string;
  cancelledAt: string | null;
  customerId: number;
  shippingAddress: FakeAddress | null;
  lineItems: FakeLineItem[];
  fulfillmentOrder: { id: string; status: 'OPEN' | 'CLOSED' | 'CANCELLED' };
  fulfillments: FakeFulfillment[];
};

/** What the fake knows of a shop's product variants, to price and name a line. */
export type VariantLookup = (
  shop: string,
) => Promise<{ id: string; sku: string | null; price: string; title: string; productTitle: string }[]>;

export type WebhookDelivery = { shop: string; topic: string; body: string; headers: Record<string, string> };

const numeric = (gid: string) => Number(gid.split('/').pop());
let nextId = Math.floor(5e12 + Math.random() * 1e12);
const newId = () => {
  nextId += 1;
  return nextId;
};

const KIND = 'order';
const orderKey = (shop: string, id: number) => `${shop}|${id}`;

export function createFakeOrders(options: {
  /** The secret the shop's webhooks are signed with. */
  webhookSecret: (shop: string) => Promise<string>;
  apiVersion?: string;
  now: () => number;
  variants: VariantLookup;
  store: FakeShopifyStore;
}) {
  const { store } = options;
  const deliveries: WebhookDelivery[] = [];
  let sink: ((d: WebhookDelivery) => Promise<void>) | null = null;
  let duplicateNext = false;
  let sameEventNext = false;
  let lastEventId: string | null = null;

  /** The shop's orders, oldest first (copies: a change is kept only by `save`). */
  const ordersOf = async (shop: string): Promise<FakeShopOrder[]> =>
    (await store.list<FakeShopOrder>(KIND, `${shop}|`))
      .map((o) => structuredClone(o))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const save = (shop: string, order: FakeShopOrder) => store.put(KIND, orderKey(shop, order.id), order);
  const find = async (shop: string, id: number) => {
    const found = await store.get<FakeShopOrder>(KIND, orderKey(shop, id));
    return found ? structuredClone(found) : null;
  };

  /** The REST order resource, as webhooks carry it (E5's fields). */
  const restOrder = (shop: string, o: FakeShopOrder) => ({
    id: o.id,
    admin_graphql_api_id: `gid://shopify/Order/${o.id}`,
    name: o.name,
    created_at: o.createdAt,
    cancelled_at: o.cancelledAt,
    currency: o.currency,
    total_price: o.total,
    financial_status: 'paid',
    customer: { id: o.customerId },
    shipping_address: o.shippingAddress,
    line_items: o.lineItems.map((l) => ({
      id: l.id,
      variant_id: l.variantId,
      sku: l.sku,
      title: l.title,
      quantity: l.quantity,
      price: l.price,
    })),
    shop_domain: shop,
  });

  async function send(shop: string, topic: string, payload: unknown) {
    const body = JSON.stringify(payload);
    const secret = await options.webhookSecret(shop);
    // One merchant action gives every topic it triggers the same event id (A4): a switch makes the next one share it.
    const eventId = sameEventNext && lastEventId ? lastEventId : randomUUID();
    sameEventNext = false;
    lastEventId = eventId;
    const times = duplicateNext ? 2 : 1;
    duplicateNext = false;
    for (let i = 0; i < times; i++) {
      const delivery: WebhookDelivery = {
        shop,
        topic,
        body,
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': topic,
          'x-shopify-hmac-sha256': webhookHmac(body, secret),
          'x-shopify-shop-domain': shop,
          'x-shopify-api-version': options.apiVersion ?? DEFAULT_SHOPIFY_API_VERSION,
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-event-id': eventId,
          'x-shopify-triggered-at': new Date(options.now()).toISOString(),
        },
      };
      deliveries.push(delivery);
      if (sink) await sink(delivery);
    }
  }

  const gqlOrder = (o: FakeShopOrder) => ({
    id: `gid://shopify/Order/${o.id}`,
    legacyResourceId: String(o.id),
    name: o.name,
    createdAt: o.createdAt,
    cancelledAt: o.cancelledAt,
    displayFinancialStatus: 'PAID',
    currencyCode: o.currency,
    totalPriceSet: { shopMoney: { amount: o.total, currencyCode: o.currency } },
    customer: { id: `gid://shopify/Customer/${o.customerId}` },
    shippingAddress: o.shippingAddress
      ? {
          name: o.shippingAddress.name,
          address1: o.shippingAddress.address1,
          address2: o.shippingAddress.address2 ?? null,
          city: o.shippingAddress.city,
          provinceCode: o.shippingAddress.province_code ?? null,
          countryCodeV2: o.shippingAddress.country_code,
          zip: o.shippingAddress.zip,
          phone: o.shippingAddress.phone ?? null,
        }
      : null,
    lineItems: {
      nodes: o.lineItems.map((l) => ({
        id: `gid://shopify/LineItem/${l.id}`,
        title: l.title,
        sku: l.sku,
        quantity: l.quantity,
        variant: l.variantId ? { id: `gid://shopify/ProductVariant/${l.variantId}` } : null,
        originalUnitPriceSet: { shopMoney: { amount: l.price, currencyCode: o.currency } },
      })),
    },
    fulfillmentOrders: { nodes: [{ id: o.fulfillmentOrder.id, status: o.fulfillmentOrder.status }] },
    fulfillments: o.fulfillments.map((f) => ({ id: f.id, trackingInfo: [f.trackingInfo] })),
  });

  type Answer = { data: unknown } | { denied: string } | null;

  /** GraphQL fields about orders; null when the field is not one of them. */
  async function graphql(
    shop: string,
    field: string,
    vars: Record<string, unknown>,
    scopes: string[],
    first: number,
  ): Promise<Answer> {
    if (field === 'orders') {
      if (!scopes.includes('read_orders')) return { denied: 'read_orders' };
      // Newest first, `first` at a time after the cursor (the order's id); pageInfo says where the next page starts.
      const all = (await ordersOf(shop)).reverse();
      const size = typeof vars.first === 'number' ? vars.first : first;
      const after = typeof vars.after === 'string' ? Buffer.from(vars.after, 'base64').toString('utf8') : null;
      const start = after ? all.findIndex((o) => String(o.id) === after) + 1 : 0;
      const nodes = all.slice(start, start + size);
      const last = nodes.at(-1);
      const endCursor = last ? Buffer.from(String(last.id)).toString('base64') : null;
      const pageInfo = { hasNextPage: start + size < all.length, endCursor };
      return { data: { orders: { nodes: nodes.map(gqlOrder), pageInfo } } };
    }
    if (field === 'order') {
      if (!scopes.includes('read_orders')) return { denied: 'read_orders' };
      const found = await find(shop, numeric(String(vars.id ?? '')));
      return { data: { order: found ? gqlOrder(found) : null } };
    }
    if (field === 'fulfillmentCreate') {
      if (!scopes.includes('write_merchant_managed_fulfillment_orders')) {
        return { denied: 'write_merchant_managed_fulfillment_orders' };
      }
      const input = (vars.fulfillment ?? {}) as {
        lineItemsByFulfillmentOrder?: { fulfillmentOrderId: string }[];
        trackingInfo?: { company?: string; number?: string; url?: string };
        notifyCustomer?: boolean;
      };
      const foId = input.lineItemsByFulfillmentOrder?.[0]?.fulfillmentOrderId;
      const order = (await ordersOf(shop)).find((o) => o.fulfillmentOrder.id === foId);
      const userError = (message: string) => ({
        data: { fulfillmentCreate: { fulfillment: null, userErrors: [{ field: ['fulfillment'], message }] } },
      });
      if (!order) return userError('Fulfillment order does not exist.');
      if (order.fulfillmentOrder.status !== 'OPEN') {
        return userError(`Fulfillment order ${foId} has an unfulfillable status= ${order.fulfillmentOrder.status}.`);
      }
      const fulfillment: FakeFulfillment = {
        id: `gid://shopify/Fulfillment/${newId()}`,
        fulfillmentOrderId: order.fulfillmentOrder.id,
        trackingInfo: {
          company: input.trackingInfo?.company ?? null,
          number: input.trackingInfo?.number ?? null,
          url: input.trackingInfo?.url ?? null,
        },
        notifyCustomer: input.notifyCustomer === true,
      };
      order.fulfillments.push(fulfillment);
      order.fulfillmentOrder.status = 'CLOSED';
      await save(shop, order);
      return {
        data: {
          fulfillmentCreate: {
            fulfillment: { id: fulfillment.id, status: 'SUCCESS', trackingInfo: [fulfillment.trackingInfo] },
            userErrors: [],
          },
        },
      };
    }
    return null;
  }

  return {
    graphql,
    deliveries,
    /** Where webhooks go (the app's receiver); without one they are only recorded. */
    setWebhookSink(fn: ((d: WebhookDelivery) => Promise<void>) | null) {
      sink = fn;
    },
    /** The next webhook is delivered twice with one event id (E4). */
    duplicateNextWebhook() {
      duplicateNext = true;
    },
    /** The next webhook (another topic) carries the previous one's event id, as one merchant action's topics do. */
    sameEventIdNext() {
      sameEventNext = true;
    },
    /** The shop's orders, oldest first. */
    orders: (shop: string) => ordersOf(shop),
    /** An order with a total only (no lines), as older tests make. */
    async addTotalOnly(
      shop: string,
      order: { total: string; currency?: string; createdAt?: Date },
    ): Promise<FakeShopOrder> {
      const count = (await ordersOf(shop)).length;
      const created: FakeShopOrder = {
        id: newId(),
        name: `#${1001 + count}`,
        createdAt: (order.createdAt ?? new Date(options.now())).toISOString(),
        currency: order.currency ?? 'USD',
        total: order.total,
        cancelledAt: null,
        customerId: newId(),
        shippingAddress: null,
        lineItems: [],
        fulfillmentOrder: { id: `gid://shopify/FulfillmentOrder/${newId()}`, status: 'OPEN' },
        fulfillments: [],
      };
      await save(shop, created);
      return created;
    },
    /**
     * A buyer pays for these variants (by SKU or variant id): the order is stored and `orders/paid` sent. Lines
     * naming no variant of the shop are kept as custom items (no variant id), as a shop's own items would be.
     */
    async placePaidOrder(
      shop: string,
      input: {
        lines: { sku?: string; variantId?: string; quantity: number; title?: string; price?: string }[];
        address: FakeAddress | null;
        currency?: string;
        customerId?: number;
      },
    ): Promise<FakeShopOrder> {
      const variants = await options.variants(shop);
      const lineItems: FakeLineItem[] = input.lines.map((line) => {
        const v = variants.find((x) =>
          line.variantId ? numeric(x.id) === numeric(line.variantId) : line.sku && x.sku === line.sku,
        );
        return {
          id: newId(),
          variantId: v ? numeric(v.id) : null,
          sku: v?.sku ?? line.sku ?? null,
          title: v ? `${v.productTitle} - ${v.title}` : (line.title ?? line.sku ?? 'Custom item'),
          quantity: line.quantity,
          price: Number(v?.price ?? line.price ?? '0').toFixed(2),
        };
      });
      const total = lineItems.reduce((n, l) => n + Number(l.price) * l.quantity, 0);
      const count = (await ordersOf(shop)).length;
      const order: FakeShopOrder = {
        id: newId(),
        name: `#${1001 + count}`,
        createdAt: new Date(options.now()).toISOString(),
        currency: input.currency ?? 'USD',
        total: total.toFixed(2),
        cancelledAt: null,
        customerId: input.customerId ?? newId(),
        shippingAddress: input.address,
        lineItems,
        fulfillmentOrder: { id: `gid://shopify/FulfillmentOrder/${newId()}`, status: 'OPEN' },
        fulfillments: [],
      };
      await save(shop, order);
      await send(shop, 'orders/paid', restOrder(shop, order));
      return order;
    },
    /** The merchant cancels the order: `orders/cancelled`. */
    async cancelOrder(shop: string, orderId: number) {
      const order = await find(shop, orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      order.cancelledAt = new Date(options.now()).toISOString();
      order.fulfillmentOrder.status = 'CANCELLED';
      await save(shop, order);
      await send(shop, 'orders/cancelled', restOrder(shop, order));
    },
    /** A compliance webhook (customers/redact, shop/redact) as Shopify sends it (A4). */
    async sendCompliance(shop: string, topic: 'customers/redact' | 'shop/redact', customerId?: number) {
      const orders = (await ordersOf(shop)).filter((o) => o.customerId === customerId);
      const payload =
        topic === 'shop/redact'
          ? { shop_id: 954889, shop_domain: shop }
          : {
              shop_id: 954889,
              shop_domain: shop,
              customer: { id: customerId, email: null, phone: null },
              orders_to_redact: orders.map((o) => o.id),
            };
      await send(shop, topic, payload);
    },
  };
}

export type FakeShopifyOrders = ReturnType<typeof createFakeOrders>;
