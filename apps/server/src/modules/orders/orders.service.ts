import {
  canApproveOrder,
  canCancelOrder,
  canRetryOrder,
  ORDER_STATUS_LABELS,
  type TOrder,
  type TOrderPage,
  type TOrderShipment,
  type TOrderStatus,
  type TStoreFee,
} from '@podforge/contract';
import { saleEconomics } from '@podforge/contract/plain';
import { conflict, notFound } from '../../lib/errors';
import { mockupLinksOf } from '../products/products.repository';
import { productThumbnailUrl } from '../products/products.service';
import { getSettings } from '../settings/settings.routes';
import { storeNames } from '../stores/store-connections.repository';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import {
  findOrder,
  lineSources,
  linesOf,
  type OrderLineRow,
  type OrderRow,
  orderPage,
  updateOrder,
} from './orders.repository';

/**
 * The order's parcels as the printer last listed them, each with the order's lines it carries (by the store's line
 * id), whether the store took its tracking and whether it has arrived. An order shipped before parcels were kept:
 * its one tracking.
 */
function shipmentsOf(row: OrderRow, lines: OrderLineRow[]): TOrderShipment[] {
  const sent = row.storeShipments ?? {};
  if (row.printerShipments.length === 0) {
    if (!row.trackingNumber && !row.carrier && !row.trackingUrl) return [];
    const { carrier, trackingNumber, trackingUrl } = row;
    return [
      {
        carrier,
        trackingNumber,
        trackingUrl,
        lines: null,
        sentToStore: Boolean(row.storeFulfillmentId),
        delivered: row.status === 'delivered',
      },
    ];
  }
  return row.printerShipments.map((s) => ({
    carrier: s.carrier,
    trackingNumber: s.trackingNumber,
    trackingUrl: s.trackingUrl,
    lines:
      s.lines?.map((l) => ({
        title: lines.find((line) => line.remoteLineId === l.lineId)?.title ?? `Store line ${l.lineId}`,
        quantity: l.quantity,
      })) ?? null,
    // An id recorded empty: the parcel's lines had gone with an earlier one, so the store was not called for it.
    sentToStore: Boolean(sent[s.id]),
    // An order is delivered only once every parcel is (rows kept before parcels' deliveries were say nothing).
    delivered: s.delivered === true || row.status === 'delivered',
  }));
}

/** The Orders screen's operations: list, one order, approve, cancel, retry; every one scoped to the workspace. */

async function toOrders(deps: OrdersDeps, rows: OrderRow[]): Promise<TOrder[]> {
  if (rows.length === 0) return [];
  const [lines, stores, settings] = await Promise.all([
    linesOf(
      deps.db,
      rows.map((r) => r.id),
    ),
    storeNames(deps.db, [...new Set(rows.map((r) => r.integrationId))]),
    // Every row is the caller's workspace's: its fee settings price each sale's store fee.
    getSettings(deps.db, rows[0]?.workspaceId ?? ''),
  ]);
  const productIds = [...new Set(lines.map((l) => l.productId).filter((id): id is string => Boolean(id)))];
  const variantIds = lines.map((l) => l.variantId).filter((id): id is string => Boolean(id));
  const [links, { variants, products: productRows }] = await Promise.all([
    mockupLinksOf(deps.db, productIds),
    lineSources(deps.db, null, variantIds, productIds),
  ]);
  return rows.map((r) => {
    const revenue = Number(r.revenue);
    const cost = r.cost === null ? null : Number(r.cost);
    const store = stores.find((s) => s.id === r.integrationId);
    const fee = (settings.storeFees as Record<string, TStoreFee>)[store?.platform ?? ''] ?? { percent: 0, fixed: 0 };
    const sale = saleEconomics({ revenue, cost, currency: r.currency, costCurrency: r.costCurrency }, fee);
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
      // The price editor's formula: revenue - printer's charge - store fee; money in two currencies is not
      // subtracted (that would need an exchange rate we do not have).
      storeFee: sale.fee.toFixed(2),
      profit: sale.profit === null ? null : sale.profit.toFixed(2),
      fulfillmentProvider: (r.fulfillmentProvider as TOrder['fulfillmentProvider']) ?? null,
      printerReason: r.printerReason,
      printerOrderId: r.printerOrderId,
      confirmAt: r.status === 'waiting_approval' ? (r.confirmAt?.toISOString() ?? null) : null,
      failureReason: r.failureReason,
      carrier: r.carrier,
      trackingNumber: r.trackingNumber,
      trackingUrl: r.trackingUrl,
      shipments: shipmentsOf(
        r,
        lines.filter((l) => l.orderId === r.id),
      ),
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
  const { rows, total } = await orderPage(deps.db, workspaceId, query);
  return {
    items: await toOrders(deps, rows),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.max(1, Math.ceil(total / query.pageSize)),
  };
}

const findOrderRow = (deps: OrdersDeps, workspaceId: string, id: string) => findOrder(deps.db, workspaceId, id);

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
  if (row.printerOrderId) {
    await enqueue.confirm(deps, row.id, { retry: true, attempt });
  } else {
    await updateOrder(deps.db, row.id, { status: 'received', failureReason: null, updatedAt: deps.now() }, 'failed');
    await enqueue.submit(deps, row.id, attempt);
  }
  return getOrder(deps, workspaceId, id);
}
