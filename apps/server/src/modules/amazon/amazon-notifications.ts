import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { readNotification } from '../../integrations/amazon/notifications';
import { defineJob, jobIdOf, sendJob } from '../../jobs/define-job';
import { type JobQueue, QUEUES } from '../../jobs/job-queue';
import { wakeWorkers } from '../../jobs/workers';
import { connectedStoresOf, storeOfPlatform } from '../stores/store-connections.repository';
import type { AmazonService } from './amazon.service';
import { queueFamilyCheck } from './amazon-listings';

/**
 * Amazon's notifications, when AMAZON_SQS_QUEUE_URL is set (SP-API delivers only to SQS or EventBridge). On connect
 * the seller is subscribed to ORDER_CHANGE and LISTINGS_ITEM_ISSUES_CHANGE with the app's destination for the queue
 * (AmazonService.subscribe). `amazon-sqs` long-polls the queue (ReceiveMessage, up to AMAZON_SQS_WAIT_SECONDS), and
 * each message, checked against Amazon's schema of its type, becomes one `amazon-notification` job whose id is the
 * notification's NotificationId, before it is deleted from the queue: a message delivered twice (SQS is at least
 * once) adds no second job, and a crash between the two leaves the message to come back, not lost. A message that is
 * no notification of ours is logged and deleted. The `amazon-notification` job reads the order (getOrder) into the
 * one order intake, or queues a read of the SKU's listing family (amazon-listings.ts), whose issues go onto its
 * publication. Polling (amazon-orders.ts,
 * amazon-listings.ts) stays on: a notification only makes things sooner.
 */

export type AmazonNotificationDeps = {
  db: Db;
  jobs: JobQueue;
  now: () => Date;
  config: Pick<Config, 'amazonSqs'>;
  amazon: AmazonService;
};

/**
 * One receive per window; the next run's id is the next window's. The queue is 'stately' (jobs/job-queue.ts): one
 * receive active and one waiting in the whole database, so a chain started beside a running one (another instance,
 * a restart) ends at its next step, when the waiting slot is taken.
 */
const RECEIVE_WINDOW_MS = 2_000;
/** After a failed receive the next one waits 4 s, doubling with each failure in a row, up to 5 minutes. */
const backoffMs = (failures: number) => (failures > 0 ? Math.min(RECEIVE_WINDOW_MS * 2 ** failures, 300_000) : 0);

const queueReceive = (deps: AmazonNotificationDeps, failures = 0) => {
  const window = Math.floor((deps.now().getTime() + backoffMs(failures)) / RECEIVE_WINDOW_MS) + 1;
  return sendJob(
    deps.jobs,
    amazonSqsJob,
    { failures },
    { id: jobIdOf(`amazon-sqs:${window}`), startAfter: new Date(window * RECEIVE_WINDOW_MS) },
  );
};

/** Takes what the queue holds now (waiting up to the long-poll time); answers how many messages it took. */
export async function receiveAmazonNotifications(deps: AmazonNotificationDeps): Promise<number> {
  const queue = deps.amazon.notificationQueue();
  if (!queue || !deps.config.amazonSqs) return 0;
  const wait = deps.config.amazonSqs.waitSeconds;
  // Never longer than the job may run (expireInSeconds): an expired job is retried while this one would still poll.
  const messages = await queue.receive(wait, AbortSignal.timeout((wait + 30) * 1000));
  for (const message of messages) {
    const read = readNotification(message.body);
    if ('problem' in read) {
      deps.jobs.log.error(
        { problem: read.problem },
        'Amazon SQS message is not a notification Podforge reads; deleted',
      );
    } else {
      const id = read.notification.NotificationMetadata.NotificationId;
      await sendJob(
        deps.jobs,
        amazonNotificationJob,
        { notification: read.notification },
        { id: jobIdOf(`amazon-notification:${id}`) },
      );
    }
    await queue.delete(message.receiptHandle);
  }
  if (messages.length > 0) await wakeWorkers(deps.jobs, amazonNotificationJob);
  return messages.length;
}

/**
 * A receive that fails is not thrown to pg-boss: its retry would poll beside the next receive, a second chain. It
 * queues the next receive itself, later (backoffMs). pg-boss retries only a job that did not end (its instance
 * stopped or hung past expireInSeconds), which queued no next receive: the retry is the chain going on.
 */
export const amazonSqsJob = defineJob({
  name: QUEUES.amazonSqs,
  payload: z.object({ failures: z.number().int().min(0).default(0) }),
  retry: { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 120 },
  workers: { pollingIntervalSeconds: 1, batchSize: 1 },
  handle: async (deps: AmazonNotificationDeps, job) => {
    let failures = 0;
    try {
      await receiveAmazonNotifications(deps);
    } catch (error) {
      failures = job.data.failures + 1;
      deps.jobs.log.warn({ err: error, failures }, 'Amazon SQS receive failed; the next receive waits');
    }
    if (deps.config.amazonSqs) await queueReceive(deps, failures);
  },
  started: async (deps: AmazonNotificationDeps) => {
    if (deps.config.amazonSqs) await queueReceive(deps);
  },
});

export const amazonNotificationJob = defineJob({
  name: QUEUES.amazonNotification,
  // Checked again against Amazon's schema when taken (the stored job is the message as it came).
  payload: z.object({ notification: z.record(z.string(), z.unknown()) }),
  retry: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
  // A receive brings up to 10 at once (a family's children change together): taken together, they are one read.
  workers: { pollingIntervalSeconds: 1, batchSize: 10 },
  handle: async (deps: AmazonNotificationDeps, job) => {
    const read = readNotification(JSON.stringify(job.data.notification));
    if ('problem' in read) throw new Error(`Amazon notification unreadable: ${read.problem}`);
    const n = read.notification;
    if (n.NotificationType === 'ORDER_CHANGE') return deps.amazon.takeOrderChange(n);
    // The SKU's family is read again (its children's notifications of one change come as one read).
    for (const family of await deps.amazon.familiesOfSku(n.Payload.SellerId, n.Payload.Sku))
      await queueFamilyCheck(deps, family.integrationId, family.publicationId);
  },
});

/**
 * Sellers connected before the queue was configured (or whose subscribing failed) subscribed at start-up: one job
 * per connected store, by an id naming the store and the queue, so instances starting together or a restart add
 * none; the handler subscribes only a store whose settings hold no subscriptions (AmazonService.subscribeIfMissing,
 * which finds a subscription Amazon already has before making one).
 */
export const amazonSubscribeJob = defineJob({
  name: QUEUES.amazonSubscribe,
  payload: z.object({ integrationId: z.string() }),
  retry: { retryLimit: 3, retryDelay: 60, retryBackoff: true },
  workers: { pollingIntervalSeconds: 5, batchSize: 1 },
  handle: async (deps: AmazonNotificationDeps, job) => {
    const store = await storeOfPlatform(deps.db, 'amazon', job.data.integrationId);
    if (store) await deps.amazon.subscribeIfMissing(store);
  },
  started: async (deps: AmazonNotificationDeps) => {
    const sqs = deps.config.amazonSqs;
    if (!sqs) return;
    for (const store of await connectedStoresOf(deps.db, 'amazon')) {
      const id = jobIdOf(`amazon-subscribe:${store.id}:${sqs.queueArn}`);
      await sendJob(deps.jobs, amazonSubscribeJob, { integrationId: store.id }, { id });
    }
  },
});
