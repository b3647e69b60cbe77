import { and, eq } from 'drizzle-orm';
import { webhookEvents } from '../../db/schema';
import { fromWooOrder, PAID } from '../../integrations/woocommerce/mapping';
import { storeConnection } from '../stores/store-connections.repository';
import type { WooOrderEvent } from '../woocommerce/woocommerce.service';
import { forgetOldWebhookEvents } from './fulfilment';
import { cancelStoreOrder, receiveStoreOrder } from './order-intake';
import type { OrdersDeps } from './orders.deps';

export { fromWooOrder };

/**
 * WooCommerce orders into the same pipeline as Shopify's: a verified `order.created` / `order.updated` delivery
 * (checked by the receiver in modules/woocommerce) of a paid order is stored once (unique per store and order),
 * its lines matched to our variants by SKU, the shipping address encrypted; one with lines of ours goes to the
 * printer as an `order-submit` job (a stable job id, and the printer asked for `@external_id` first), so a
 * repeated delivery never makes a second printer order. A cancelled or refunded order cancels what has not gone
 * into production. An unpaid order ('pending', 'on-hold': awaiting payment) waits for the update that says paid.
 */

export async function handleWooOrder(deps: OrdersDeps, event: WooOrderEvent): Promise<void> {
  const key = event.deliveryId ? `${event.integrationId}:${event.deliveryId}` : null;
  if (key) {
    const [seen] = await deps.db
      .select({ eventId: webhookEvents.eventId })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.source, 'woocommerce'), eq(webhookEvents.eventId, key)));
    // The same delivery again (WooCommerce retries one it thinks failed): already taken.
    if (seen) return;
  }
  const incoming = fromWooOrder(event.order, deps.now());
  const store = await storeConnection(deps.db, event.workspaceId, event.integrationId);
  if (!incoming || !store) return;
  if (PAID.includes(incoming.status) && store.status === 'connected') {
    await receiveStoreOrder(deps, store, incoming);
  } else if (incoming.cancelled) {
    await cancelStoreOrder(deps, store.id, incoming.remoteOrderId, 'Cancelled in the store');
  }
  // Recorded once taken: a delivery that failed half-way is taken again when the store retries it.
  if (key) {
    await deps.db
      .insert(webhookEvents)
      .values({ source: 'woocommerce', eventId: key, topic: event.topic })
      .onConflictDoNothing();
    await forgetOldWebhookEvents(deps);
  }
}

/** Adds the orders module's handler to the WooCommerce receiver (modules/woocommerce). */
export function registerWooOrders(deps: OrdersDeps) {
  deps.woocommerce.onOrderCreated((event) => handleWooOrder(deps, event));
}
