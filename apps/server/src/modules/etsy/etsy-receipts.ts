import { randomUUID } from 'node:crypto';
import { ETSY_ORDER_READ_MINUTES } from '@podforge/contract';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { type JobQueue, QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import {
  advanceOrdersCursor,
  connectedStoresOf,
  publishedRemoteIds,
  storeOfPlatform,
} from '../stores/store-connections.repository';
import { EtsyScopeMissing, type EtsyService, etsyScopeProblem } from './etsy.service';

/**
 * Etsy orders in, the adapter's side of the StorePlatform port. Etsy's Open API v3 has no webhook an app can
 * subscribe to through the API (they are set up per app in Etsy's developer portal), so each connected shop's
 * receipts are read by a durable job (`etsy-receipts`): every ETSY_READ_EVERY_MS, and at once when the shop is
 * connected or a sandbox test order is placed. A read asks the port's `readOrders` for what changed at or after the
 * stored cursor (`integrations.orders_cursor`, the last `update_timestamp` taken), oldest change first, hands each
 * order to the order intake and then moves the cursor, so a restart misses nothing. A receipt read again (the
 * cursor's own second, or a read that crashed between storing an order and moving the cursor) is stored once: orders
 * are unique per store and remote order, and the printer job's id is stable.
 *
 * A paid receipt is taken (lines matched by the product id recorded at push, else SKU; money as amount / divisor in
 * integers); one with lines of ours goes to the printer. A cancelled or fully refunded receipt cancels what has not
 * gone into production. An unpaid one waits: its payment changes it, so it is read again.
 */

/** How often each connected shop's receipts are read. */
export const ETSY_READ_EVERY_MS = ETSY_ORDER_READ_MINUTES * 60_000;

/** Test switch: a fault after a receipt's order is stored and before the cursor moves, as a crash would leave it. */
export const etsyReadFaults: { afterReceiptStored: (() => void) | null } = { afterReceiptStored: null };

export type EtsyReadDeps = { db: Db; jobs: JobQueue; now: () => Date; etsy: EtsyService };

export type EtsyReadResult = { receipts: number } | { problem: string } | null;

/**
 * One read of a shop's receipts since its cursor (the job's work). The first read starts at the shop's connection:
 * sales made before Podforge was connected are not sent to the printer.
 */
export async function readEtsyOrders(deps: EtsyReadDeps, integrationId: string): Promise<EtsyReadResult> {
  const store = await storeOfPlatform(deps.db, 'etsy', integrationId);
  if (store?.status !== 'connected') return null;
  const from = store.ordersCursor ?? Math.floor(store.createdAt.getTime() / 1000);
  let taken = 0;
  try {
    const orders = await deps.etsy.readOrders(store, new Date(from * 1000));
    // The built-in sandbox has one shop that every workspace on this server connects: a workspace takes only the
    // receipts that buy at least one listing it pushed there (a real shop is one seller's, and all are taken).
    const mine = store.sandbox ? await publishedRemoteIds(deps.db, store) : null;
    for (const order of orders) {
      if (mine && !order.lines.some((l) => l.remoteProductId && mine.has(l.remoteProductId))) continue;
      await deps.etsy.intake().take({ store, orders: [order], via: 'delivered' });
      etsyReadFaults.afterReceiptStored?.();
      if (order.changedAt) await advanceOrdersCursor(deps.db, store, Math.floor(order.changedAt.getTime() / 1000));
      taken += 1;
    }
    // The first read starts the cursor at the connection, also when it found nothing.
    await advanceOrdersCursor(deps.db, store, from);
  } catch (error) {
    if (!(error instanceof EtsyScopeMissing)) throw error;
    if (store.problem !== error.message) await deps.etsy.setProblem(store, error.message);
    return { problem: error.message };
  }
  // Read: the read's own problem is over; a connection that cannot send tracking says so before a parcel ships.
  const problem = !deps.etsy.hasScope(store, 'transactions_w')
    ? etsyScopeProblem('transactions_w')
    : store.problem === etsyScopeProblem('transactions_r')
      ? null
      : store.problem;
  if (problem !== store.problem) await deps.etsy.setProblem(store, problem);
  return { receipts: taken };
}

/**
 * Queues a read of the shop: `now` (a new connection, a sandbox order) or the read of the period starting at `at`,
 * whose job id is the shop and the period, so every instance sending it adds one job.
 */
export function queueEtsyRead(deps: EtsyReadDeps, integrationId: string, at: Date | 'now') {
  const key = at === 'now' ? `now:${randomUUID()}` : `period:${Math.floor(at.getTime() / ETSY_READ_EVERY_MS)}`;
  return sendJob(
    deps.jobs,
    etsyReceiptsJob,
    { integrationId },
    {
      id: jobIdOf(`etsy-receipts:${integrationId}:${key}`),
      ...(at === 'now' ? {} : { startAfter: at }),
    },
  );
}

const nextPeriod = (now: Date) => new Date((Math.floor(now.getTime() / ETSY_READ_EVERY_MS) + 1) * ETSY_READ_EVERY_MS);

/** A shop that may have orders now (connected, a sandbox test order) is read at once. */
export function registerEtsyReads(deps: EtsyReadDeps) {
  deps.etsy.onOrdersToRead(async (row) => {
    try {
      await queueEtsyRead(deps, row.id, 'now');
      await wakeWorkers(deps.jobs, etsyReceiptsJob);
    } catch (error) {
      // The connect (or the test order) stands; the shop's next periodic read takes its orders.
      deps.jobs.log.error({ err: error, integrationId: row.id }, 'Etsy read not queued');
    }
  });
}

/**
 * One read of a shop, then the next period's read queued (also when it failed, so the chain goes on while the shop
 * is connected). Once this instance's worker is started, each connected shop's read of the current period is
 * queued: a restart starts the chains again.
 */
export const etsyReceiptsJob = defineJob({
  name: QUEUES.etsyReceipts,
  payload: z.object({ integrationId: z.string() }),
  retry: { retryLimit: 3, retryDelay: 5, retryBackoff: true },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: EtsyReadDeps, job) => {
    let result: EtsyReadResult | undefined;
    try {
      result = await readEtsyOrders(deps, job.data.integrationId);
    } finally {
      // null: the shop is gone or disconnected, and its reads stop until it is connected again.
      if (result !== null) await queueEtsyRead(deps, job.data.integrationId, nextPeriod(deps.now()));
    }
  },
  started: async (deps: EtsyReadDeps) => {
    const shops = await connectedStoresOf(deps.db, 'etsy');
    for (const shop of shops) await queueEtsyRead(deps, shop.id, deps.now());
  },
});
