import { randomUUID } from 'node:crypto';
import { DEFAULT_SHOPIFY_API_VERSION } from './api-versions';
import { accessDenied, connection, type FakeRoot } from './fake-graphql';
import type { FakeProduct } from './fake-state';
import { webhookHmac } from './hmac';

/**
 * The fake Shopify's webhooks (apis.md A4, E4) and what a merchant does in the Shopify admin that the app hears of:
 * - `webhookSubscriptionCreate(topic, webhookSubscription: {uri, format})` records a per-shop subscription;
 *   the uri must be https (userError otherwise), the topic known, the same topic and address only once, and
 *   the token must hold the topic's scope (products: read_products or write_products; orders: read_orders), and
 *   order topics need the app's protected customer data approval (a userError on `webhookSubscription` without).
 *   `callbackUrl`, removed from WebhookSubscriptionInput by 2026-04, is refused by the schema (fake-graphql.ts).
 * - Deliveries POST the raw JSON body signed with the app secret (base64 HMAC-SHA256) and every E4 header; a
 *   switch delivers the next event twice with one X-Shopify-Event-Id (and two webhook ids), as Shopify may.
 * Deliveries go through an injectable transport, so a test maps the public https callback to the app under test.
 */

export type WebhookTransport = (
  url: string,
  request: { headers: Record<string, string>; body: string },
) => Promise<{ status: number }>;

export type FakeSubscription = { id: string; shop: string; topic: string; uri: string; format: string };
export type Delivery = { url: string; topic: string; eventId: string; webhookId: string; status: number };

/** Topics a shop subscription may name (GraphQL enum) and the scope each needs (null: none). */
const TOPIC_SCOPES: Record<string, string[] | null> = {
  APP_UNINSTALLED: null,
  SHOP_UPDATE: null,
  PRODUCTS_CREATE: ['read_products', 'write_products'],
  PRODUCTS_UPDATE: ['read_products', 'write_products'],
  PRODUCTS_DELETE: ['read_products', 'write_products'],
  ORDERS_CREATE: ['read_orders', 'write_orders'],
  ORDERS_PAID: ['read_orders', 'write_orders'],
  ORDERS_CANCELLED: ['read_orders', 'write_orders'],
  ORDERS_UPDATED: ['read_orders', 'write_orders'],
};

/** `PRODUCTS_DELETE` -> `products/delete` (the header form). */
export const topicHeader = (enumTopic: string) => enumTopic.toLowerCase().replace('_', '/');

/** Order topics carry protected customer data: an app Shopify has not approved for it cannot subscribe to them. */
const PROTECTED_TOPICS = new Set(['ORDERS_CREATE', 'ORDERS_PAID', 'ORDERS_CANCELLED', 'ORDERS_UPDATED']);

export type FakeWebhooks = {
  subscriptions(shop: string): FakeSubscription[];
  /** GraphQL root fields this part answers (resolvers, see fake-graphql.ts). */
  roots: Record<string, FakeRoot>;
  /** The next event is delivered twice, with one event id. */
  duplicateNext(): void;
  /** Sends an event to every subscription of the shop for the topic (header form, e.g. 'products/delete'). */
  emit(shop: string, topic: string, payload: unknown): Promise<Delivery[]>;
  /** Sends an event to one address (app-wide topics from shopify.app.toml: compliance topics, app/uninstalled). */
  sendTo(url: string, shop: string, topic: string, payload: unknown, options?: { tamper?: boolean }): Promise<Delivery>;
  deliveries: Delivery[];
  /** The merchant deletes a product in the Shopify admin: gone, and products/delete is sent. */
  deleteInAdmin(shop: string, productId: string): Promise<Delivery[]>;
  /** The merchant edits a product in the admin (title, every variant's price, status): products/update is sent. */
  editInAdmin(
    shop: string,
    productId: string,
    change: { title?: string; price?: string; status?: 'ACTIVE' | 'ARCHIVED' | 'DRAFT' },
  ): Promise<Delivery[]>;
  /** Forgets a shop's subscriptions (uninstall). */
  dropShop(shop: string): void;
};

const numeric = (gid: string) => Number(gid.split('/').pop());

/** The REST product resource as webhooks carry it (the fields Podforge reads). */
export const restProduct = (p: FakeProduct) => ({
  id: numeric(p.id),
  admin_graphql_api_id: p.id,
  title: p.title,
  handle: p.handle,
  status: p.status.toLowerCase(),
  updated_at: p.updatedAt,
  variants: p.variants.map((v) => ({
    id: numeric(v.id),
    admin_graphql_api_id: v.id,
    title: v.title,
    price: v.price,
    sku: v.sku,
  })),
});

export function createFakeWebhooks(options: {
  /** The secret a shop's webhooks are signed with. */
  webhookSecret: (shop: string) => Promise<string>;
  apiVersion?: string;
  now: () => number;
  transport?: WebhookTransport;
  /** The shops' products, where the fake keeps them (memory or the sandbox's database). */
  products: {
    get(shop: string, id: string): Promise<FakeProduct | null>;
    save(shop: string, product: FakeProduct): Promise<void>;
    remove(shop: string, id: string): Promise<boolean>;
  };
}): FakeWebhooks {
  const { webhookSecret, now, products: shopProducts } = options;
  const subs: FakeSubscription[] = [];
  const deliveries: Delivery[] = [];
  let duplicate = false;
  let nextId = 1;
  const transport: WebhookTransport =
    options.transport ??
    (async (url, { headers, body }) => {
      const res = await fetch(url, { method: 'POST', headers, body });
      await res.body?.cancel();
      return { status: res.status };
    });

  const post = async (
    url: string,
    shop: string,
    topic: string,
    body: string,
    eventId: string,
    tamper = false,
  ): Promise<Delivery> => {
    const webhookId = randomUUID();
    let hmac = webhookHmac(body, await webhookSecret(shop));
    if (tamper) hmac = `${hmac.slice(0, 4)}${hmac[4] === 'A' ? 'B' : 'A'}${hmac.slice(5)}`;
    const headers = {
      'Content-Type': 'application/json',
      'X-Shopify-Topic': topic,
      'X-Shopify-Hmac-Sha256': hmac,
      'X-Shopify-Shop-Domain': shop,
      'X-Shopify-API-Version': options.apiVersion ?? DEFAULT_SHOPIFY_API_VERSION,
      'X-Shopify-Webhook-Id': webhookId,
      'X-Shopify-Event-Id': eventId,
      'X-Shopify-Triggered-At': new Date(now()).toISOString(),
    };
    let status = 0;
    try {
      status = (await transport(url, { headers, body })).status;
    } catch {
      status = 0; // unreachable: Shopify would retry later
    }
    const delivery = { url, topic, eventId, webhookId, status };
    deliveries.push(delivery);
    return delivery;
  };

  /** One event: one event id, delivered once (twice with the duplicate switch). */
  const deliverEvent = async (url: string, shop: string, topic: string, payload: unknown, tamper = false) => {
    const body = JSON.stringify(payload);
    const eventId = randomUUID();
    const times = duplicate ? 2 : 1;
    duplicate = false;
    const out: Delivery[] = [];
    for (let i = 0; i < times; i++) out.push(await post(url, shop, topic, body, eventId, tamper));
    return out;
  };

  const webhooks: FakeWebhooks = {
    deliveries,
    subscriptions: (shop) => subs.filter((s) => s.shop === shop),
    duplicateNext() {
      duplicate = true;
    },
    async emit(shop, topic, payload) {
      const targets = subs.filter((s) => s.shop === shop && topicHeader(s.topic) === topic);
      const out: Delivery[] = [];
      for (const s of targets) out.push(...(await deliverEvent(s.uri, shop, topic, payload)));
      return out;
    },
    async sendTo(url, shop, topic, payload, { tamper = false } = {}) {
      const [first] = await deliverEvent(url, shop, topic, payload, tamper);
      return first as Delivery;
    },
    async deleteInAdmin(shop, productId) {
      if (!(await shopProducts.remove(shop, productId))) return [];
      return webhooks.emit(shop, 'products/delete', { id: numeric(productId) });
    },
    async editInAdmin(shop, productId, change) {
      const product = await shopProducts.get(shop, productId);
      if (!product) return [];
      if (change.title !== undefined) product.title = change.title;
      if (change.price !== undefined) for (const v of product.variants) v.price = Number(change.price).toFixed(2);
      if (change.status !== undefined) product.status = change.status;
      product.updatedAt = new Date(now()).toISOString();
      await shopProducts.save(shop, product);
      return webhooks.emit(shop, 'products/update', restProduct(product));
    },
    dropShop(shop) {
      for (let i = subs.length - 1; i >= 0; i--) if (subs[i]?.shop === shop) subs.splice(i, 1);
    },
    roots: {
      webhookSubscriptionCreate: (args, ctx) => {
        const topic = String(args.topic ?? '');
        // The input's shape (no callbackUrl, since 2026-04) is the schema's to refuse, before this runs.
        const input = (args.webhookSubscription ?? {}) as { uri?: string; format?: string };
        const fail = (field: string[], message: string) => ({
          webhookSubscription: null,
          userErrors: [{ field, message }],
        });
        if (!(topic in TOPIC_SCOPES)) return fail(['topic'], 'Webhook topic is invalid');
        const needs = TOPIC_SCOPES[topic];
        if (needs && !needs.some((s) => ctx.scopes.includes(s))) {
          throw accessDenied('webhookSubscriptionCreate', needs[0] as string);
        }
        if (PROTECTED_TOPICS.has(topic) && ctx.protectedData === 'none') {
          return fail(
            ['webhookSubscription'],
            'This app is not approved to subscribe to webhook topics containing protected customer data. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.',
          );
        }
        let url: URL | null = null;
        try {
          url = new URL(input.uri ?? '');
        } catch {
          url = null;
        }
        if (!url) return fail(['webhookSubscription', 'uri'], 'Address is invalid');
        if (url.protocol !== 'https:') {
          return fail(['webhookSubscription', 'uri'], `Address protocol ${url.protocol}// is not supported`);
        }
        if (/^(localhost|127\.|0\.0\.0\.0|\[::1\])/.test(url.hostname)) {
          return fail(['webhookSubscription', 'uri'], 'Address cannot be a local address');
        }
        const uri = url.toString();
        if (subs.some((s) => s.shop === ctx.shop && s.topic === topic && s.uri === uri)) {
          return fail(['webhookSubscription', 'uri'], 'Address for this topic has already been taken');
        }
        const sub = {
          id: `gid://shopify/WebhookSubscription/${nextId++}`,
          shop: ctx.shop,
          topic,
          uri,
          format: input.format ?? 'JSON',
        };
        subs.push(sub);
        return { webhookSubscription: { id: sub.id, topic, format: sub.format, uri }, userErrors: [] };
      },
      webhookSubscriptions: (args, ctx) =>
        connection(
          subs
            .filter((s) => s.shop === ctx.shop)
            .map((s) => ({ id: s.id, topic: s.topic, format: s.format, uri: s.uri })),
        )(args),
    },
  };
  return webhooks;
}
