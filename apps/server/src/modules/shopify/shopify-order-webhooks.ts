import { fromWebhookPayload } from '../../integrations/shopify/mapping';
import type { IntegrationRow } from '../stores/store-connections.repository';
import type { StoreOrderIntake } from '../stores/store-platform';
import type { ShopifyWebhookRegistry } from './shopify-webhooks';

/**
 * Shopify's order topics, as the adapter's side of the StorePlatform port: the receiver (`POST /api/webhooks/shopify`)
 * checked the signature and dropped a delivery whose event id it had seen; the `shopify-webhook` job runs these. A
 * payload is mapped to an IncomingOrder (integrations/shopify/mapping.ts) and handed to the order intake for every
 * workspace that connected the shop; the redact topics erase the buyers' data the intake holds.
 */

type Deps = { storesOfShop(shop: string): Promise<IntegrationRow[]>; intake(): StoreOrderIntake };

const ids = (values: unknown): string[] =>
  Array.isArray(values) ? values.map((v) => String(v).split('/').pop() ?? String(v)) : [];

export function registerOrderTopics(registry: ShopifyWebhookRegistry, deps: Deps) {
  // orders/paid: a paid order of each connected store that has the shop.
  registry.on('orders/paid', async ({ shop, payload }) => {
    const incoming = fromWebhookPayload(payload);
    if (!incoming) return;
    for (const store of await deps.storesOfShop(shop)) {
      await deps.intake().take({ store, orders: [incoming], via: 'delivered' });
    }
  });
  // orders/cancelled: the order held (whatever the store's status now) is cancelled where it has not gone into production.
  registry.on('orders/cancelled', async ({ shop, payload }) => {
    const incoming = fromWebhookPayload(payload);
    if (!incoming) return;
    for (const store of await deps.storesOfShop(shop)) {
      await deps.intake().take({ store, orders: [{ ...incoming, cancelled: true }], via: 'delivered' });
    }
  });
  registry.on('customers/redact', async ({ shop, payload }) => {
    const p = (payload ?? {}) as { customer?: { id?: unknown }; orders_to_redact?: unknown };
    const customerId = p.customer?.id !== undefined ? String(p.customer.id) : null;
    const remoteOrderIds = ids(p.orders_to_redact);
    if (!customerId && remoteOrderIds.length === 0) return;
    await deps.intake().erase(await deps.storesOfShop(shop), { customerId, remoteOrderIds });
  });
  registry.on('shop/redact', async ({ shop }) => {
    await deps.intake().erase(await deps.storesOfShop(shop), 'all');
  });
}
