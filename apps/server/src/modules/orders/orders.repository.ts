import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fulfillmentWebhooks, orderLines, orders, products, productVariants, publications } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';
import type { BuyerErasure } from '../stores/store-platform';

/**
 * The order aggregate's SQL: the order, its lines, the printer's webhook configuration of the workspace. Requests
 * find an order in their workspace (another workspace's: 404); jobs load one by id.
 */

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;
export type NewOrder = Omit<typeof orders.$inferInsert, 'id'>;
export type NewOrderLine = Omit<typeof orderLines.$inferInsert, 'id' | 'orderId'>;
type OrderStatus = OrderRow['status'];

/** An order of the workspace, or 404. */
export function findOrder(db: Db, workspaceId: string, id: string): Promise<OrderRow> {
  return findInWorkspace('Order', id, async () => {
    const [row] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.workspaceId, workspaceId)));
    return row;
  });
}

/** An order by id (a job's: its workspace is the row's). */
export async function orderById(db: Db, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

/** The order a store's remote order became here, if any. */
export async function orderOfStore(
  db: Db,
  integrationId: string,
  remoteOrderId: string,
): Promise<{ id: string; status: string } | null> {
  const [row] = await db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(and(eq(orders.integrationId, integrationId), eq(orders.remoteOrderId, remoteOrderId)));
  return row ?? null;
}

/** A printer's reference to one of the workspace's orders: the printer's id, ours, or the store's order number. */
export async function orderOfPrinterRef(
  db: Db,
  workspaceId: string,
  ref: { printerOrderId: string } | { orderId: string } | { remoteOrderId: string },
): Promise<OrderRow | null> {
  const by =
    'printerOrderId' in ref
      ? eq(orders.printerOrderId, ref.printerOrderId)
      : 'orderId' in ref
        ? eq(orders.id, ref.orderId)
        : eq(orders.remoteOrderId, ref.remoteOrderId);
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.workspaceId, workspaceId), by));
  return row ?? null;
}

/**
 * Orders the printer holds that may still move (for the printer poll), least recently changed first: those sent or
 * in production or on hold, and shipped ones changed since `shippedSince` (their delivery is still to come).
 */
export function ordersAtPrinter(
  db: Db,
  q: { statuses: OrderStatus[]; shippedSince: Date; limit: number },
): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        isNotNull(orders.printerOrderId),
        inArray(orders.status, q.statuses),
        or(inArray(orders.status, ['sent', 'in_production', 'on_hold']), gt(orders.updatedAt, q.shippedSince)),
      ),
    )
    .orderBy(asc(orders.updatedAt))
    .limit(q.limit);
}

/** One page of the workspace's orders (newest first) and how many the filter has. */
export async function orderPage(
  db: Db,
  workspaceId: string,
  query: { status?: OrderStatus | undefined; page: number; pageSize: number },
): Promise<{ rows: OrderRow[]; total: number }> {
  const where = and(eq(orders.workspaceId, workspaceId), query.status ? eq(orders.status, query.status) : undefined);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.orderedAt), desc(orders.createdAt), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}

/** The lines of these orders, in their order. */
/** The printer networks (products' `provider`) of an order's Podforge lines. */
export async function printerNetworksOfOrder(db: Db, order: Pick<OrderRow, 'id' | 'workspaceId'>): Promise<string[]> {
  const rows = await db
    .selectDistinct({ provider: products.provider })
    .from(orderLines)
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.workspaceId, order.workspaceId)));
  return rows.map((r) => r.provider);
}

export function linesOf(db: Db, orderIds: string[]): Promise<OrderLineRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(orderLines.position);
}

/** One order's lines (scoped by its workspace). */
export function linesOfOrder(db: Db, order: Pick<OrderRow, 'id' | 'workspaceId'>): Promise<OrderLineRow[]> {
  return db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.workspaceId, order.workspaceId)))
    .orderBy(orderLines.position);
}

/** The variants and products order lines name (what the Orders screen and the printer's order are made of). */
export async function lineSources(
  db: Db,
  workspaceId: string | null,
  variantIds: string[],
  productIds: string[],
): Promise<{
  variants: (typeof productVariants.$inferSelect)[];
  products: (typeof products.$inferSelect)[];
}> {
  const [variantRows, productRows] = await Promise.all([
    variantIds.length
      ? db.select().from(productVariants).where(inArray(productVariants.id, variantIds))
      : Promise.resolve([]),
    productIds.length
      ? db
          .select()
          .from(products)
          .where(and(inArray(products.id, productIds), workspaceId ? eq(products.workspaceId, workspaceId) : undefined))
      : Promise.resolve([]),
  ]);
  return { variants: variantRows, products: productRows };
}

/** Our variants that a store's lines may be: by the store's variant ids recorded at push, else by SKU. */
export async function variantsForLines(
  db: Db,
  store: { id: string; workspaceId: string },
  lines: { remoteVariantId: string | null; sku: string | null }[],
): Promise<({ id: string; productId: string; sku: string | null } | null)[]> {
  const pubs = await db
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
      ? await db
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

/**
 * A store order stored once (unique per store and remote order), with its lines, in one transaction: answers the
 * new row, or the one an earlier delivery made (`created: false`).
 */
export function insertOrderOnce(
  db: Db,
  order: NewOrder,
  lines: NewOrderLine[],
): Promise<{ id: string; status: string; created: boolean }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values(order)
      .onConflictDoNothing({ target: [orders.integrationId, orders.remoteOrderId] })
      .returning({ id: orders.id, status: orders.status });
    if (!row) {
      const [existing] = await tx
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .where(and(eq(orders.integrationId, order.integrationId), eq(orders.remoteOrderId, order.remoteOrderId)));
      if (!existing) throw new Error('order vanished');
      // A store that withheld the buyer (an app not yet approved for protected customer data) gives them on a
      // later read: the order takes them then, so it can still be printed. An address we hold is never replaced.
      if (order.shippingAddressEnc) {
        await tx
          .update(orders)
          .set({ shippingAddressEnc: order.shippingAddressEnc, remoteCustomerId: order.remoteCustomerId })
          .where(and(eq(orders.id, existing.id), isNull(orders.shippingAddressEnc)));
      }
      return { ...existing, created: false };
    }
    if (lines.length) await tx.insert(orderLines).values(lines.map((l) => ({ ...l, orderId: row.id })));
    return { ...row, created: true };
  });
}

/**
 * Changes an order; with `from`, only while it still has that status (or one of them): answers whether it changed,
 * so two workers moving one order never both win.
 */
export async function updateOrder(
  db: Db,
  orderId: string,
  set: Partial<Omit<OrderRow, 'id' | 'workspaceId'>>,
  from?: OrderStatus | OrderStatus[],
): Promise<boolean> {
  const guard: SQL | undefined =
    from === undefined ? undefined : Array.isArray(from) ? inArray(orders.status, from) : eq(orders.status, from);
  const changed = await db
    .update(orders)
    .set(set)
    .where(and(eq(orders.id, orderId), guard))
    .returning({ id: orders.id });
  return changed.length > 0;
}

/**
 * One printer shipment sent to the store, kept beside the others (merged in the row, so two jobs recording two
 * shipments at once both stay); `store_fulfillment_id` lists every store id made so far.
 */
export async function recordStoreShipment(db: Db, orderId: string, shipmentId: string, storeId: string, at: Date) {
  await db
    .update(orders)
    .set({
      storeShipments: sql`${orders.storeShipments} || jsonb_build_object(${shipmentId}::text, ${storeId}::text)`,
      storeFulfillmentId: sql`nullif(concat_ws(',', nullif(${orders.storeFulfillmentId}, ''), nullif(${storeId}::text, '')), '')`,
      updatedAt: at,
    })
    .where(eq(orders.id, orderId));
}

export type KeptShipment = OrderRow['printerShipments'][number];

/**
 * The printer's parcels as just read, kept for the Orders screen; a read that knows fewer parcels than the one kept
 * (an older read finishing late) leaves the kept list alone.
 */
export async function recordPrinterShipments(db: Db, orderId: string, list: KeptShipment[]) {
  const next = JSON.stringify(list);
  await db
    .update(orders)
    .set({
      printerShipments: sql`case when jsonb_array_length(${next}::jsonb) >= jsonb_array_length(${orders.printerShipments}) then ${next}::jsonb else ${orders.printerShipments} end`,
    })
    .where(eq(orders.id, orderId));
}

/** Buyer data of these stores' orders erased (a store's privacy request). */
/** Keeps the printer the routing rule chose (and why) on an order that has none yet; a second choice loses. */
export async function pinPrinter(
  db: Db,
  orderId: string,
  chosen: { provider: string; reason: string; at: Date },
): Promise<void> {
  await db
    .update(orders)
    .set({ fulfillmentProvider: chosen.provider, printerReason: chosen.reason, updatedAt: chosen.at })
    .where(and(eq(orders.id, orderId), isNull(orders.fulfillmentProvider)));
}

export async function eraseBuyerData(db: Db, storeIds: string[], what: BuyerErasure, now: Date): Promise<void> {
  if (storeIds.length === 0) return;
  const which =
    what === 'all'
      ? undefined
      : or(
          what.customerId ? eq(orders.remoteCustomerId, what.customerId) : undefined,
          what.remoteOrderIds.length ? inArray(orders.remoteOrderId, what.remoteOrderIds) : undefined,
        );
  if (what !== 'all' && !which) return;
  await db
    .update(orders)
    .set({ shippingAddressEnc: null, remoteCustomerId: null, updatedAt: now })
    .where(and(inArray(orders.integrationId, storeIds), which));
}

export type PrinterWebhookRow = typeof fulfillmentWebhooks.$inferSelect;

/** The printer webhook configuration of a workspace and printer, if one was made. */
export async function printerWebhookOf(db: Db, workspaceId: string, provider: string) {
  const [row] = await db
    .select()
    .from(fulfillmentWebhooks)
    .where(and(eq(fulfillmentWebhooks.workspaceId, workspaceId), eq(fulfillmentWebhooks.provider, provider)));
  return row ?? null;
}

/** A printer webhook configuration by its id (the receiver's URL names it). */
export async function printerWebhookById(db: Db, id: string): Promise<PrinterWebhookRow | null> {
  const [row] = await db.select().from(fulfillmentWebhooks).where(eq(fulfillmentWebhooks.id, id));
  return row ?? null;
}

/** Records a new configuration; false when another instance made one for this workspace and printer meanwhile. */
export async function insertPrinterWebhook(
  db: Db,
  row: { id: string; workspaceId: string; provider: string; secretEnc: string },
): Promise<boolean> {
  const [inserted] = await db
    .insert(fulfillmentWebhooks)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: fulfillmentWebhooks.id });
  return Boolean(inserted);
}

export async function setPrinterWebhookSecret(db: Db, id: string, secretEnc: string): Promise<void> {
  await db.update(fulfillmentWebhooks).set({ secretEnc }).where(eq(fulfillmentWebhooks.id, id));
}

/** The store's line ids of one of its orders' lines that are our products (those the intake matched a variant to). */
export async function ourRemoteLineIds(
  db: Db,
  store: { id: string; workspaceId: string },
  remoteOrderId: string,
): Promise<Set<string>> {
  const rows = await db
    .select({ remoteLineId: orderLines.remoteLineId })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(
      and(
        eq(orders.workspaceId, store.workspaceId),
        eq(orders.integrationId, store.id),
        eq(orders.remoteOrderId, remoteOrderId),
        isNotNull(orderLines.variantId),
      ),
    );
  return new Set(rows.map((r) => r.remoteLineId));
}
