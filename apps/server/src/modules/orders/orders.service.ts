import {
  canApproveOrder,
  canCancelOrder,
  canRetryOrder,
  DEFAULT_TEST_ADDRESS,
  ORDER_STATUS_LABELS,
  type TOrder,
  type TOrderPage,
  type TOrderStatus,
  type TSandboxOrderInput,
} from '@podforge/contract';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { integrations, orderLines, orders, products, productVariants } from '../../db/schema';
import { isPaidOrCancelled } from '../../integrations/shopify/mapping';
import type { GqlOrder } from '../../integrations/shopify/orders-client';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { findIntegration } from '../integrations/integrations.repository';
import { mockupLinksOf } from '../products/products.repository';
import { productThumbnailUrl } from '../products/products.service';
import { fromGqlOrder, receiveStoreOrder } from './order-intake';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';

/** The Orders screen's operations: list, one order, approve, cancel, retry; every one scoped to the workspace. */

type OrderRow = typeof orders.$inferSelect;

async function toOrders(deps: OrdersDeps, rows: OrderRow[]): Promise<TOrder[]> {
  if (rows.length === 0) return [];
  const [lines, stores] = await Promise.all([
    deps.db
      .select()
      .from(orderLines)
      .where(
        inArray(
          orderLines.orderId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(orderLines.position),
    deps.db
      .select({ id: integrations.id, name: integrations.storeName, shop: integrations.externalId })
      .from(integrations)
      .where(inArray(integrations.id, [...new Set(rows.map((r) => r.integrationId))])),
  ]);
  const productIds = [...new Set(lines.map((l) => l.productId).filter((id): id is string => Boolean(id)))];
  const variantIds = lines.map((l) => l.variantId).filter((id): id is string => Boolean(id));
  const [links, variants, productRows] = await Promise.all([
    mockupLinksOf(deps.db, productIds),
    variantIds.length
      ? deps.db.select().from(productVariants).where(inArray(productVariants.id, variantIds))
      : Promise.resolve([]),
    productIds.length
      ? deps.db
          .select({ id: products.id, designId: products.designId })
          .from(products)
          .where(inArray(products.id, productIds))
      : Promise.resolve([]),
  ]);
  return rows.map((r) => {
    const revenue = Number(r.revenue);
    const cost = r.cost === null ? null : Number(r.cost);
    const store = stores.find((s) => s.id === r.integrationId);
    return {
      id: r.id,
      integrationId: r.integrationId,
      storeName: store?.name ?? store?.shop ?? 'Store',
      externalId: r.remoteOrderId,
      name: r.name,
      status: r.status as TOrderStatus,
      currency: r.currency,
      revenue: revenue.toFixed(2),
      cost: cost === null ? null : cost.toFixed(2),
      costCurrency: cost === null ? null : (r.costCurrency ?? r.currency),
      // Money in two currencies is not subtracted: that would need an exchange rate we do not have.
      profit: cost === null || (r.costCurrency ?? r.currency) !== r.currency ? null : (revenue - cost).toFixed(2),
      fulfillmentProvider: (r.fulfillmentProvider as TOrder['fulfillmentProvider']) ?? null,
      printerReason: r.printerReason,
      printfulOrderId: r.printfulOrderId,
      confirmAt: r.status === 'waiting_approval' ? (r.confirmAt?.toISOString() ?? null) : null,
      failureReason: r.failureReason,
      carrier: r.carrier,
      trackingNumber: r.trackingNumber,
      trackingUrl: r.trackingUrl,
      addressErased: r.shippingAddressEnc === null,
      orderedAt: r.orderedAt.toISOString(),
      lines: lines
        .filter((l) => l.orderId === r.id)
        .map((l) => {
          const variant = variants.find((v) => v.id === l.variantId);
          const productLinks = l.productId ? (links.get(l.productId) ?? []) : [];
          const picture = productLinks.find((k) => variant?.color && k.color === variant.color) ?? productLinks[0];
          const product = productRows.find((p) => p.id === l.productId);
          const fromPodforge = Boolean(l.productId && l.variantId);
          return {
            id: l.id,
            title: l.title,
            sku: l.sku,
            quantity: l.quantity,
            price: Number(l.price).toFixed(2),
            productId: l.productId,
            variantOption: variant?.option ?? null,
            fromPodforge,
            mockupUrl: fromPodforge ? productThumbnailUrl(picture?.mockupId ?? null, product?.designId ?? null) : null,
          };
        }),
    };
  });
}

/** One page of the workspace's orders, newest first, with the total for the filter. */
export async function listOrders(
  deps: OrdersDeps,
  workspaceId: string,
  query: { status?: TOrderStatus | undefined; page: number; pageSize: number },
): Promise<TOrderPage> {
  const where = and(eq(orders.workspaceId, workspaceId), query.status ? eq(orders.status, query.status) : undefined);
  const [rows, [counted]] = await Promise.all([
    deps.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.orderedAt), desc(orders.createdAt), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    deps.db.select({ n: count() }).from(orders).where(where),
  ]);
  const total = Number(counted?.n ?? 0);
  return {
    items: await toOrders(deps, rows),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}

async function findOrderRow(deps: OrdersDeps, workspaceId: string, id: string): Promise<OrderRow> {
  if (!UUID.test(id)) throw notFound('Order');
  const [row] = await deps.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.workspaceId, workspaceId)));
  if (!row) throw notFound('Order');
  return row;
}

export async function getOrder(deps: OrdersDeps, workspaceId: string, id: string): Promise<TOrder> {
  const [order] = await toOrders(deps, [await findOrderRow(deps, workspaceId, id)]);
  if (!order) throw notFound('Order');
  return order;
}

const refuse = (row: OrderRow, what: string) =>
  conflict(
    `Order ${row.name} is ${ORDER_STATUS_LABELS[row.status as TOrderStatus].toLowerCase()}: it cannot be ${what}`,
  );

/** The seller confirms a waiting order: the printer charges and prints it (the confirm job). */
export async function approveOrder(deps: OrdersDeps, workspaceId: string, id: string): Promise<TOrder> {
  const row = await findOrderRow(deps, workspaceId, id);
  if (!canApproveOrder(row.status as TOrderStatus)) throw refuse(row, 'approved');
  await enqueue.confirm(deps, row.id, { attempt: `approve:${deps.now().getTime()}` });
  return getOrder(deps, workspaceId, id);
}

export async function cancelOrderByHand(deps: OrdersDeps, workspaceId: string, id: string): Promise<TOrder> {
  const row = await findOrderRow(deps, workspaceId, id);
  if (!canCancelOrder(row.status as TOrderStatus)) throw refuse(row, 'cancelled');
  await enqueue.cancel(deps, row.id, 'Cancelled by the seller');
  return getOrder(deps, workspaceId, id);
}

/** A failed order goes again: confirmed again at the printer (files fetched anew), or submitted if it never got there. */
export async function retryOrder(deps: OrdersDeps, workspaceId: string, id: string): Promise<TOrder> {
  const row = await findOrderRow(deps, workspaceId, id);
  if (!canRetryOrder(row.status as TOrderStatus)) throw refuse(row, 'retried');
  const attempt = `retry:${deps.now().getTime()}`;
  if (row.printfulOrderId) {
    await enqueue.confirm(deps, row.id, { retry: true, attempt });
  } else {
    await deps.db
      .update(orders)
      .set({ status: 'received', failureReason: null, updatedAt: deps.now() })
      .where(and(eq(orders.id, row.id), eq(orders.status, 'failed')));
    await enqueue.submit(deps, row.id, attempt);
  }
  return getOrder(deps, workspaceId, id);
}

/** Sync: the store's recent paid orders in, each once; new orders of ours go to the printer. */
export async function ingestSyncedOrders(
  deps: OrdersDeps,
  store: typeof integrations.$inferSelect,
  remote: GqlOrder[],
): Promise<number> {
  let created = 0;
  for (const o of remote) {
    if (!isPaidOrCancelled(o)) continue;
    const result = await receiveStoreOrder(deps, store, fromGqlOrder(o));
    if (result.created) created += 1;
  }
  return created;
}

/** 'Place a test order' in a sandbox shop: a paid order for these SKUs, sent to the app as `orders/paid`. */
export async function placeSandboxOrder(deps: OrdersDeps, workspaceId: string, input: TSandboxOrderInput) {
  const fake = await deps.shopify.sandboxServer();
  if (!fake) throw conflict('Test orders are for sandbox stores; this server is connected to real Shopify stores');
  const store = await findIntegration(deps.db, workspaceId, input.integrationId, 'shopify');
  if (!store.sandbox || store.status !== 'connected')
    throw conflict(`${store.storeName} is not a connected sandbox store`);
  const sold = (await fake.products(store.externalId)).flatMap((p) => p.variants.map((v) => v.sku)).filter(Boolean);
  const unknown = input.lines.find((l) => !sold.includes(l.sku));
  if (unknown) throw badRequest(`SKU ${unknown.sku} is not sold in ${store.storeName}; push the product there first`);
  const a = input.address ?? DEFAULT_TEST_ADDRESS;
  const order = await fake.orders.placePaidOrder(store.externalId, {
    lines: input.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
    address: {
      name: a.name,
      address1: a.address1,
      address2: a.address2,
      city: a.city,
      province_code: a.provinceCode,
      country_code: a.countryCode,
      zip: a.zip,
      phone: a.phone,
    },
  });
  return { remoteOrderId: String(order.id), name: order.name, total: order.total, currency: order.currency };
}
