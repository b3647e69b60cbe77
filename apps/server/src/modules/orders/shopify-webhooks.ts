import { and, eq, inArray, or } from 'drizzle-orm';
import { orders } from '../../db/schema';
import type { ShopifyWebhookRegistry } from '../shopify/shopify-webhooks';
import { cancelStoreOrder, fromWebhookPayload, receiveStoreOrder, storesForShop } from './order-intake';
import type { OrdersDeps } from './orders.deps';

/**
 * What Shopify webhooks do to orders. The receiver (`POST /api/webhooks/shopify`) checks the signature, drops a
 * delivery whose event id it has seen, and hands the topics registered here to the `shopify-webhook` job.
 */

export type ShopifyWebhookJob = { topic: string; shop: string; eventId: string; payload: unknown };
type OrderWebhookHandler = (deps: OrdersDeps, event: ShopifyWebhookJob) => Promise<void>;

const ids = (values: unknown): string[] =>
  Array.isArray(values) ? values.map((v) => String(v).split('/').pop() ?? String(v)) : [];

export const orderWebhookHandlers: Record<string, OrderWebhookHandler> = {
  'orders/paid': async (deps, { shop, payload }) => {
    const incoming = fromWebhookPayload(payload);
    if (!incoming) return;
    for (const store of await storesForShop(deps, shop)) {
      if (store.status !== 'connected') continue;
      await receiveStoreOrder(deps, store, incoming);
    }
  },
  'orders/cancelled': async (deps, { shop, payload }) => {
    const incoming = fromWebhookPayload(payload);
    if (!incoming) return;
    for (const store of await storesForShop(deps, shop))
      await cancelStoreOrder(deps, store.id, incoming.remoteOrderId, 'Cancelled in the store');
  },
  'customers/redact': async (deps, { shop, payload }) => {
    const p = (payload ?? {}) as { customer?: { id?: unknown }; orders_to_redact?: unknown };
    const customerId = p.customer?.id !== undefined ? String(p.customer.id) : null;
    const orderIds = ids(p.orders_to_redact);
    const stores = await storesForShop(deps, shop);
    if (stores.length === 0 || (!customerId && orderIds.length === 0)) return;
    await deps.db
      .update(orders)
      .set({ shippingAddressEnc: null, remoteCustomerId: null, updatedAt: deps.now() })
      .where(
        and(
          inArray(
            orders.integrationId,
            stores.map((s) => s.id),
          ),
          or(
            customerId ? eq(orders.remoteCustomerId, customerId) : undefined,
            orderIds.length ? inArray(orders.remoteOrderId, orderIds) : undefined,
          ),
        ),
      );
  },
  'shop/redact': async (deps, { shop }) => {
    const stores = await storesForShop(deps, shop);
    if (stores.length === 0) return;
    await deps.db
      .update(orders)
      .set({ shippingAddressEnc: null, remoteCustomerId: null, updatedAt: deps.now() })
      .where(
        inArray(
          orders.integrationId,
          stores.map((s) => s.id),
        ),
      );
  },
};

/** Adds the orders module's topics to the receiver's registry (modules/shopify/shopify-webhooks.ts). */
export function registerOrderWebhooks(registry: ShopifyWebhookRegistry, deps: OrdersDeps) {
  for (const [topic, handler] of Object.entries(orderWebhookHandlers)) {
    registry.on(topic, (event) =>
      handler(deps, { topic: event.topic, shop: event.shop, eventId: event.eventId, payload: event.payload }),
    );
  }
}
