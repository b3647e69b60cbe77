import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { DEFAULT_SHOPIFY_API_VERSION } from './api-versions';
import {
  accessDenied,
  connection,
  type FakeRoot,
  type FakeRootContext,
  firstOf,
  grants,
  type ProtectedDataAccess,
} from './fake-graphql';
import type { FakeShopifyStore } from './fake-state';
import { webhookHmac } from './hmac';

/**
 * Orders in the fake Shopify (apis.md E5): a paid order for given variants (by SKU or variant id) with line items,
 * a shipping address and a customer, announced with `orders/paid` the way Shopify delivers webhooks (A4, E4:
 * signed raw body, topic, shop, event id; a switch delivers one event twice). An order has one fulfillment order per
 * location its lines ship from (a line may name its location); `fulfillmentCreate` takes fulfillment orders of one
 * order and one location, all their remaining lines or the lines and quantities given, refuses more than remains,
 * records the carrier, tracking number and URL, and closes a fulfillment order once nothing of it remains (partly
 * fulfilled: IN_PROGRESS). Read through GraphQL `orders` (newest first) and `order(id)`; without the app's protected
 * customer data approval the customer (level 1) and shipping address (level 2) are refused field by field. Orders are kept in the fake's store (the app's database for the built-in sandbox),
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
  /** What it fulfilled: order line ids and quantities. */
  lines: { lineItemId: number; quantity: number }[];
  trackingInfo: { company: string | null; number: string | null; url: string | null };
  notifyCustomer: boolean;
};
export type FakeFulfillmentOrderStatus = 'OPEN' | 'IN_PROGRESS' | 'CLOSED' | 'CANCELLED';
export type FakeFulfillmentOrder = {
  id: string;
  status: FakeFulfillmentOrderStatus;
  /** The location it ships from (gid). */
  locationId: string;
  lineItems: { id: string; lineItemId: number; totalQuantity: number; remainingQuantity: number }[];
};

/** The shop's locations: its own, and a warehouse (a second location for multi-location orders). */
export const FAKE_LOCATIONS = [
  { id: 'gid://shopify/Location/1001', name: 'Shop location' },
  { id: 'gid://shopify/Location/1002', name: 'Warehouse' },
] as const;
const DEFAULT_LOCATION = FAKE_LOCATIONS[0].id;
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
  /** One per location the lines ship from. */
  fulfillmentOrders: FakeFulfillmentOrder[];
  fulfillments: FakeFulfillment[];
};

/** An order as stored before fulfillment orders per location (one for the whole order): read in today's shape. */
type StoredOrder = FakeShopOrder & { fulfillmentOrder?: { id: string; status: FakeFulfillmentOrderStatus } };
const upgrade = (o: StoredOrder): FakeShopOrder => {
  if (o.fulfillmentOrders || !o.fulfillmentOrder) return o;
  const { fulfillmentOrder: old, ...rest } = o;
  const open = old.status === 'OPEN' || old.status === 'IN_PROGRESS';
  return {
    ...rest,
    fulfillmentOrders: [
      {
        id: old.id,
        status: old.status,
        locationId: DEFAULT_LOCATION,
        lineItems: o.lineItems.map((l) => ({
          id: `gid://shopify/FulfillmentOrderLineItem/${l.id}`,
          lineItemId: l.id,
          totalQuantity: l.quantity,
          remainingQuantity: open ? l.quantity : 0,
        })),
      },
    ],
  };
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
  /** The app's protected customer data access now: without level 2 a webhook's order carries no address. */
  protectedData?: () => ProtectedDataAccess;
}) {
  const { store } = options;
  const deliveries: WebhookDelivery[] = [];
  let sink: ((d: WebhookDelivery) => Promise<void>) | null = null;
  let duplicateNext = false;
  let sameEventNext = false;
  let lastEventId: string | null = null;

  /** The shop's orders, oldest first (copies: a change is kept only by `save`). */
  const ordersOf = async (shop: string): Promise<FakeShopOrder[]> =>
    (await store.list<StoredOrder>(KIND, `${shop}|`))
      .map((o) => upgrade(structuredClone(o)))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
  const save = (shop: string, order: FakeShopOrder) => store.put(KIND, orderKey(shop, order.id), order);
  const find = async (shop: string, id: number) => {
    const found = await store.get<StoredOrder>(KIND, orderKey(shop, id));
    return found ? upgrade(structuredClone(found)) : null;
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
    // Level 2 of protected customer data covers names and addresses: redacted without it.
    shipping_address: (options.protectedData?.() ?? 'level2') === 'level2' ? o.shippingAddress : null,
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

  /** A protected customer data field refused (apis.md A2, A5): the field reads null, the error says why. */
  const notApproved = (what: string) =>
    new GraphQLError(
      `This app is not approved to ${what}. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.`,
      {
        extensions: {
          code: 'ACCESS_DENIED',
          documentation: 'https://shopify.dev/docs/apps/launch/protected-customer-data',
        },
      },
    );

  const lineGid = (id: number) => `gid://shopify/LineItem/${id}`;

  const fulfillmentNode = (f: FakeFulfillment) => ({
    id: f.id,
    status: 'SUCCESS',
    trackingInfo: firstOf([f.trackingInfo]),
    fulfillmentLineItems: connection(
      f.lines.map((l, i) => ({ id: `${f.id}-${i}`, quantity: l.quantity, lineItem: { id: lineGid(l.lineItemId) } })),
    ),
  });

  const fulfillmentOrderNode = (fo: FakeFulfillmentOrder) => ({
    id: fo.id,
    status: fo.status,
    assignedLocation: {
      location: { id: fo.locationId, name: FAKE_LOCATIONS.find((l) => l.id === fo.locationId)?.name ?? 'Location' },
    },
    supportedActions: ['OPEN', 'IN_PROGRESS'].includes(fo.status)
      ? [{ action: 'CREATE_FULFILLMENT' }, { action: 'HOLD' }, { action: 'MOVE' }]
      : [],
    lineItems: connection(
      fo.lineItems.map((l) => ({
        id: l.id,
        totalQuantity: l.totalQuantity,
        remainingQuantity: l.remainingQuantity,
        lineItem: { id: lineGid(l.lineItemId) },
      })),
    ),
  });

  const gqlOrder = (o: FakeShopOrder) => ({
    __typename: 'Order',
    id: `gid://shopify/Order/${o.id}`,
    legacyResourceId: String(o.id),
    name: o.name,
    createdAt: o.createdAt,
    cancelledAt: o.cancelledAt,
    displayFinancialStatus: 'PAID',
    currencyCode: o.currency,
    totalPriceSet: { shopMoney: { amount: o.total, currencyCode: o.currency } },
    // Level 1 of protected customer data: the customer; level 2: their name and address.
    customer: (_args: unknown, ctx: FakeRootContext) => {
      if (ctx.protectedData === 'none') throw notApproved('access the Customer object');
      return { id: `gid://shopify/Customer/${o.customerId}` };
    },
    shippingAddress: (_args: unknown, ctx: FakeRootContext) => {
      if (ctx.protectedData !== 'level2') throw notApproved('use the shippingAddress field');
      return o.shippingAddress
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
        : null;
    },
    lineItems: connection(
      o.lineItems.map((l) => ({
        id: lineGid(l.id),
        title: l.title,
        sku: l.sku,
        quantity: l.quantity,
        variant: l.variantId ? { id: `gid://shopify/ProductVariant/${l.variantId}` } : null,
        originalUnitPriceSet: { shopMoney: { amount: l.price, currencyCode: o.currency } },
      })),
    ),
    fulfillmentOrders: connection(o.fulfillmentOrders.map(fulfillmentOrderNode)),
    fulfillments: firstOf(o.fulfillments.map(fulfillmentNode)),
  });

  type FulfillmentInput = {
    lineItemsByFulfillmentOrder?: {
      fulfillmentOrderId: string;
      fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
    }[];
    trackingInfo?: { company?: string | null; number?: string | null; url?: string | null } | null;
    notifyCustomer?: boolean | null;
  };

  /** GraphQL root fields about orders (resolvers, see fake-graphql.ts). */
  const roots: Record<string, FakeRoot> = {
    orders: async (args, ctx) => {
      if (!grants(ctx.scopes, 'read_orders')) throw accessDenied('orders', 'read_orders');
      // Newest first (the client asks CREATED_AT reversed), paged by cursor.
      const all = await ordersOf(ctx.shop);
      if (args.reverse) all.reverse();
      return connection(all.map(gqlOrder))(args);
    },
    order: async (args, ctx) => {
      if (!grants(ctx.scopes, 'read_orders')) throw accessDenied('order', 'read_orders');
      const found = await find(ctx.shop, numeric(String(args.id ?? '')));
      return found ? gqlOrder(found) : null;
    },
    fulfillmentCreate: async (args, ctx) => {
      if (!ctx.scopes.includes('write_merchant_managed_fulfillment_orders')) {
        throw accessDenied('fulfillmentCreate', 'write_merchant_managed_fulfillment_orders');
      }
      const input = (args.fulfillment ?? {}) as FulfillmentInput;
      const userError = (message: string, field = ['fulfillment']) => ({
        fulfillment: null,
        userErrors: [{ field, message }],
      });
      const wanted = input.lineItemsByFulfillmentOrder ?? [];
      const all = await ordersOf(ctx.shop);
      const order = all.find((o) => o.fulfillmentOrders.some((fo) => fo.id === wanted[0]?.fulfillmentOrderId));
      if (!order || wanted.length === 0) return userError('Fulfillment order does not exist.');
      const fos: FakeFulfillmentOrder[] = [];
      for (const w of wanted) {
        const fo = order.fulfillmentOrders.find((f) => f.id === w.fulfillmentOrderId);
        if (!fo) return userError('All fulfillment orders must belong to the same order.');
        fos.push(fo);
      }
      if (new Set(fos.map((fo) => fo.locationId)).size > 1) {
        return userError('All fulfillment orders must be assigned to the same location.');
      }
      const closed = fos.find((fo) => !['OPEN', 'IN_PROGRESS'].includes(fo.status));
      if (closed) return userError(`Fulfillment order ${closed.id} has an unfulfillable status= ${closed.status}.`);
      // What each fulfillment order gives: the lines named (no more than remains), else all that remains.
      const take: { fo: FakeFulfillmentOrder; line: FakeFulfillmentOrder['lineItems'][number]; quantity: number }[] =
        [];
      for (const [i, w] of wanted.entries()) {
        const fo = fos[i] as FakeFulfillmentOrder;
        if (!w.fulfillmentOrderLineItems) {
          for (const line of fo.lineItems) {
            if (line.remainingQuantity > 0) take.push({ fo, line, quantity: line.remainingQuantity });
          }
          continue;
        }
        for (const asked of w.fulfillmentOrderLineItems) {
          const line = fo.lineItems.find((l) => l.id === asked.id);
          if (!line) return userError('Fulfillment order line item does not exist.');
          if (asked.quantity <= 0 || asked.quantity > line.remainingQuantity) {
            return userError('Invalid fulfillment order line item quantity requested.');
          }
          take.push({ fo, line, quantity: asked.quantity });
        }
      }
      if (take.length === 0) return userError('No fulfillment order line items remain to be fulfilled.');
      for (const t of take) t.line.remainingQuantity -= t.quantity;
      for (const fo of fos) {
        fo.status = fo.lineItems.every((l) => l.remainingQuantity === 0) ? 'CLOSED' : 'IN_PROGRESS';
      }
      const fulfillment: FakeFulfillment = {
        id: `gid://shopify/Fulfillment/${newId()}`,
        fulfillmentOrderId: (fos[0] as FakeFulfillmentOrder).id,
        lines: take.map((t) => ({ lineItemId: t.line.lineItemId, quantity: t.quantity })),
        trackingInfo: {
          company: input.trackingInfo?.company ?? null,
          number: input.trackingInfo?.number ?? null,
          url: input.trackingInfo?.url ?? null,
        },
        notifyCustomer: input.notifyCustomer === true,
      };
      order.fulfillments.push(fulfillment);
      await save(ctx.shop, order);
      return { fulfillment: fulfillmentNode(fulfillment), userErrors: [] };
    },
  };

  /** Fulfillment orders for these lines: one per location, each line wholly open. */
  const fulfillmentOrdersFor = (lines: FakeLineItem[], locations: (string | undefined)[]): FakeFulfillmentOrder[] => {
    const byLocation = new Map<string, FakeFulfillmentOrder>();
    lines.forEach((l, i) => {
      const locationId = locations[i] ?? DEFAULT_LOCATION;
      const fo = byLocation.get(locationId) ?? {
        id: `gid://shopify/FulfillmentOrder/${newId()}`,
        status: 'OPEN' as const,
        locationId,
        lineItems: [],
      };
      fo.lineItems.push({
        id: `gid://shopify/FulfillmentOrderLineItem/${newId()}`,
        lineItemId: l.id,
        totalQuantity: l.quantity,
        remainingQuantity: l.quantity,
      });
      byLocation.set(locationId, fo);
    });
    return byLocation.size
      ? [...byLocation.values()]
      : [
          {
            id: `gid://shopify/FulfillmentOrder/${newId()}`,
            status: 'OPEN',
            locationId: DEFAULT_LOCATION,
            lineItems: [],
          },
        ];
  };

  return {
    roots,
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
        fulfillmentOrders: fulfillmentOrdersFor([], []),
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
        lines: {
          sku?: string;
          variantId?: string;
          quantity: number;
          title?: string;
          price?: string;
          /** The location it ships from (one of FAKE_LOCATIONS' ids; default the shop's own). */
          location?: string;
        }[];
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
        fulfillmentOrders: fulfillmentOrdersFor(
          lineItems,
          input.lines.map((l) => l.location),
        ),
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
      for (const fo of order.fulfillmentOrders) if (fo.status !== 'CLOSED') fo.status = 'CANCELLED';
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
