import { randomUUID } from 'node:crypto';
import { ETSY_ORDER_READ_MINUTES } from '@podforge/contract';
import { and, eq, sql } from 'drizzle-orm';
import { integrations, publications } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { EtsyReceipt } from '../../integrations/etsy/client';
import { fromEtsyReceipt } from '../../integrations/etsy/mapping';
import { QUEUES } from '../../jobs/job-queue';
import { EtsyScopeMissing, etsyScopeProblem } from '../etsy/etsy.service';
import { cancelStoreOrder, receiveStoreOrder } from './order-intake';
import { jobId } from './order-jobs';

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

async function takeReceipt(deps: AppDeps, store: StoreRow, receipt: EtsyReceipt) {
  const incoming = fromEtsyReceipt(receipt);
  if (!incoming) return;
  if (incoming.cancelled) await cancelStoreOrder(deps, store.id, incoming.remoteOrderId, 'Cancelled on Etsy');
  else await receiveStoreOrder(deps, store, incoming);
}

/** Moves the cursor forward only (two reads of one shop at once never move it back). */
async function saveCursor(deps: AppDeps, store: StoreRow, cursor: number) {
  await deps.db
    .update(integrations)
    .set({ ordersCursor: sql`greatest(coalesce(${integrations.ordersCursor}, 0), ${cursor})` })
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

/**
 * The built-in sandbox has one shop that every workspace on this server connects: a workspace reads only the
 * receipts that buy at least one listing it pushed there (a real shop is one seller's, and all its receipts are read).
 */
async function sandboxListings(deps: AppDeps, store: StoreRow): Promise<Set<string>> {
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
export async function readEtsyOrders(deps: AppDeps, integrationId: string): Promise<EtsyReadResult> {
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
export function queueEtsyRead(deps: AppDeps, integrationId: string, at: Date | 'now') {
  const key = at === 'now' ? `now:${randomUUID()}` : `period:${Math.floor(at.getTime() / ETSY_READ_EVERY_MS)}`;
  return deps.jobs.send(
    QUEUES.etsyReceipts,
    { integrationId },
    {
      retryLimit: 3,
      retryDelay: 5,
      retryBackoff: true,
      id: jobId(`etsy-receipts:${integrationId}:${key}`),
      ...(at === 'now' ? {} : { startAfter: at }),
    },
  );
}

const nextPeriod = (now: Date) => new Date((Math.floor(now.getTime() / ETSY_READ_EVERY_MS) + 1) * ETSY_READ_EVERY_MS);

/** This instance's reader worker per app, woken when a read is asked for now. */
const workers = new WeakMap<AppDeps, string>();

/** A shop that may have orders now (connected, a sandbox test order) is read at once: the Etsy module tells us. */
export function registerEtsyOrders(deps: AppDeps) {
  deps.etsy.onOrdersToRead(async (row) => {
    try {
      await queueEtsyRead(deps, row.id, 'now');
      const workerId = workers.get(deps);
      if (workerId) await deps.jobs.notify(workerId);
    } catch (error) {
      // The connect (or the test order) stands; the shop's next periodic read takes its orders.
      deps.jobs.log.error({ err: error, integrationId: row.id }, 'Etsy read not queued');
    }
  });
}

/**
 * This instance's worker, and each connected shop's read of the current period queued (a read queues the next
 * period's, also when it failed, so the chain goes on while the shop is connected; a restart queues it again).
 */
export async function startEtsyOrderReads(deps: AppDeps, options: { pollingIntervalSeconds?: number } = {}) {
  const workerId = await deps.jobs.work<{ integrationId: string }>(
    QUEUES.etsyReceipts,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, batchSize: 1 },
    async (jobs) => {
      for (const job of jobs) {
        let result: EtsyReadResult | undefined;
        try {
          result = await readEtsyOrders(deps, job.data.integrationId);
        } finally {
          // null: the shop is gone or disconnected, and its reads stop until it is connected again.
          if (result !== null) await queueEtsyRead(deps, job.data.integrationId, nextPeriod(deps.now()));
        }
      }
    },
  );
  if (workerId) workers.set(deps, workerId);
  const shops = await deps.db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.platform, 'etsy'), eq(integrations.status, 'connected')));
  for (const shop of shops) await queueEtsyRead(deps, shop.id, deps.now());
}
