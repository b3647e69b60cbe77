import { randomUUID } from 'node:crypto';
import { DEFAULT_FULFILMENT_NETWORK, platformLabel, type TOrderStatus } from '@podforge/contract';
import { AppError } from '../../lib/errors';
import { ensurePrintFile, PRINT_FILE_URL_TTL_SECONDS, printFilePath } from '../print-files/print-files.service';
import { type Blank, matchBlanks, productFamily } from '../printers/blank-match';
import type {
  FulfilmentProvider,
  PrinterAccount,
  PrinterEvent,
  PrinterOrder,
  PrinterShipment,
  PrintOrderInput,
} from '../printers/fulfilment-provider';
import { printerWebhookPath } from '../printers/fulfilment-provider';
import { getRule, routeOrder } from '../routing/routing.service';
import { getSettings } from '../settings/settings.routes';
import type { ShippingAddress } from '../stores/incoming-order';
import { storeConnection } from '../stores/store-connections.repository';
import type { OrdersDeps } from './orders.deps';
import {
  insertPrinterWebhook,
  type KeptShipment,
  lineSources,
  linesOfOrder,
  type OrderRow,
  orderById,
  orderOfPrinterRef,
  pinPrinter,
  printerNetworksOfOrder,
  printerWebhookOf,
  recordPrinterShipments,
  recordStoreShipment,
  setPrinterWebhookSecret,
  updateOrder,
} from './orders.repository';

/**
 * Fulfilment out and progress back, through the FulfilmentProvider port (`deps.printers`; no printer is named here).
 * An order with lines of ours becomes one printer order whose external id is the store order: placing it is
 * idempotent on that id, so a retry after a crash between 'created at the printer' and 'saved here' finds the order
 * the first attempt made. Drafts cost nothing; the
 * workspace's confirmation setting decides when they are confirmed (automatic, by hand, after a waiting time).
 * The printer's webhooks move the order on; a shipment becomes the store's fulfilment with its tracking.
 */

export type { OrderRow };

type Printer = { adapter: FulfilmentProvider; account: PrinterAccount; provider: string };

/** Test switches: a fault between 'printer order created' and 'saved here', as a crash would leave it. */
export const faults: { afterPrinterCreate: (() => void) | null } = { afterPrinterCreate: null };

/** A refusal the seller must act on: the order fails with this reason, no retry by the queue. */
export class OrderProblem extends Error {}

export const isFinalFailure = (deps: OrdersDeps, error: unknown) =>
  error instanceof OrderProblem ||
  deps.printers.explain(error)?.final === true ||
  (error instanceof AppError && error.statusCode < 500);

/** The printer's answer in the seller's words. */
export const failureText = (deps: OrdersDeps, error: unknown) =>
  deps.printers.explain(error)?.text ??
  (error instanceof Error ? error.message : 'The printer step failed unexpectedly');

/** Where the printer and fulfilment providers reach this app (print files, webhooks). */
export const publicOrigin = (deps: OrdersDeps) => deps.config.appUrl ?? `http://127.0.0.1:${deps.config.port}`;

/**
 * The printer an order goes to: the one it went to already (pinned), else its products' printer network (the
 * workspace's own account there, else that network's sandbox). Never the server's token.
 */
export async function printerFor(
  deps: OrdersDeps,
  workspaceId: string,
  provider?: string | null,
  network?: string,
): Promise<Printer> {
  const pinned = provider ? deps.printers.get(provider) : null;
  if (pinned) {
    const account = await pinned.account(workspaceId);
    if (account) return { adapter: pinned, account, provider: pinned.id };
    throw new OrderProblem(`${pinned.name} is no longer connected; reconnect it to go on`);
  }
  const wanted = network ?? DEFAULT_FULFILMENT_NETWORK;
  const found = await deps.printers.forWorkspace(workspaceId, wanted);
  if (!found) {
    const label = platformLabel(wanted);
    throw new OrderProblem(
      deps.printers.ofNetwork(wanted).length === 0
        ? `${label} is not available yet: this order's products are made by ${label}`
        : `Connect ${label} (or its sandbox) on the Integrations page: this order's products are made by ${label}`,
    );
  }
  return { adapter: found.provider, account: found.account, provider: found.provider.id };
}

/**
 * The printer network of the order's Podforge lines (their products' `provider`); one network per order. An order
 * with no product of ours goes to the contract's default network, the one a product is made by when it names none.
 */
async function networkOf(deps: OrdersDeps, order: OrderRow): Promise<string> {
  const networks = await printerNetworksOfOrder(deps.db, order);
  if (networks.length > 1) {
    throw new OrderProblem(
      `This order has products of several printers (${networks.map(platformLabel).join(', ')}); Podforge sends an order to one printer`,
    );
  }
  return networks[0] ?? DEFAULT_FULFILMENT_NETWORK;
}

/** The printer sends this workspace's webhooks to its `printerWebhookPath`, signed with the kept secret. */
async function ensureWebhooks(deps: OrdersDeps, workspaceId: string, printer: Printer) {
  const existing = await printerWebhookOf(deps.db, workspaceId, printer.provider);
  if (existing) return;
  if (printer.adapter.needsPublicUrl && !deps.config.appUrl) {
    throw new OrderProblem(
      `Set APP_URL to this app’s public https address, so ${printer.adapter.name} can send order updates`,
    );
  }
  const id = randomUUID();
  const url = `${publicOrigin(deps)}${printerWebhookPath(printer.provider, id)}`;
  // No transaction around the call: the sandbox writes to this database itself (PGlite has one connection).
  const secret = await printer.adapter.setWebhook(printer.account, url);
  const inserted = await insertPrinterWebhook(deps.db, {
    id,
    workspaceId,
    provider: printer.provider,
    secretEnc: deps.cipher.encrypt(secret),
  });
  if (inserted) return;
  // Another instance set it up at the same moment: the printer keeps the last configuration, so make it ours.
  const winner = await printerWebhookOf(deps.db, workspaceId, printer.provider);
  if (!winner) return;
  const again = await printer.adapter.setWebhook(
    printer.account,
    `${publicOrigin(deps)}${printerWebhookPath(printer.provider, winner.id)}`,
  );
  await setPrinterWebhookSecret(deps.db, winner.id, deps.cipher.encrypt(again));
}

const loadOrder = (deps: OrdersDeps, orderId: string) => orderById(deps.db, orderId);

/** The printer's order for our lines: catalogue variant, quantity, retail price, print files by signed URL. */
async function printInput(deps: OrdersDeps, order: OrderRow): Promise<PrintOrderInput & { blanks: Blank[] }> {
  if (!order.shippingAddressEnc) {
    throw new OrderProblem(
      'The order has no shipping address (none was given, or it was erased at the store’s request)',
    );
  }
  const address = JSON.parse(deps.cipher.decrypt(order.shippingAddressEnc)) as ShippingAddress;
  const lines = await linesOfOrder(deps.db, order);
  const ours = lines.filter((l) => l.variantId && l.productId);
  if (ours.length === 0) throw new OrderProblem('None of the order’s lines is a Podforge product any more');
  const variantIds = ours.map((l) => l.variantId as string);
  const productIds = [...new Set(ours.map((l) => l.productId as string))];
  const { variants: variantRows, products: productRows } = await lineSources(
    deps.db,
    order.workspaceId,
    variantIds,
    productIds,
  );
  const origin = publicOrigin(deps);
  const items: PrintOrderInput['items'] = [];
  const blanks: Blank[] = [];
  for (const line of ours) {
    const variant = variantRows.find((v) => v.id === line.variantId);
    const product = productRows.find((p) => p.id === line.productId);
    if (!variant || !product) throw new OrderProblem(`"${line.title}" is no longer in My Products`);
    if (variant.catalogVariantId === null) {
      throw new OrderProblem(`"${line.title}" has no catalogue variant to print on; edit the product first`);
    }
    const files: PrintOrderInput['items'][number]['files'] = [];
    for (const p of product.placements) {
      // Drawn now if missing, so the URL answers when the printer downloads it.
      await ensurePrintFile(deps, product, p.placement);
      const url = `${origin}${deps.urlSigner.sign(printFilePath(product.id, p.placement), PRINT_FILE_URL_TTL_SECONDS)}`;
      files.push({ placement: p.placement, technique: p.technique, url });
    }
    if (files.length === 0) throw new OrderProblem(`"${line.title}" has no print file to print`);
    blanks.push({
      productType: product.productType,
      color: variant.color,
      size: variant.size,
      family: productFamily(product),
      catalogProductId: product.catalogProductId,
      catalogVariantId: variant.catalogVariantId,
    });
    items.push({
      catalogVariantId: String(variant.catalogVariantId),
      ...(product.catalogProductId !== null ? { catalogProductId: String(product.catalogProductId) } : {}),
      quantity: line.quantity,
      retailPrice: line.price,
      name: line.title.slice(0, 200),
      externalId: line.remoteLineId,
      files,
    });
  }
  return {
    externalId: printerExternalId(order.id),
    earlierExternalIds: [order.remoteOrderId],
    recipient: address,
    items,
    currency: order.currency,
    blanks,
  };
}

/** The input with each line on this printer's own blank (the same type, colour and size), or why it cannot be. */
async function onPrinter(
  workspaceId: string,
  printer: Printer,
  { blanks, ...input }: PrintOrderInput & { blanks: Blank[] },
): Promise<PrintOrderInput> {
  const match = await matchBlanks(printer.adapter, workspaceId, blanks);
  if (!match.ok) throw new OrderProblem(`${printer.adapter.name} cannot print this order: ${match.reason}`);
  return {
    ...input,
    items: input.items.map((item, n) => ({
      ...item,
      catalogVariantId: match.items[n]?.catalogVariantId ?? item.catalogVariantId,
      ...(match.items[n] ? { catalogProductId: String(match.items[n]?.catalogProductId) } : {}),
    })),
  };
}

/**
 * The printer an order goes to under the workspace's routing rule, kept on the order with why before anything is
 * placed (a retry goes to the same printer, so the order reaches one printer once); the order's own when set.
 */
async function routedProvider(deps: OrdersDeps, order: OrderRow): Promise<string | null> {
  if (order.fulfillmentProvider) return order.fulfillmentProvider;
  if ((await getRule(deps, order.workspaceId)).mode === 'first') return null;
  const input = await printInput(deps, order);
  const routed = await routeOrder(deps, order.workspaceId, {
    blanks: input.blanks,
    quantities: input.items.map((i) => i.quantity),
    recipient: input.recipient,
    currency: order.currency,
  });
  if (routed === null) return null;
  if (!routed.ok) throw new OrderProblem(routed.problem);
  await pinPrinter(deps.db, order.id, { provider: routed.provider, reason: routed.reason, at: deps.now() });
  return (await loadOrder(deps, order.id))?.fulfillmentProvider ?? null;
}

/**
 * Our id of an order at the printer: our own order's id, 32 hex digits (fits every printer's external id:
 * the strictest allows 32 of [A-Za-z0-9_-], unique in its store; the store's order number is not: two stores sharing one printer store both have order 1).
 */
export const printerExternalId = (orderId: string) => orderId.replace(/-/g, '');

/** Our order's id from a printer external id of ours, or null (an earlier one: the store's order number). */
const orderIdOfExternal = (externalId: string) => {
  const m = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i.exec(externalId);
  return m ? m.slice(1).join('-').toLowerCase() : null;
};

const costOf = (placed: { cost: { total: string; currency: string } | null }) =>
  placed.cost ? { cost: placed.cost.total, costCurrency: placed.cost.currency } : {};

export type Next = { confirmNow: boolean; confirmAt: Date | null };

/**
 * Step 1 (job): the draft at the printer, exactly once. Answers what comes next under the workspace's setting.
 */
export async function submitToPrinter(deps: OrdersDeps, orderId: string): Promise<Next | null> {
  const order = await loadOrder(deps, orderId);
  if (order?.status !== 'received') return null;
  // The workspace's routing rule picks the printer (kept on the order); else the products' own printer network.
  const routed = await routedProvider(deps, order);
  const network = routed ? undefined : await networkOf(deps, order);
  const printer = await printerFor(deps, order.workspaceId, routed, network);
  await ensureWebhooks(deps, order.workspaceId, printer);
  const input = await onPrinter(order.workspaceId, printer, await printInput(deps, order));
  const pf = await printer.adapter.placeOrder(printer.account, input);
  faults.afterPrinterCreate?.();
  const { orderConfirmation } = await getSettings(deps.db, order.workspaceId);
  const now = deps.now();
  const confirmAt =
    orderConfirmation.mode === 'delay' ? new Date(now.getTime() + orderConfirmation.delayMinutes * 60_000) : null;
  const status: TOrderStatus = orderConfirmation.mode === 'automatic' ? 'received' : 'waiting_approval';
  await updateOrder(
    deps.db,
    order.id,
    {
      printerOrderId: String(pf.id),
      fulfillmentProvider: printer.provider,
      ...costOf(pf),
      status,
      confirmAt,
      failureReason: null,
      updatedAt: now,
    },
    'received',
  );
  return { confirmNow: orderConfirmation.mode === 'automatic', confirmAt };
}

/**
 * Step 2 (job): confirm the draft (from now on the printer charges and prints). A waiting order that was cancelled
 * meanwhile is left alone; a failed one is confirmed again only on the seller's retry.
 */
export async function confirmAtPrinter(deps: OrdersDeps, orderId: string, options: { retry?: boolean } = {}) {
  const order = await loadOrder(deps, orderId);
  if (!order?.printerOrderId) return;
  const allowed: string[] = ['received', 'waiting_approval', ...(options.retry ? ['failed'] : [])];
  if (!allowed.includes(order.status)) return;
  const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider);
  const pf = await printer.adapter.confirm(printer.account, order.printerOrderId);
  await updateOrder(
    deps.db,
    order.id,
    { status: 'sent', confirmedAt: deps.now(), failureReason: null, ...costOf(pf), updatedAt: deps.now() },
    allowed,
  );
}

/** Cancels what has not gone into production: the printer's draft is deleted, a confirmed order cancelled. */
export async function cancelAtPrinter(deps: OrdersDeps, orderId: string, why: string): Promise<void> {
  const order = await loadOrder(deps, orderId);
  if (!order || ['cancelled', 'external', 'shipped', 'delivered'].includes(order.status)) return;
  if (order.status === 'in_production') {
    await setFailure(
      deps,
      order.id,
      `${why}, but the printer is already printing it; cancel it at the printer if you can`,
    );
    return;
  }
  if (order.printerOrderId) {
    const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider);
    await printer.adapter.cancel(printer.account, order.printerOrderId);
  }
  await updateOrder(deps.db, order.id, { status: 'cancelled', failureReason: null, updatedAt: deps.now() });
}

async function setFailure(deps: OrdersDeps, orderId: string, reason: string, status?: TOrderStatus) {
  await updateOrder(deps.db, orderId, {
    failureReason: reason.slice(0, 500),
    ...(status ? { status } : {}),
    updatedAt: deps.now(),
  });
}

/** A step that will not succeed by itself: the order shows the printer's reason and offers a retry. */
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

// Moved: the webhook deliveries' memory is lib/webhook-events.repository.ts.
export { forgetOldWebhookEvents, WEBHOOK_MEMORY_MS } from '../../lib/webhook-events.repository';

/** A verified printer webhook (job): the order moves on; a shipment sends its tracking to the store. */
export async function applyPrinterEvent(
  deps: OrdersDeps,
  workspaceId: string,
  received: PrinterEvent,
  /** The printer's order as it was just read, when the event was made from it (the poll): not read again. */
  readNow?: PrinterOrder,
): Promise<{ fulfilInStore: string | null; shipments?: string }> {
  let event = received;
  let atPrinter = readNow ?? null;
  const ref = event.order;
  if (!ref?.id && !ref?.externalId) return { fulfilInStore: null };
  // By our external id (our order's id), or by an earlier one (the store's order number).
  const ourId = ref.externalId === undefined ? null : orderIdOfExternal(String(ref.externalId));
  const order = await orderOfPrinterRef(
    deps.db,
    workspaceId,
    ref.id !== undefined
      ? { printerOrderId: String(ref.id) }
      : ourId
        ? { orderId: ourId }
        : { remoteOrderId: String(ref.externalId) },
  );
  if (!order?.printerOrderId) return { fulfilInStore: null };
  if (event.unverified) {
    // An unsigned webhook names an order; what moves it is what the printer itself says of it now.
    const printer = await printerFor(deps, workspaceId, order.fulfillmentProvider);
    const now = await printer.adapter.order(printer.account, { id: order.printerOrderId });
    if (!now || now.status === 'draft') return { fulfilInStore: null };
    atPrinter = now;
    const reason =
      now.status === 'failed'
        ? { failureReason: `${printer.adapter.name}: the order failed; its dashboard says why` }
        : now.status === 'on_hold'
          ? { failureReason: `On hold at ${printer.adapter.name}` }
          : now.status === 'shipped' || now.status === 'cancelled'
            ? {}
            : { failureReason: null };
    event = { order: event.order, to: now.status, ...reason, ...(now.moreToShip ? { moreToShip: true } : {}) };
  }
  const current = order.status as TOrderStatus;
  const move = async (to: TOrderStatus, extra: Partial<OrderRow> = {}) => {
    if (!canMove(current, to)) return false;
    await updateOrder(deps.db, order.id, { status: to, ...extra, updatedAt: deps.now() }, current);
    return true;
  };

  const shipped = async () => {
    const printer = await printerFor(deps, workspaceId, order.fulfillmentProvider);
    const printerOrderId = order.printerOrderId as string;
    const list = await printer.adapter.shipments(printer.account, printerOrderId);
    // Shipped in part with no parcel listed yet: nothing to send (a tracking-less fulfilment would take every line).
    if (event.moreToShip && list.length === 0) return { fulfilInStore: null };
    // Each parcel as read, delivered or not: a parcel that arrived is kept as such while others are on their way.
    if (list.length > 0) await recordPrinterShipments(deps.db, order.id, list.map(kept));
    const shipment = list.find((s) => s.id === event.shipment?.id) ?? list[list.length - 1];
    // Delivered when every parcel is, and none is still to come (an order shipped in part waits for the rest). The
    // list holds only the parcels that have left, and an event about one parcel (its delivery, a late or repeated
    // shipment) says nothing of the others: so what is still to come is the printer's order's own word, read now.
    const arrived = !event.moreToShip && list.length > 0 && list.every((s) => s.delivered);
    const delivered =
      arrived && shippedWhole(atPrinter ?? (await printer.adapter.order(printer.account, { id: printerOrderId })));
    const tracking = {
      carrier: shipment?.carrier ?? null,
      trackingNumber: event.shipment?.trackingNumber ?? shipment?.trackingNumber ?? null,
      trackingUrl: shipment?.trackingUrl ?? null,
      // A printer-side reason (a hold) ends with the parcel; once shipped, a reason is the store's (the tracking
      // was not taken: noteStoreFailure), which delivery does not undo (its store step is the shipment's, done once).
      ...(current === 'shipped' ? {} : { failureReason: null }),
    };
    if (delivered && (await move('delivered', tracking))) return { fulfilInStore: order.id };
    if (await move('shipped', tracking)) return { fulfilInStore: order.id };
    // Shipped already: a later parcel (an order shipped in parts) still goes to the store, with its own lines.
    const unsent = unsentShipments(order, list);
    if (['shipped', 'delivered'].includes(current) && unsent.length > 0) {
      return { fulfilInStore: order.id, shipments: unsent.map((s) => s.id).join(',') };
    }
    return { fulfilInStore: null };
  };

  // The adapter read the printer's words into ours: a status, and what becomes of the order's reason.
  if (!event.to) return { fulfilInStore: null };
  if (event.to === 'shipped') return shipped();
  await move(event.to, event.failureReason !== undefined ? { failureReason: event.failureReason } : {});
  return { fulfilInStore: null };
}

/** The printer's order has shipped all of it: shipped (or delivered), with no parcel still to come. */
const shippedWhole = (at: PrinterOrder | null) =>
  at !== null && (at.status === 'shipped' || at.status === 'delivered') && !at.moreToShip;

/** A printer's parcel as the order keeps it (`orders.printer_shipments`). */
const kept = (s: PrinterShipment): KeptShipment => ({
  id: s.id,
  carrier: s.carrier,
  trackingNumber: s.trackingNumber,
  trackingUrl: s.trackingUrl,
  lines: s.lines ?? null,
  delivered: s.delivered,
});

/**
 * The printer's shipments the store has not been sent yet. An order whose tracking went to the store before shipments
 * were sent one by one (`storeShipments` empty, a store id kept) has had its one fulfilment: nothing is left.
 */
function unsentShipments(order: OrderRow, list: PrinterShipment[]): PrinterShipment[] {
  const sent = order.storeShipments ?? {};
  if (order.storeFulfillmentId && Object.keys(sent).length === 0) return [];
  return list.filter((s) => !(s.id in sent));
}

/**
 * The store's fulfilment of each shipment with its carrier, tracking number and URL (the customer is notified),
 * each made once. A shipment that names its lines fulfils those lines, as many as it carries; one that does not
 * (the printer does not say) fulfils all our lines still open, so after one such shipment the next ones have
 * nothing left to send. No shipment read (an order moved to shipped by its status alone): the order's tracking.
 */
export async function fulfilInStore(deps: OrdersDeps, orderId: string) {
  const order = await loadOrder(deps, orderId);
  if (!order || !['shipped', 'delivered'].includes(order.status)) return;
  // The printer's parcels; a printer no longer connected leaves the order's own tracking to send.
  const printer = order.printerOrderId
    ? await printerFor(deps, order.workspaceId, order.fulfillmentProvider).catch((error: unknown) => {
        if (error instanceof OrderProblem) return null;
        throw error;
      })
    : null;
  const list = printer ? await printer.adapter.shipments(printer.account, order.printerOrderId as string) : [];
  if (list.length > 0) {
    await recordPrinterShipments(deps.db, order.id, list.map(kept));
  }
  const shipments: PrinterShipment[] =
    list.length > 0
      ? list
      : [
          {
            id: 'order',
            carrier: order.carrier,
            trackingNumber: order.trackingNumber,
            trackingUrl: order.trackingUrl,
            delivered: false,
          },
        ];
  const unsent = unsentShipments(order, shipments);
  if (unsent.length === 0) return;
  const store = await storeConnection(deps.db, order.workspaceId, order.integrationId);
  if (!store?.accessTokenEnc || store.status !== 'connected') {
    throw new OrderProblem('The store is not connected: the tracking could not be sent to it');
  }
  // The platform's adapter (StorePlatform.sendTracking) sends it the store's way, once.
  const platform = deps.stores.get(store.platform);
  if (!platform) throw new OrderProblem(`${store.platform} stores cannot take tracking`);
  const sent = new Set(Object.keys(order.storeShipments ?? {}));
  for (const shipment of unsent) {
    // A shipment that does not name its lines took every open line: after one, nothing is left for the next.
    const tookAll = [...sent].some((id) => !shipments.find((s) => s.id === id)?.lines);
    const id = tookAll
      ? ''
      : await platform.sendTracking(store, order.remoteOrderId, {
          carrier: shipment.carrier,
          number: shipment.trackingNumber,
          url: shipment.trackingUrl,
          ...(shipment.lines
            ? { lines: shipment.lines.map((l) => ({ remoteLineId: l.lineId, quantity: l.quantity })) }
            : {}),
        });
    await recordStoreShipment(deps.db, order.id, shipment.id, id, deps.now());
    sent.add(shipment.id);
  }
}

/** When the store could not take the tracking: the order stays shipped and says so. */
export async function noteStoreFailure(deps: OrdersDeps, orderId: string, reason: string) {
  await setFailure(deps, orderId, `Tracking not sent to the store: ${reason}`);
}
