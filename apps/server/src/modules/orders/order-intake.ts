import type { IncomingOrder } from '../stores/incoming-order';
import type { IntegrationRow } from '../stores/store-connections.repository';
import type { BuyerErasure, StoreOrderIntake, StoreOrders } from '../stores/store-platform';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import { eraseBuyerData, insertOrderOnce, orderOfStore, variantsForLines } from './orders.repository';

/**
 * Store orders in, whichever store and way they came: each adapter of the StorePlatform port maps what its store
 * sends (a webhook payload, a read, the seller's Sync) to an IncomingOrder and hands it here (`StoreOrderIntake`).
 * Each line is matched to our variant by the store's variant id (recorded at push), else by SKU; a line that is
 * neither is kept as 'not from Podforge'. The shipping address is encrypted at rest. No platform is named here.
 */

export type { IncomingOrder, ShippingAddress } from '../stores/incoming-order';

export type IntakeResult = { orderId: string; created: boolean; ours: boolean; status: string };

/**
 * Stores a store order once (unique per store and remote order): a second delivery or a Sync of the same order
 * changes nothing. Answers the order and whether it has lines of ours to send to the printer.
 */
export async function storeOrderOnce(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const matched = await variantsForLines(deps.db, store, incoming.lines);
  const ours = matched.some(Boolean);
  const status = !ours ? 'external' : incoming.cancelled ? 'cancelled' : 'received';
  const row = await insertOrderOnce(
    deps.db,
    {
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
    },
    incoming.lines.map((l, i) => ({
      workspaceId: store.workspaceId,
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
  if (!row.created) return { orderId: row.id, created: false, ours: row.status !== 'external', status: row.status };
  return { orderId: row.id, created: true, ours, status };
}

/**
 * A store order in: stored once, and sent to the printer when it is new or its first submission never got queued
 * (a crash); the job id makes that once.
 */
export async function receiveStoreOrder(
  deps: OrdersDeps,
  store: IntegrationRow,
  incoming: IncomingOrder,
): Promise<IntakeResult> {
  const result = await storeOrderOnce(deps, store, incoming);
  if (result.status === 'received') await enqueue.submit(deps, result.orderId);
  return result;
}

/** A store's cancellation of an order we hold: what has not gone into production is cancelled. */
export async function cancelStoreOrder(deps: OrdersDeps, storeId: string, remoteOrderId: string, why: string) {
  const order = await orderOfStore(deps.db, storeId, remoteOrderId);
  if (order) await enqueue.cancel(deps, order.id, why);
}

/** What a batch of a store's orders does (the one rule for every store; `StoreOrders.via` says which). */
export async function takeStoreOrders(deps: OrdersDeps, batch: StoreOrders): Promise<{ created: number }> {
  const { store } = batch;
  let created = 0;
  for (const incoming of batch.orders) {
    if (batch.via === 'delivered' && incoming.cancelled) {
      await cancelStoreOrder(deps, store.id, incoming.remoteOrderId, 'Cancelled in the store');
      continue;
    }
    if (batch.via === 'delivered' && store.status !== 'connected') continue;
    if ((await receiveStoreOrder(deps, store, incoming)).created) created += 1;
  }
  return { created };
}

/** The orders module as the StorePlatform port's intake: what every store adapter hands its orders to. */
export function orderIntake(deps: OrdersDeps): StoreOrderIntake {
  return {
    take: (batch) => takeStoreOrders(deps, batch),
    erase: (stores: IntegrationRow[], what: BuyerErasure) =>
      eraseBuyerData(
        deps.db,
        stores.map((s) => s.id),
        what,
        deps.now(),
      ),
  };
}

/** Every store adapter hands its orders to this module's intake (the app calls it once, when it is built). */
export function registerOrderIntake(deps: OrdersDeps) {
  deps.stores.onOrders(orderIntake(deps));
}
