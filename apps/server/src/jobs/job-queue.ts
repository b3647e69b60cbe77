import type { JobWithMetadata, PgBoss, SendOptions } from 'pg-boss';
import type { Database } from '../db/client';

/** Queues the app uses. A queue name is part of the stored jobs: keep them stable. */
export const QUEUES = {
  scheduledUpload: 'scheduled-upload',
  shopifyWebhook: 'shopify-webhook',
  storePush: 'store-push',
  /** Store orders (modules/orders): the printer's draft, its confirmation, cancellation, and the store fulfilment. */
  orderSubmit: 'order-submit',
  orderConfirm: 'order-confirm',
  orderCancel: 'order-cancel',
  storeFulfil: 'order-store-fulfil',
  /** Verified printer webhooks, worked off the request. */
  printerEvent: 'printer-event',
  /** Orders at a printer and not finished, read there every PRINTER_POLL_MINUTES (modules/orders/printer-poll.ts). */
  printerPoll: 'printer-poll',
  /** The built-in Printful sandbox moves its due orders on. */
  printfulSandboxTick: 'printful-sandbox-tick',
  /** The built-in Printify sandbox moves its due orders on. */
  printifySandboxTick: 'printify-sandbox-tick',
  /** The built-in Gelato sandbox moves its due orders on. */
  gelatoSandboxTick: 'gelato-sandbox-tick',
  /** A connected Etsy shop's receipts read into orders (modules/orders/etsy-orders.ts). */
  etsyReceipts: 'etsy-receipts',
  /** A connected Amazon seller's orders read into orders (modules/orders/amazon-orders.ts). */
  amazonOrders: 'amazon-orders',
  /** A connected Amazon seller's live listings read again for Amazon's issues (modules/amazon/amazon-listings.ts). */
  amazonListings: 'amazon-listings',
  /** The app's SQS queue of Amazon notifications, long-polled (modules/amazon/amazon-notifications.ts). */
  amazonSqs: 'amazon-sqs',
  /** One Amazon notification taken from the queue, worked once (its NotificationId is the job id). */
  amazonNotification: 'amazon-notification',
  /** A seller connected before the SQS queue was configured, subscribed at start-up (modules/amazon/amazon-notifications.ts). */
  amazonSubscribe: 'amazon-subscribe',
  /** A bulk run's products (modules/bulk): one job per run, resumed where it stopped. */
  bulkCreate: 'bulk-create',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/**
 * Queues whose pg-boss policy is not 'standard'. `amazon-sqs` is 'stately': at most one job waiting (created), one
 * in retry and one active in the whole database, and a waiting job is not taken while another is active. So the
 * long-poll chain is one consumer of Amazon's queue on any number of instances: a chain started beside a running
 * one (another instance, a restart) is dropped at its next step, whose successor finds the waiting slot taken.
 */
const QUEUE_POLICIES: Partial<Record<QueueName, 'stately'>> = { [QUEUES.amazonSqs]: 'stately' };

type Logger = { error(obj: unknown, msg?: string): void; warn(obj: unknown, msg?: string): void };

/**
 * pg-boss on the app's own database: PGlite's single connection in the embedded default (so the worker runs in
 * this process, the only one that may open the folder), or a small pool of its own on PostgreSQL, where every app
 * instance runs workers and pg-boss hands each job to exactly one of them.
 *
 * The queue starts on first use, so API calls that never touch a job (and most tests) do not pay for pg-boss's
 * schema check and maintenance loop.
 */
export class JobQueue {
  private starting: Promise<PgBoss> | null = null;
  private stopped = false;

  /** Replaced by the app's logger once the app exists (see buildApp). */
  log: Logger = { error: () => {}, warn: () => {} };

  constructor(private readonly database: Database) {}

  private start(): Promise<PgBoss> {
    if (this.stopped) return Promise.reject(new Error('The job queue has stopped'));
    this.starting ??= (async () => {
      // Loaded here, not at the top: a server's start and its first answers do not wait for pg-boss's code.
      const { fromPglite, PgBoss } = await import('pg-boss');
      const boss = this.database.pglite
        ? new PgBoss({ db: fromPglite(this.database.pglite), backend: 'pglite', schedule: false })
        : new PgBoss({ connectionString: this.database.url ?? '', max: 4, schedule: false });
      boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
      await boss.start();
      for (const name of Object.values(QUEUES)) {
        const policy = QUEUE_POLICIES[name];
        // pg-boss cannot change a queue's policy: a queue made before it had one is made again (its jobs are a
        // chain's steps, which its job's `started` queues again).
        if (policy && ((await boss.getQueue(name))?.policy ?? policy) !== policy) await boss.deleteQueue(name);
        await boss.createQueue(name, policy ? { policy } : {});
      }
      return boss;
    })();
    return this.starting;
  }

  /** Adds a job; with `id`, sending the same id again adds nothing (pg-boss answers null). */
  async send(name: QueueName, data: object, options: SendOptions): Promise<string | null> {
    return (await this.start()).send(name, data, options);
  }

  /** A job's state ('created', 'retry', 'active', 'completed', 'cancelled', 'failed'), or null once it is gone. */
  async state(name: QueueName, id: string): Promise<string | null> {
    return (await (await this.start()).getJobById(name, id))?.state ?? null;
  }

  async cancel(name: QueueName, id: string): Promise<void> {
    await (await this.start()).cancel(name, id);
  }

  /** Starts a worker on this instance and answers its id; jobs come with their retry count and limit. */
  async work<T extends object>(
    name: QueueName,
    options: { pollingIntervalSeconds: number; batchSize: number },
    handler: (jobs: JobWithMetadata<T>[]) => Promise<void>,
  ): Promise<string> {
    const { pollingIntervalSeconds, batchSize } = options;
    // A server closed before its workers started (they start after its first answer) starts none: no error.
    if (this.stopped) return '';
    return (await this.start()).work(name, { pollingIntervalSeconds, batchSize, includeMetadata: true }, handler);
  }

  /** Wakes a worker of this instance now instead of at its next poll (a job was just sent). */
  async notify(workerId: string): Promise<void> {
    (await this.start()).notifyWorker(workerId);
  }

  /** Lets running jobs finish (up to `timeoutMs`), then closes pg-boss's connections. */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    if (!this.starting) return;
    try {
      const boss = await this.starting;
      await boss.stop({ graceful: true, timeout: timeoutMs, close: true });
    } catch (error) {
      this.log.warn({ err: error }, 'job queue did not stop cleanly');
    }
  }
}
