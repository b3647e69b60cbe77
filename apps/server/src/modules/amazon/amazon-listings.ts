import { z } from 'zod';
import type { Db } from '../../db/client';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { type JobQueue, QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { connectedStoresOf, storeOfPlatform } from '../stores/store-connections.repository';
import type { AmazonService } from './amazon.service';

/**
 * Amazon's listing issues in the background (issue #30: ACCEPTED is not listed). A durable chain per connected
 * seller (`amazon-listings`) reads each published listing family with getListingsItem (summaries and issues, one
 * call per SKU, within the operation's token bucket) every AMAZON_LISTINGS_CHECK_MINUTES and stores its state and
 * issues on the publication, so My Products shows them without anyone opening the product, and open screens follow
 * (a changed publication moves the events stream). A run checks at most LISTINGS_PER_RUN families and goes on from
 * the last one in the next job; a family Amazon is still processing is read again a little later, and a push just
 * accepted queues a read of its seller. LISTINGS_ITEM_ISSUES_CHANGE notifications (amazon-notifications.ts) update
 * one family at once when the queue is configured; this poll runs always.
 */

export const AMAZON_LISTINGS_CHECK_MINUTES = 30;
const CHECK_EVERY_MS = AMAZON_LISTINGS_CHECK_MINUTES * 60_000;
/** Families per run: at most a few hundred getListingsItem calls, a minute or two of the 5-a-second bucket. */
const LISTINGS_PER_RUN = 50;
/** How soon a family Amazon is processing, or a push just accepted, is read (the sandbox processes in seconds). */
const RECHECK_MS = { amazon: 2 * 60_000, sandbox: 10_000 };

export type AmazonListingsDeps = { db: Db; jobs: JobQueue; now: () => Date; amazon: AmazonService };

const recheckMs = (deps: AmazonListingsDeps) => (deps.amazon.sandboxMode ? RECHECK_MS.sandbox : RECHECK_MS.amazon);

function queueCheck(
  deps: AmazonListingsDeps,
  integrationId: string,
  key: string,
  startAfter: Date,
  after: string | null = null,
) {
  return sendJob(
    deps.jobs,
    amazonListingsJob,
    { integrationId, after },
    { id: jobIdOf(`amazon-listings:${integrationId}:${key}`), startAfter },
  );
}

/** The next period's run (one job id per period, so a restart's chain and a running one are the same job). */
const queuePeriod = (deps: AmazonListingsDeps, integrationId: string, now: Date) => {
  const period = Math.floor(now.getTime() / CHECK_EVERY_MS) + 1;
  return queueCheck(deps, integrationId, `period:${period}`, new Date(period * CHECK_EVERY_MS));
};

/** A read a little later (a push just accepted, or a family still processing), one per window of RECHECK_MS. */
const queueSoon = (deps: AmazonListingsDeps, integrationId: string) => {
  const ms = recheckMs(deps);
  const window = Math.floor(deps.now().getTime() / ms) + 1;
  return queueCheck(deps, integrationId, `soon:${window}`, new Date(window * ms));
};

/** How long a family's read waits for more of its SKUs' notifications (a family's children change together). */
const FAMILY_WINDOW_MS = 5_000;

/** One family read soon: the notifications of its SKUs within a window are one read. */
export async function queueFamilyCheck(deps: AmazonListingsDeps, integrationId: string, publicationId: string) {
  const window = Math.floor(deps.now().getTime() / FAMILY_WINDOW_MS) + 1;
  await sendJob(
    deps.jobs,
    amazonListingsJob,
    { integrationId, after: null, publicationId },
    {
      id: jobIdOf(`amazon-listings:${integrationId}:family:${publicationId}:${window}`),
      startAfter: new Date(window * FAMILY_WINDOW_MS),
    },
  );
  await wakeWorkers(deps.jobs, amazonListingsJob);
}

/** A push Amazon accepted is read once Amazon has had time to process it. */
export function registerAmazonListingChecks(deps: AmazonListingsDeps) {
  deps.amazon.onListingsToCheck(async (row) => {
    try {
      await queueSoon(deps, row.id);
      await wakeWorkers(deps.jobs, amazonListingsJob);
    } catch (error) {
      deps.jobs.log.error({ err: error, integrationId: row.id }, 'Amazon listing check not queued');
    }
  });
}

export const amazonListingsJob = defineJob({
  name: QUEUES.amazonListings,
  /** `publicationId`: that one family only (a notification named one of its SKUs). */
  payload: z.object({ integrationId: z.string(), after: z.string().nullable(), publicationId: z.string().optional() }),
  retry: { retryLimit: 3, retryDelay: 60, retryBackoff: true },
  workers: { pollingIntervalSeconds: 2, batchSize: 1 },
  handle: async (deps: AmazonListingsDeps, job) => {
    const store = await storeOfPlatform(deps.db, 'amazon', job.data.integrationId);
    if (store?.status !== 'connected') return;
    if (job.data.publicationId) {
      await deps.amazon.refreshListings(store, null, 1, job.data.publicationId);
      return;
    }
    const { next, processing } = await deps.amazon.refreshListings(store, job.data.after, LISTINGS_PER_RUN);
    if (next) await queueCheck(deps, store.id, `after:${next}:${job.id}`, deps.now(), next);
    if (processing) await queueSoon(deps, store.id);
    // Only the chain's own run (not a soon read, nor a continuation) queues the next period: one chain per seller.
    if (job.data.after === null) await queuePeriod(deps, store.id, deps.now());
  },
  started: async (deps: AmazonListingsDeps) => {
    for (const seller of await connectedStoresOf(deps.db, 'amazon')) await queuePeriod(deps, seller.id, deps.now());
  },
});
