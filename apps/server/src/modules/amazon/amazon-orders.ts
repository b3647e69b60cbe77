import { randomUUID } from 'node:crypto';
import { AMAZON_ORDER_READ_MINUTES } from '@podforge/contract';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { type JobQueue, QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { advanceOrdersCursor, connectedStoresOf, storeOfPlatform } from '../stores/store-connections.repository';
import type { AmazonService } from './amazon.service';

/**
 * Amazon orders in, the adapter's side of the StorePlatform port (Orders 2026-01-01 searchOrders by
 * `lastUpdatedAfter`). Amazon's ORDER_CHANGE notification reaches only an SQS queue or EventBridge bus (taken from the
 * app's queue when AMAZON_SQS_QUEUE_URL is set, amazon-notifications.ts), and whether every new order emits one was
 * disputed, so polling is the source of truth and always on: a durable job (`amazon-orders`)
 * reads each connected seller every AMAZON_ORDER_READ_MINUTES (searchOrders allows a call every 3 minutes, 20 at
 * once), and at once when it is connected or a sandbox test order is placed. Each read hands what the port's
 * `readOrders` answers to the orders module's one intake.
 *
 * The cursor (`integrations.orders_cursor`, epoch seconds) is the start of the last read that finished, less a
 * minute of overlap: an order read twice is stored once (unique per store and remote order), a crash before the
 * cursor moves reads the same window again.
 */

export const AMAZON_READ_EVERY_MS = AMAZON_ORDER_READ_MINUTES * 60_000;
const OVERLAP_SECONDS = 60;

export type AmazonReadDeps = { db: Db; jobs: JobQueue; now: () => Date; amazon: AmazonService };

export type AmazonReadResult = { orders: number } | null;

export async function readAmazonOrders(deps: AmazonReadDeps, integrationId: string): Promise<AmazonReadResult> {
  const store = await storeOfPlatform(deps.db, 'amazon', integrationId);
  if (store?.status !== 'connected') return null;
  const startedAt = Math.floor(deps.now().getTime() / 1000);
  const from = store.ordersCursor ?? Math.floor(store.createdAt.getTime() / 1000);
  const incoming = await deps.amazon.readOrders(store, new Date(from * 1000));
  if (incoming.length > 0) await deps.amazon.intake().take({ store, orders: incoming, via: 'delivered' });
  await advanceOrdersCursor(deps.db, store, startedAt - OVERLAP_SECONDS);
  return { orders: incoming.length };
}

export function queueAmazonRead(deps: AmazonReadDeps, integrationId: string, at: Date | 'now') {
  const key = at === 'now' ? `now:${randomUUID()}` : `period:${Math.floor(at.getTime() / AMAZON_READ_EVERY_MS)}`;
  return sendJob(
    deps.jobs,
    amazonOrdersJob,
    { integrationId },
    { id: jobIdOf(`amazon-orders:${integrationId}:${key}`), ...(at === 'now' ? {} : { startAfter: at }) },
  );
}

const nextPeriod = (now: Date) =>
  new Date((Math.floor(now.getTime() / AMAZON_READ_EVERY_MS) + 1) * AMAZON_READ_EVERY_MS);

/** A seller that may have orders now (connected, a sandbox test order) is read at once. */
export function registerAmazonReads(deps: AmazonReadDeps) {
  deps.amazon.onOrdersToRead(async (row) => {
    try {
      await queueAmazonRead(deps, row.id, 'now');
      await wakeWorkers(deps.jobs, amazonOrdersJob);
    } catch (error) {
      deps.jobs.log.error({ err: error, integrationId: row.id }, 'Amazon read not queued');
    }
  });
}

/** One read of a seller, then the next period's queued; a restart starts each connected seller's chain again. */
export const amazonOrdersJob = defineJob({
  name: QUEUES.amazonOrders,
  payload: z.object({ integrationId: z.string() }),
  retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: AmazonReadDeps, job) => {
    let result: AmazonReadResult | undefined;
    try {
      result = await readAmazonOrders(deps, job.data.integrationId);
    } finally {
      if (result !== null) await queueAmazonRead(deps, job.data.integrationId, nextPeriod(deps.now()));
    }
  },
  started: async (deps: AmazonReadDeps) => {
    const sellers = await connectedStoresOf(deps.db, 'amazon');
    for (const seller of sellers) await queueAmazonRead(deps, seller.id, deps.now());
  },
});
