import { z } from 'zod';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import type { PrinterEvent, PrinterOrder } from '../printers/fulfilment-provider';
import { applyPrinterEvent, type OrderRow, printerFor } from './fulfilment';
import { enqueue, jobId } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import { orderById, ordersAtPrinter } from './orders.repository';

/**
 * Reconciliation by polling: webhooks get lost (an app down for longer than the printer's retries, a changed
 * secret, a printer whose events say nothing of a delivery), so every PRINTER_POLL_MINUTES each order sent to a
 * printer and not finished is read there through the FulfilmentProvider port (`order()`, then `shipments()` for a
 * shipped one) and moved on exactly as its webhook would have moved it (`applyPrinterEvent`: forward only, the store
 * fulfilment sent once). No printer is named here: whichever adapter the order was placed with answers.
 *
 * A recurring chain like a store's periodic order reads: the job of a period polls, then queues the next period's job,
 * whose id is the period, so every instance sending it adds one job; starting the workers queues the current period's.
 */

/** Statuses of an order at a printer that may still move (shipped: until delivered). */
const OPEN = ['sent', 'in_production', 'on_hold', 'shipped'] as const;
/** A shipped order is followed this long for its delivery; some parcels are never reported delivered. */
const FOLLOW_SHIPPED_MS = 60 * 24 * 3600_000;
/** Orders read by one poll (the least recently changed first); the rest wait for the next period. */
const BATCH = 200;

export type PollResult = { read: number; moved: number };

/** The printer's status of one order in our words, as an event the webhook path would apply. */
function eventOf(name: string, printerOrderId: string, { status: to, moreToShip }: PrinterOrder): PrinterEvent {
  if (to === 'draft') return { order: { id: printerOrderId } };
  if (to === 'failed') return { order: { id: printerOrderId }, to, failureReason: `${name}: the order failed` };
  if (to === 'on_hold') return { order: { id: printerOrderId }, to, failureReason: `${name}: the order is on hold` };
  // Shipped in part (the port's `partial`): the parcels that left are read and sent, the rest come later.
  return { order: { id: printerOrderId }, to, failureReason: null, ...(moreToShip ? { moreToShip } : {}) };
}

async function pollOne(deps: OrdersDeps, order: OrderRow): Promise<boolean> {
  const printerOrderId = order.printerOrderId as string;
  const printer = await printerFor(deps, order.workspaceId, order.fulfillmentProvider);
  const at = await printer.adapter.order(printer.account, { id: printerOrderId });
  if (!at || at.status === 'draft') return false;
  const { fulfilInStore, shipments } = await applyPrinterEvent(
    deps,
    order.workspaceId,
    eventOf(printer.adapter.name, printerOrderId, at),
    at,
  );
  if (fulfilInStore) await enqueue.storeFulfil(deps, fulfilInStore, shipments);
  const after = await orderById(deps.db, order.id);
  return after?.status !== order.status;
}

/** One poll of every open order (the job's work); one order's failure (printer unreachable) does not stop the rest. */
export async function pollPrinterOrders(deps: OrdersDeps): Promise<PollResult> {
  const shippedSince = new Date(deps.now().getTime() - FOLLOW_SHIPPED_MS);
  const open = await ordersAtPrinter(deps.db, { statuses: [...OPEN], shippedSince, limit: BATCH });
  let moved = 0;
  for (const order of open) {
    try {
      if (await pollOne(deps, order)) moved += 1;
    } catch (error) {
      deps.jobs.log.warn({ err: error, orderId: order.id }, 'printer poll: order not read');
    }
  }
  return { read: open.length, moved };
}

const periodMs = (deps: OrdersDeps) => deps.config.printerPollMinutes * 60_000;

/** Queues the poll of the period starting at `at` (its id is the period: one job however many instances send it). */
export function queuePrinterPoll(deps: OrdersDeps, at: Date) {
  const period = Math.floor(at.getTime() / periodMs(deps));
  return sendJob(deps.jobs, printerPollJob, {}, { id: jobId(`printer-poll:${period}`), startAfter: at });
}

export const printerPollJob = defineJob({
  name: QUEUES.printerPoll,
  payload: z.object({}),
  retry: { retryLimit: 2, retryDelay: 30, retryBackoff: true },
  workers: { pollingIntervalSeconds: 5, batchSize: 1 },
  handle: async (deps: OrdersDeps) => {
    try {
      await pollPrinterOrders(deps);
    } finally {
      const next = (Math.floor(deps.now().getTime() / periodMs(deps)) + 1) * periodMs(deps);
      await queuePrinterPoll(deps, new Date(next));
    }
  },
  started: async (deps: OrdersDeps) => {
    await queuePrinterPoll(deps, deps.now());
  },
});
