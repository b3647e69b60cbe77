import type { AppDeps } from '../../deps';
import { QUEUES } from '../../jobs/job-queue';
import { processWebhookEvent, type ShopifyJob } from './shopify-webhooks';

/**
 * Runs recorded Shopify webhook events on this instance. pg-boss hands each job to one worker across instances; a
 * handler that throws leaves the event unprocessed and pg-boss retries it with backoff.
 */
export async function startShopifyWebhookWorker(deps: AppDeps, options: { pollingIntervalSeconds?: number } = {}) {
  await deps.jobs.work<ShopifyJob>(
    QUEUES.shopifyWebhook,
    { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 5 },
    async (jobs) => {
      for (const job of jobs) await processWebhookEvent(deps, job.data.eventRowId);
    },
  );
}
