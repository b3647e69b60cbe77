import { randomUUID } from 'node:crypto';
import { AMAZON_ORDER_READ_MINUTES } from '@podforge/contract';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { integrations } from '../../db/schema';
import { defineJob, sendJob } from '../../jobs/define-job';
import { QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { cancelStoreOrder, receiveStoreOrder } from './order-intake';
import { jobId } from './order-jobs';
import type { OrdersDeps } from './orders.deps';

/**
 * Amazon orders into the same pipeline as the other stores', through the StorePlatform port's `readOrders` (Orders
 * 2026-01-01 searchOrders by `lastUpdatedAfter`). Amazon's ORDER_CHANGE notification goes to the seller's own SQS
 * queue or EventBridge bus, and whether every new order emits one was disputed, so polling is the source of truth:
 * a durable job (`amazon-orders`) reads each connected seller every AMAZON_ORDER_READ_MINUTES (searchOrders allows a
 * call every 3 minutes, 20 at once), and at once when it is connected or a sandbox test order is placed.
 *
 * The cursor (`integrations.orders_cursor`, epoch seconds) is the start of the last read that finished, less a
 * minute of overlap: an order read twice is stored once (unique per store and remote order), a crash before the
 * cursor moves reads the same window again. Lines are matched to our variants by SKU; a paid order with lines of
 * ours goes to the printer per the workspace's approval setting, a cancelled one cancels what is not in production.
 */

export const AMAZON_READ_EVERY_MS = AMAZON_ORDER_READ_MINUTES * 60_000;
const OVERLAP_SECONDS = 60;

type StoreRow = typeof integrations.$inferSelect;

export type AmazonReadResult = { orders: number } | null;

export async function readAmazonOrders(deps: OrdersDeps, integrationId: string): Promise<AmazonReadResult> {
  const [store] = await deps.db.select().from(integrations).where(eq(integrations.id, integrationId));
  if (store?.platform !== 'amazon' || store.status !== 'connected') return null;
  const platform = deps.stores.get('amazon');
  if (!platform) return null;
  const startedAt = Math.floor(deps.now().getTime() / 1000);
  const from = store.ordersCursor ?? Math.floor(store.createdAt.getTime() / 1000);
  const incoming = await platform.readOrders(store, new Date(from * 1000));
  for (const order of incoming) {
    if (order.cancelled) await cancelStoreOrder(deps, store.id, order.remoteOrderId, 'Cancelled on Amazon');
    else await receiveStoreOrder(deps, store, order);
  }
  await saveCursor(deps, store, startedAt - OVERLAP_SECONDS);
  return { orders: incoming.length };
}

async function saveCursor(deps: OrdersDeps, store: StoreRow, cursor: number) {
  await deps.db
    .update(integrations)
    .set({ ordersCursor: sql`greatest(coalesce(${integrations.ordersCursor}, 0), ${cursor})` })
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

export function queueAmazonRead(deps: OrdersDeps, integrationId: string, at: Date | 'now') {
  const key = at === 'now' ? `now:${randomUUID()}` : `period:${Math.floor(at.getTime() / AMAZON_READ_EVERY_MS)}`;
  return sendJob(
    deps.jobs,
    amazonOrdersJob,
    { integrationId },
    { id: jobId(`amazon-orders:${integrationId}:${key}`), ...(at === 'now' ? {} : { startAfter: at }) },
  );
}

const nextPeriod = (now: Date) =>
  new Date((Math.floor(now.getTime() / AMAZON_READ_EVERY_MS) + 1) * AMAZON_READ_EVERY_MS);

export function registerAmazonOrders(deps: OrdersDeps) {
  deps.amazon.onOrdersToRead(async (row) => {
    try {
      await queueAmazonRead(deps, row.id, 'now');
      await wakeWorkers(deps.jobs, amazonOrdersJob);
    } catch (error) {
      deps.jobs.log.error({ err: error, integrationId: row.id }, 'Amazon read not queued');
    }
  });
}

export const amazonOrdersJob = defineJob({
  name: QUEUES.amazonOrders,
  payload: z.object({ integrationId: z.string() }),
  retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: OrdersDeps, job) => {
    let result: AmazonReadResult | undefined;
    try {
      result = await readAmazonOrders(deps, job.data.integrationId);
    } finally {
      if (result !== null) await queueAmazonRead(deps, job.data.integrationId, nextPeriod(deps.now()));
    }
  },
  started: async (deps: OrdersDeps) => {
    const sellers = await deps.db
      .select({ id: integrations.id })
      .from(integrations)
      .where(and(eq(integrations.platform, 'amazon'), eq(integrations.status, 'connected')));
    for (const seller of sellers) await queueAmazonRead(deps, seller.id, deps.now());
  },
});
