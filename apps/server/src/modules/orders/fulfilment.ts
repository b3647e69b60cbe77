import { randomUUID } from 'node:crypto';
import type { TOrderStatus } from '@podforge/contract';
import { and, eq, inArray, lt } from 'drizzle-orm';
import {
  fulfillmentWebhooks,
  integrations,
  orderLines,
  orders,
  products,
  productVariants,
  webhookEvents,
} from '../../db/schema';
import { PrintfulError } from '../../integrations/printful/client';
import {
  cancelOrder,
  confirmOrder,
  createOrder,
  deleteOrder,
  findOrder,
  type PrintfulConn,
  type PrintfulOrder,
  type PrintfulOrderInput,
  setWebhooks,
  shipments,
} from '../../integrations/printful/orders';
import { AppError } from '../../lib/errors';
import { ensurePrintFile, PRINT_FILE_URL_TTL_SECONDS, printFilePath } from '../print-files/print-files.service';
import { getSettings } from '../settings/settings.routes';
import type { ShippingAddress } from '../stores/incoming-order';
import { storeConnection } from '../stores/store-connections.repository';
import type { OrdersDeps } from './orders.deps';

/**
 * Fulfilment out and progress back. An order with lines of ours becomes one Printful v2 order whose `external_id`
 * is the store order: before creating, the printer is asked for `@external_id`, so a retry after a crash between
 * 'created at Printful' and 'saved here' finds the order the first attempt made. Drafts cost nothing; the
 * workspace's confirmation setting decides when they are confirmed (automatic, by hand, after a waiting time).
 * The printer's webhooks move the order on; a shipment becomes the store's fulfilment with its tracking.
 */

export type OrderRow = typeof orders.$inferSelect;
type Provider = 'sandbox' | 'printful';
type Printer = PrintfulConn & { provider: Provider };

/** Test switches: a fault between 'Printful order created' and 'saved here', as a crash would leave it. */
export const faults: { afterPrinterCreate: (() => void) | null } = { afterPrinterCreate: null };

/** A refusal the seller must act on: the order fails with this reason, no retry by the queue. */
export class OrderProblem extends Error {}

export const isFinalFailure = (error: unknown) =>
  error instanceof OrderProblem ||
  (error instanceof PrintfulError && error.status >= 400 && error.status < 500 && error.status !== 429) ||
  (error instanceof AppError && error.statusCode < 500);

/** The printer's answer in the seller's words. */
export const failureText = (error: unknown) =>
  error instanceof PrintfulError
    ? `Printful: ${error.message}`
    : error instanceof Error
      ? error.message
      : 'The printer step failed unexpectedly';

/** Where the printer and fulfilment providers reach this app (print files, webhooks). */
export const publicOrigin = (deps: OrdersDeps) => deps.config.appUrl ?? `http://127.0.0.1:${deps.config.port}`;

/** The workspace's own Printful account when connected; else the built-in sandbox. Never the server's token. */
async function printerFor(deps: OrdersDeps, workspaceId: string, provider?: Provider | null): Promise<Printer> {
  const [row] = await deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.workspaceId, workspaceId),
        eq(integrations.platform, 'printful'),
        eq(integrations.kind, 'fulfillment'),
        eq(integrations.status, 'connected'),
      ),
    );
  if (provider !== 'sandbox' && row) {
    const token = await deps.printful.accessToken(workspaceId);
    // The store chosen at connect: an account-level token acts for it with X-PF-Store-Id.
    if (token) return { provider: 'printful', client: deps.printful.client, token, storeId: row.externalId };
  }
  if (provider === 'printful') throw new OrderProblem('Printful is no longer connected; reconnect it to go on');
  return {
    provider: 'sandbox',
    client: await deps.printfulSandbox.client(),
    token: deps.printfulSandbox.tokenFor(workspaceId),
  };
}

/** The printer sends this workspace's webhooks to `/api/webhooks/printful/<row id>`, signed with the kept secret. */
async function ensureWebhooks(deps: OrdersDeps, workspaceId: string, printer: Printer) {
  const where = and(
    eq(fulfillmentWebhooks.workspaceId, workspaceId),
    eq(fulfillmentWebhooks.provider, printer.provider),
  );
  const [existing] = await deps.db.select().from(fulfillmentWebhooks).where(where);
  if (existing) return;
  if (printer.provider === 'printful' && !deps.config.appUrl) {
    throw new OrderProblem('Set APP_URL to this app’s public https address, so Printful can send order updates');
  }
  const id = randomUUID();
  const url = `${publicOrigin(deps)}/api/webhooks/printful/${id}`;
  // No transaction around the call: the sandbox writes to this database itself (PGlite has one connection).
  const secret = await setWebhooks(printer, url);
  const [inserted] = await deps.db
    .insert(fulfillmentWebhooks)
    .values({ id, workspaceId, provider: printer.provider, secretEnc: deps.cipher.encrypt(secret) })
    .onConflictDoNothing()
    .returning({ id: fulfillmentWebhooks.id });
  if (inserted) return;
  // Another instance set it up at the same moment: the printer keeps the last configuration, so make it ours.
  const [winner] = await deps.db.select().from(fulfillmentWebhooks).where(where);
  if (!winner) return;
  const again = await setWebhooks(printer, `${publicOrigin(deps)}/api/webhooks/printful/${winner.id}`);
  await deps.db
    .update(fulfillmentWebhooks)
    .set({ secretEnc: deps.cipher.encrypt(again) })
    .where(eq(fulfillmentWebhooks.id, winner.id));
}

async function loadOrder(deps: OrdersDeps, orderId: string): Promise<OrderRow | null> {
  const [row] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}

/** The Printful v2 order for our lines: catalogue variant, quantity, retail price, print files by signed URL. */
async function printfulInput(deps: OrdersDeps, order: OrderRow): Promise<PrintfulOrderInput> {
  if (!order.shippingAddressEnc) {
    throw new OrderProblem(
      'The order has no shipping address (none was given, or it was erased at the store’s request)',
    );
  }
  const address = JSON.parse(deps.cipher.decrypt(order.shippingAddressEnc)) as ShippingAddress;
  const lines = await deps.db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.workspaceId, order.workspaceId)))
    .orderBy(orderLines.position);
  const ours = lines.filter((l) => l.variantId && l.productId);
  if (ours.length === 0) throw new OrderProblem('None of the order’s lines is a Podforge product any more');
  const variantIds = ours.map((l) => l.variantId as string);
  const productIds = [...new Set(ours.map((l) => l.productId as string))];
  const [variantRows, productRows] = await Promise.all([
    deps.db.select().from(productVariants).where(inArray(productVariants.id, variantIds)),
    deps.db
      .select()
      .from(products)
      .where(and(inArray(products.id, productIds), eq(products.workspaceId, order.workspaceId))),
  ]);
  const origin = publicOrigin(deps);
  const items: PrintfulOrderInput['order_items'] = [];
  for (const line of ours) {
    const variant = variantRows.find((v) => v.id === line.variantId);
    const product = productRows.find((p) => p.id === line.productId);
    if (!variant || !product) throw new OrderProblem(`"${line.title}" is no longer in My Products`);
    if (variant.catalogVariantId === null) {
      throw new OrderProblem(`"${line.title}" has no catalogue variant to print on; edit the product first`);
    }
    const placements: PrintfulOrderInput['order_items'][number]['placements'] = [];
    for (const p of product.placements) {
      // Drawn now if missing, so the URL answers when Printful downloads it.
      await ensurePrintFile(deps, product, p.placement);
      const url = `${origin}${deps.urlSigner.sign(printFilePath(product.id, p.placement), PRINT_FILE_URL_TTL_SECONDS)}`;
      placements.push({ placement: p.placement, technique: p.technique, layers: [{ type: 'file', url }] });
    }
    if (placements.length === 0) throw new OrderProblem(`"${line.title}" has no print file to print`);
    items.push({
      source: 'catalog',
      catalog_variant_id: variant.catalogVariantId,
      quantity: line.quantity,
      retail_price: line.price,
      name: line.title.slice(0, 200),
      external_id: line.remoteLineId,
      placements,
    });
  }
  return {
    external_id: order.remoteOrderId,
    shipping: 'STANDARD',
    recipient: {
      name: address.name || 'Customer',
      address1: address.address1,
      ...(address.address2 ? { address2: address.address2 } : {}),
      city: address.city,
      ...(address.provinceCode ? { state_code: address.provinceCode } : {}),
      country_code: address.countryCode,
      zip: address.zip,
      ...(address.phone ? { phone: address.phone } : {}),
    },
    order_items: items,
  };
}

const costOf = (pf: PrintfulOrder) =>
  pf.costs?.total ? { cost: Number(pf.costs.total).toFixed(2), costCurrency: pf.costs.currency } : {};

export type Next = { confirmNow: boolean; confirmAt: Date | null };

/**
 * Step 1 (job): the draft at the printer, exactly once. Answers what comes next under the workspace's setting.
 */
export async function submitToPrinter(deps: OrdersDeps, orderId: string): Promise<Next | null> {
  const order = await loadOrder(deps, orderId);
  if (order?.status !== 'received') return null;
  const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider as Provider | null);
  await ensureWebhooks(deps, order.workspaceId, printer);
  const input = await printfulInput(deps, order);
  const pf = (await findOrder(printer, `@${order.remoteOrderId}`)) ?? (await createOrder(printer, input));
  faults.afterPrinterCreate?.();
  const { orderConfirmation } = await getSettings(deps.db, order.workspaceId);
  const now = deps.now();
  const confirmAt =
    orderConfirmation.mode === 'delay' ? new Date(now.getTime() + orderConfirmation.delayMinutes * 60_000) : null;
  const status: TOrderStatus = orderConfirmation.mode === 'automatic' ? 'received' : 'waiting_approval';
  await deps.db
    .update(orders)
    .set({
      printfulOrderId: String(pf.id),
      fulfillmentProvider: printer.provider,
      ...costOf(pf),
      status,
      confirmAt,
      failureReason: null,
      updatedAt: now,
    })
    .where(and(eq(orders.id, order.id), eq(orders.status, 'received')));
  return { confirmNow: orderConfirmation.mode === 'automatic', confirmAt };
}

/**
 * Step 2 (job): confirm the draft (from now on Printful charges and prints). A waiting order that was cancelled
 * meanwhile is left alone; a failed one is confirmed again only on the seller's retry.
 */
export async function confirmAtPrinter(deps: OrdersDeps, orderId: string, options: { retry?: boolean } = {}) {
  const order = await loadOrder(deps, orderId);
  if (!order?.printfulOrderId) return;
  const allowed: string[] = ['received', 'waiting_approval', ...(options.retry ? ['failed'] : [])];
  if (!allowed.includes(order.status)) return;
  const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider as Provider | null);
  let pf: PrintfulOrder;
  try {
    pf = await confirmOrder(printer, order.printfulOrderId);
  } catch (error) {
    // Confirmed already (a lost answer, a second delivery): what Printful holds is the truth.
    if (!(error instanceof PrintfulError && error.status === 409)) throw error;
    const current = await findOrder(printer, order.printfulOrderId);
    if (!current || current.status === 'draft') throw error;
    pf = current;
  }
  await deps.db
    .update(orders)
    .set({ status: 'sent', confirmedAt: deps.now(), failureReason: null, ...costOf(pf), updatedAt: deps.now() })
    .where(and(eq(orders.id, order.id), inArray(orders.status, allowed)));
}

/** Cancels what has not gone into production: the printer's draft is deleted, a confirmed order cancelled. */
export async function cancelAtPrinter(deps: OrdersDeps, orderId: string, why: string): Promise<void> {
  const order = await loadOrder(deps, orderId);
  if (!order || ['cancelled', 'external', 'shipped', 'delivered'].includes(order.status)) return;
  if (order.status === 'in_production') {
    await setFailure(deps, order.id, `${why}, but Printful is already printing it; cancel it in Printful if you can`);
    return;
  }
  if (order.printfulOrderId) {
    const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider as Provider | null);
    const pf = await findOrder(printer, order.printfulOrderId);
    if (pf && pf.status !== 'canceled') {
      if (pf.status === 'draft' || pf.status === 'failed') await deleteOrder(printer, String(pf.id));
      else await cancelOrder(printer, String(pf.id));
    }
  }
  await deps.db
    .update(orders)
    .set({ status: 'cancelled', failureReason: null, updatedAt: deps.now() })
    .where(eq(orders.id, order.id));
}

async function setFailure(deps: OrdersDeps, orderId: string, reason: string, status?: TOrderStatus) {
  await deps.db
    .update(orders)
    .set({ failureReason: reason.slice(0, 500), ...(status ? { status } : {}), updatedAt: deps.now() })
    .where(eq(orders.id, orderId));
}

/** A step that will not succeed by itself: the order shows Printful's reason and offers a retry. */
export async function failOrder(deps: OrdersDeps, orderId: string, reason: string) {
  const order = await loadOrder(deps, orderId);
  if (!order || ['cancelled', 'shipped', 'delivered'].includes(order.status)) return;
  await setFailure(deps, orderId, reason, 'failed');
}

const RANK: Record<TOrderStatus, number> = {
  external: -1,
  received: 0,
  waiting_approval: 1,
  failed: 1,
  sent: 2,
  in_production: 3,
  on_hold: 3,
  shipped: 5,
  delivered: 6,
  cancelled: 7,
};

/** Printer events arrive in any order: a status only moves forward (hold and failure may come at any time before shipping). */
export function canMove(from: TOrderStatus, to: TOrderStatus): boolean {
  if (from === to || from === 'cancelled' || from === 'external') return false;
  if (to === 'failed' || to === 'on_hold' || to === 'cancelled') return RANK[from] < RANK.shipped;
  return RANK[to] > RANK[from] || (from === 'on_hold' && to === 'in_production');
}

const PRINTFUL_STATUS: Record<string, TOrderStatus> = {
  pending: 'sent',
  inprocess: 'in_production',
  partial: 'in_production',
  onhold: 'on_hold',
  failed: 'failed',
  canceled: 'cancelled',
  fulfilled: 'shipped',
};

export type PrinterEvent = {
  type: string;
  data?: {
    reason?: string;
    order?: { id?: number | string; external_id?: string; status?: string };
    shipment?: { id?: number; tracking_number?: string };
  };
};

/** How long a taken webhook delivery is remembered, to recognise a late duplicate. */
export const WEBHOOK_MEMORY_MS = 30 * 24 * 3600_000;

/** Forgets printer and store deliveries taken more than 30 days ago (run as new ones arrive). */
export async function forgetOldWebhookEvents(deps: { db: OrdersDeps['db']; now: () => Date }) {
  await deps.db
    .delete(webhookEvents)
    .where(lt(webhookEvents.receivedAt, new Date(deps.now().getTime() - WEBHOOK_MEMORY_MS)));
}

/**
 * What a job keeps of a printer webhook: the fields `applyPrinterEvent` reads. Printful's bodies carry the whole
 * order, recipient address included, and a job's data is stored in clear.
 */
export function printerEventOf(body: PrinterEvent): PrinterEvent {
  const { reason, order, shipment } = body.data ?? {};
  return {
    type: String(body.type),
    data: {
      ...(reason !== undefined ? { reason: String(reason) } : {}),
      ...(order ? { order: { id: order.id, external_id: order.external_id, status: order.status } } : {}),
      ...(shipment ? { shipment: { id: shipment.id, tracking_number: shipment.tracking_number } } : {}),
    },
  };
}

/** A verified printer webhook (job): the order moves on; a shipment sends its tracking to the store. */
export async function applyPrinterEvent(
  deps: OrdersDeps,
  workspaceId: string,
  event: PrinterEvent,
): Promise<{ fulfilInStore: string | null }> {
  const ref = event.data?.order;
  if (!ref?.id && !ref?.external_id) return { fulfilInStore: null };
  const [order] = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.workspaceId, workspaceId),
        ref.id !== undefined
          ? eq(orders.printfulOrderId, String(ref.id))
          : eq(orders.remoteOrderId, String(ref.external_id)),
      ),
    );
  if (!order?.printfulOrderId) return { fulfilInStore: null };
  const current = order.status as TOrderStatus;
  const move = async (to: TOrderStatus, extra: Partial<OrderRow> = {}) => {
    if (!canMove(current, to)) return false;
    await deps.db
      .update(orders)
      .set({ status: to, ...extra, updatedAt: deps.now() })
      .where(and(eq(orders.id, order.id), eq(orders.status, current)));
    return true;
  };

  const shipped = async () => {
    const printer = await printerFor(deps, workspaceId, order.fulfillmentProvider as Provider | null);
    const list = await shipments(printer, order.printfulOrderId as string);
    const shipment = list.find((s) => s.id === event.data?.shipment?.id) ?? list[list.length - 1];
    const delivered = list.length > 0 && list.every((s) => s.delivery_status === 'delivered');
    const tracking = {
      carrier: shipment?.carrier ?? null,
      trackingNumber: event.data?.shipment?.tracking_number ?? shipment?.tracking_number ?? null,
      trackingUrl: shipment?.tracking_url ?? null,
      // A printer-side reason (a hold) ends with the parcel; once shipped, a reason is the store's (the tracking
      // was not taken: noteStoreFailure), which delivery does not undo (its store step is the shipment's, done once).
      ...(current === 'shipped' ? {} : { failureReason: null }),
    };
    if (delivered && (await move('delivered', tracking))) return { fulfilInStore: order.id };
    if (await move('shipped', tracking)) return { fulfilInStore: order.id };
    return { fulfilInStore: null };
  };

  switch (event.type) {
    case 'shipment_sent':
      return shipped();
    case 'order_failed':
      await move('failed', { failureReason: `Printful: ${event.data?.reason ?? 'the order failed'}`.slice(0, 500) });
      return { fulfilInStore: null };
    case 'order_canceled':
      await move('cancelled');
      return { fulfilInStore: null };
    case 'order_put_hold':
    case 'order_put_hold_approval':
      await move('on_hold', { failureReason: event.data?.reason ? `On hold: ${event.data.reason}` : null });
      return { fulfilInStore: null };
    case 'order_remove_hold':
      await move('in_production', { failureReason: null });
      return { fulfilInStore: null };
    case 'order_created':
    case 'order_updated': {
      const to = PRINTFUL_STATUS[ref.status ?? ''];
      if (to === 'shipped') return shipped();
      if (to) await move(to, to === 'failed' ? {} : { failureReason: null });
      return { fulfilInStore: null };
    }
    default:
      return { fulfilInStore: null };
  }
}

/** The store's fulfilment with carrier, tracking number and URL (the customer is notified), made once. */
export async function fulfilInStore(deps: OrdersDeps, orderId: string) {
  const order = await loadOrder(deps, orderId);
  if (!order || order.storeFulfillmentId || !['shipped', 'delivered'].includes(order.status)) return;
  const store = await storeConnection(deps.db, order.workspaceId, order.integrationId);
  if (!store?.accessTokenEnc || store.status !== 'connected') {
    throw new OrderProblem('The store is not connected: the tracking could not be sent to it');
  }
  // The platform's adapter (StorePlatform.sendTracking) sends it the store's way, once.
  const platform = deps.stores.get(store.platform);
  if (!platform) throw new OrderProblem(`${store.platform} stores cannot take tracking`);
  const id = await platform.sendTracking(store, order.remoteOrderId, {
    carrier: order.carrier,
    number: order.trackingNumber,
    url: order.trackingUrl,
  });
  await deps.db.update(orders).set({ storeFulfillmentId: id, updatedAt: deps.now() }).where(eq(orders.id, order.id));
}

/** When the store could not take the tracking: the order stays shipped and says so. */
export async function noteStoreFailure(deps: OrdersDeps, orderId: string, reason: string) {
  await setFailure(deps, orderId, `Tracking not sent to the store: ${reason}`);
}
