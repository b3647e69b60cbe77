import { and, eq, inArray, or } from 'drizzle-orm';
import { integrations, orderLines, orders, productVariants, publications } from '../../db/schema';
import type { IncomingOrder } from '../stores/incoming-order';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';

/**
 * Store orders in: one shape for what a webhook (REST order resource) and Sync (GraphQL) carry, and the one
 * operation that stores it. Each line is matched to our variant by the store's variant id (recorded at push),
 * else by SKU; a line that is neither is kept as 'not from Podforge'. The shipping address is encrypted at rest.
 */

export { fromGqlOrder, fromWebhookPayload } from '../../integrations/shopify/mapping';
// Moved: the order shape is the StorePlatform port's (stores/incoming-order.ts); Shopify's payloads map to it in
// integrations/shopify/mapping.ts.
export type { IncomingOrder, ShippingAddress } from '../stores/incoming-order';

type IntegrationRow = typeof integrations.$inferSelect;

/** Our variants for these lines: by the store's variant id (publications), else by SKU. */
async function matchLines(deps: OrdersDeps, store: IntegrationRow, lines: IncomingOrder['lines']) {
  const pubs = await deps.db
    .select({ remoteVariants: publications.remoteVariants })
    .from(publications)
    .where(and(eq(publications.workspaceId, store.workspaceId), eq(publications.integrationId, store.id)));
  const byRemote = new Map<string, string>();
  for (const p of pubs) for (const [remote, ours] of Object.entries(p.remoteVariants ?? {})) byRemote.set(remote, ours);
  const skus = lines.map((l) => l.sku).filter((s): s is string => Boolean(s));
  const remoteIds = lines.map((l) => (l.remoteVariantId ? byRemote.get(l.remoteVariantId) : undefined));
  const ids = remoteIds.filter((s): s is string => Boolean(s));
  const variants =
    skus.length || ids.length
      ? await deps.db
          .select({ id: productVariants.id, productId: productVariants.productId, sku: productVariants.sku })
          .from(productVariants)
          .where(
            and(
              eq(productVariants.workspaceId, store.workspaceId),
              or(
                skus.length ? inArray(productVariants.sku, skus) : undefined,
                ids.length ? inArray(productVariants.id, ids) : undefined,
              ),
            ),
          )
      : [];
  return lines.map((l, i) => {
    const remote = remoteIds[i];
    return (
      (remote ? variants.find((v) => v.id === remote) : undefined) ??
      (l.sku ? variants.find((v) => v.sku === l.sku) : undefined) ??
      null
    );
  });
}

export type IntakeResult = { orderId: string; created: boolean; ours: boolean; status: string };

/**
 * Stores a store order once (unique per store and remote order): a second delivery or a Sync of the same order
 * changes nothing. Answers the order and whether it has lines of ours to send to the printer.
 */
export async function ingestShopifyOrder(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const matched = await matchLines(deps, store, incoming.lines);
  const ours = matched.some(Boolean);
  const status = !ours ? 'external' : incoming.cancelled ? 'cancelled' : 'received';
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        workspaceId: store.workspaceId,
        integrationId: store.id,
        remoteOrderId: incoming.remoteOrderId,
        name: incoming.name,
        currency: incoming.currency,
        revenue: incoming.total,
        status,
        shippingAddressEnc: incoming.address ? deps.cipher.encrypt(JSON.stringify(incoming.address)) : null,
        remoteCustomerId: incoming.customerId,
        orderedAt: incoming.orderedAt,
      })
      .onConflictDoNothing({ target: [orders.integrationId, orders.remoteOrderId] })
      .returning({ id: orders.id });
    if (!row) {
      const [existing] = await tx
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.integrationId, store.id), eq(orders.remoteOrderId, incoming.remoteOrderId)));
      if (!existing) throw new Error('order vanished');
      return { orderId: existing.id, created: false, ours: existing.status !== 'external', status: existing.status };
    }
    if (incoming.lines.length) {
      await tx.insert(orderLines).values(
        incoming.lines.map((l, i) => ({
          workspaceId: store.workspaceId,
          orderId: row.id,
          position: i,
          remoteLineId: l.remoteLineId,
          remoteVariantId: l.remoteVariantId,
          sku: l.sku,
          title: l.title,
          quantity: l.quantity,
          price: l.price,
          productId: matched[i]?.productId ?? null,
          variantId: matched[i]?.id ?? null,
        })),
      );
    }
    return { orderId: row.id, created: true, ours, status };
  });
}

/** The shops' integrations a webhook is for (every workspace that connected this shop in this mode). */
export async function storesForShop(deps: OrdersDeps, shop: string): Promise<IntegrationRow[]> {
  return deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.platform, 'shopify'),
        eq(integrations.externalId, shop),
        eq(integrations.sandbox, deps.shopify.sandboxMode),
      ),
    );
}

/**
 * A store order in, as every platform takes it: stored once, and sent to the printer when it is new or its first
 * submission never got queued (a crash); the job id makes that once.
 */
export async function receiveStoreOrder(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const result = await ingestShopifyOrder(deps, store, incoming);
  if (result.status === 'received') await enqueue.submit(deps, result.orderId);
  return result;
}

/** A store's cancellation of an order we hold: what has not gone into production is cancelled. */
export async function cancelStoreOrder(deps: OrdersDeps, storeId: string, remoteOrderId: string, why: string) {
  const [order] = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.integrationId, storeId), eq(orders.remoteOrderId, remoteOrderId)));
  if (order) await enqueue.cancel(deps, order.id, why);
}
