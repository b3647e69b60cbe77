import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { integrations, webhookEvents } from '../../db/schema';
import type { WooOrderEvent } from '../woocommerce/woocommerce.service';
import { forgetOldWebhookEvents } from './fulfilment';
import { cancelStoreOrder, type IncomingOrder, receiveStoreOrder } from './order-intake';
import type { OrdersDeps } from './orders.deps';

/**
 * WooCommerce orders into the same pipeline as Shopify's: a verified `order.created` / `order.updated` delivery
 * (checked by the receiver in modules/woocommerce) of a paid order is stored once (unique per store and order),
 * its lines matched to our variants by SKU, the shipping address encrypted; one with lines of ours goes to the
 * printer as an `order-submit` job (a stable job id, and the printer asked for `@external_id` first), so a
 * repeated delivery never makes a second printer order. A cancelled or refunded order cancels what has not gone
 * into production. An unpaid order ('pending', 'on-hold': awaiting payment) waits for the update that says paid.
 */

/** Paid, per WooCommerce's order statuses [SRC woocommerce-rest-api-docs v3 orders: status options]. */
const PAID = ['processing', 'completed'];
const CANCELLED = ['cancelled', 'refunded'];

const ZWooAddress = z
  .object({
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    address_1: z.string().nullish(),
    address_2: z.string().nullish(),
    city: z.string().nullish(),
    state: z.string().nullish(),
    postcode: z.string().nullish(),
    country: z.string().nullish(),
    phone: z.string().nullish(),
  })
  .nullish();

/** The REST v3 order resource, which is what a WooCommerce webhook delivers for the order topics. */
const ZWooOrder = z.object({
  id: z.number().int(),
  number: z.union([z.string(), z.number()]).optional(),
  status: z.string().default('pending'),
  currency: z.string().default('USD'),
  total: z.union([z.string(), z.number()]),
  customer_id: z.number().int().nullish(),
  date_created_gmt: z.string().nullish(),
  shipping: ZWooAddress,
  billing: ZWooAddress,
  line_items: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string().default(''),
        variation_id: z.number().int().nullish(),
        sku: z.string().nullish(),
        quantity: z.number().int(),
        price: z.union([z.string(), z.number()]),
      }),
    )
    .default([]),
});

export function fromWooOrder(payload: unknown, now: Date): (IncomingOrder & { status: string }) | null {
  const parsed = ZWooOrder.safeParse(payload);
  if (!parsed.success) return null;
  const o = parsed.data;
  // The shipping address, else (an order with nothing to ship to elsewhere) the billing one.
  const a = o.shipping?.address_1 ? o.shipping : o.billing;
  const name = [a?.first_name, a?.last_name].filter(Boolean).join(' ');
  return {
    status: o.status,
    remoteOrderId: String(o.id),
    name: `#${o.number ?? o.id}`,
    currency: o.currency,
    total: Number(o.total).toFixed(2),
    // date_created_gmt has no zone designator: it is UTC.
    orderedAt: o.date_created_gmt ? new Date(`${o.date_created_gmt.replace(/Z$/, '')}Z`) : now,
    cancelled: CANCELLED.includes(o.status),
    customerId: o.customer_id ? String(o.customer_id) : null,
    address:
      a?.address_1 && a.city && a.country
        ? {
            name,
            address1: a.address_1,
            address2: a.address_2 || undefined,
            city: a.city,
            provinceCode: a.state || undefined,
            countryCode: a.country,
            zip: a.postcode ?? '',
            phone: a.phone || undefined,
          }
        : null,
    lines: o.line_items.map((l) => ({
      remoteLineId: String(l.id),
      remoteVariantId: l.variation_id ? String(l.variation_id) : null,
      sku: l.sku || null,
      title: l.name,
      quantity: l.quantity,
      price: Number(l.price).toFixed(2),
    })),
  };
}

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
  const [store] = await deps.db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, event.integrationId), eq(integrations.workspaceId, event.workspaceId)));
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
