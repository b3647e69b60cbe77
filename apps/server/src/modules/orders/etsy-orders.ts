import { randomUUID } from 'node:crypto';
import { ETSY_ORDER_READ_MINUTES } from '@podforge/contract';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { integrations, publications } from '../../db/schema';
import type { EtsyReceipt } from '../../integrations/etsy/client';
import { fromEtsyReceipt } from '../../integrations/etsy/mapping';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { EtsyScopeMissing, etsyScopeProblem } from '../etsy/etsy.service';
import { cancelStoreOrder, receiveStoreOrder } from './order-intake';
import { jobId } from './order-jobs';
import type { OrdersDeps } from './orders.deps';

/**
 * Etsy orders into the same pipeline as Shopify's and WooCommerce's. Etsy's Open API v3 has no webhook an app can
 * subscribe to through the API (they are set up per app in Etsy's developer portal), so each connected shop's
 * receipts are read by a durable job (`etsy-receipts`): every ETSY_READ_EVERY_MS, and at once when the shop is
 * connected or a sandbox test order is placed. A read asks getShopReceipts for what changed at or after the stored
 * cursor (`integrations.orders_cursor`, the last `update_timestamp` taken), oldest change first, a page at a time,
 * and moves the cursor after each page, so a restart misses nothing. A receipt read again (the cursor's own
 * second, or a read that crashed between storing an order and moving the cursor) is stored once: orders are
 * unique per store and remote order, and the printer job's id is stable.
 *
 * A paid receipt becomes an IncomingOrder (lines matched by the product id recorded at push, else SKU; money as
 * amount / divisor in integers); one with lines of ours goes to the printer. A cancelled or fully refunded receipt
 * cancels what has not gone into production. An unpaid one waits: its payment changes it, so it is read again.
 */

/** How often each connected shop's receipts are read. */
export const ETSY_READ_EVERY_MS = ETSY_ORDER_READ_MINUTES * 60_000;
/** getShopReceipts' largest page. */
const PAGE = 100;

/** Test switch: a fault after a receipt's order is stored and before the cursor moves, as a crash would leave it. */
export const etsyReadFaults: { afterReceiptStored: (() => void) | null } = { afterReceiptStored: null };

export { fromEtsyReceipt };

type StoreRow = typeof integrations.$inferSelect;

async function takeReceipt(deps: OrdersDeps, store: StoreRow, receipt: EtsyReceipt) {
  const incoming = fromEtsyReceipt(receipt);
  if (!incoming) return;
  if (incoming.cancelled) await cancelStoreOrder(deps, store.id, incoming.remoteOrderId, 'Cancelled on Etsy');
  else await receiveStoreOrder(deps, store, incoming);
}

/** Moves the cursor forward only (two reads of one shop at once never move it back). */
async function saveCursor(deps: OrdersDeps, store: StoreRow, cursor: number) {
  await deps.db
    .update(integrations)
    .set({ ordersCursor: sql`greatest(coalesce(${integrations.ordersCursor}, 0), ${cursor})` })
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

/**
 * The built-in sandbox has one shop that every workspace on this server connects: a workspace reads only the
 * receipts that buy at least one listing it pushed there (a real shop is one seller's, and all its receipts are read).
 */
async function sandboxListings(deps: OrdersDeps, store: StoreRow): Promise<Set<string>> {
  const rows = await deps.db
    .select({ remoteProductId: publications.remoteProductId })
    .from(publications)
    .where(and(eq(publications.integrationId, store.id), eq(publications.workspaceId, store.workspaceId)));
  return new Set(rows.map((r) => r.remoteProductId).filter((id): id is string => Boolean(id)));
}

export type EtsyReadResult = { receipts: number } | { problem: string } | null;

/**
 * One read of a shop's receipts since its cursor (the job's work). The first read starts at the shop's connection:
 * sales made before Podforge was connected are not sent to the printer.
 */
export async function readEtsyOrders(deps: OrdersDeps, integrationId: string): Promise<EtsyReadResult> {
  const [store] = await deps.db.select().from(integrations).where(eq(integrations.id, integrationId));
  if (store?.platform !== 'etsy' || store.status !== 'connected') return null;
  const from = store.ordersCursor ?? Math.floor(store.createdAt.getTime() / 1000);
  const mine = store.sandbox ? await sandboxListings(deps, store) : null;
  let taken = 0;
  try {
    for (let offset = 0; ; offset += PAGE) {
      const page = await deps.etsy.receiptsSince(store, from, offset, PAGE);
      let cursor = from;
      for (const receipt of page.results) {
        if (!mine || receipt.transactions.some((t) => mine.has(String(t.listing_id))))
          await takeReceipt(deps, store, receipt);
        etsyReadFaults.afterReceiptStored?.();
        cursor = Math.max(cursor, receipt.update_timestamp);
        taken += 1;
      }
      await saveCursor(deps, store, cursor);
      if (page.results.length < PAGE || offset + PAGE >= page.count) break;
    }
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
export function queueEtsyRead(deps: OrdersDeps, integrationId: string, at: Date | 'now') {
  const key = at === 'now' ? `now:${randomUUID()}` : `period:${Math.floor(at.getTime() / ETSY_READ_EVERY_MS)}`;
  return sendJob(
    deps.jobs,
    etsyReceiptsJob,
    { integrationId },
    {
      id: jobId(`etsy-receipts:${integrationId}:${key}`),
      ...(at === 'now' ? {} : { startAfter: at }),
    },
  );
}

const nextPeriod = (now: Date) => new Date((Math.floor(now.getTime() / ETSY_READ_EVERY_MS) + 1) * ETSY_READ_EVERY_MS);

/** A shop that may have orders now (connected, a sandbox test order) is read at once: the Etsy module tells us. */
export function registerEtsyOrders(deps: OrdersDeps) {
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
  handle: async (deps: OrdersDeps, job) => {
    let result: EtsyReadResult | undefined;
    try {
      result = await readEtsyOrders(deps, job.data.integrationId);
    } finally {
      // null: the shop is gone or disconnected, and its reads stop until it is connected again.
      if (result !== null) await queueEtsyRead(deps, job.data.integrationId, nextPeriod(deps.now()));
    }
  },
  started: async (deps: OrdersDeps) => {
    const shops = await deps.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.platform, 'etsy'), eq(integrations.status, 'connected')));
    for (const shop of shops) await queueEtsyRead(deps, shop.id, deps.now());
  },
});
