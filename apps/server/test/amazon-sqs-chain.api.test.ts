import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { type FakeSqs, startFakeSqs } from '../src/integrations/amazon/fake-sqs';
import { JobQueue, QUEUES } from '../src/jobs/job-queue';
import { startWorkers } from '../src/jobs/workers';
import { amazonNotificationJob, amazonSqsJob } from '../src/modules/amazon/amazon-notifications';
import { waitFor } from './fixtures/store-products';
import { openTestDatabase } from './helpers';

/**
 * The long-poll chain of Amazon's notification queue (`amazon-sqs`) is one consumer however it is started or fails:
 * a refused receive does not leave pg-boss's retry of it polling beside the chain's next receive, and two instances
 * (or a restart beside a running chain) do not poll the queue together.
 */

const QUEUE = 'podforge-amazon';
const SLOW = 90_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `count` app instances on one database, each running the SQS chain's and the notifications' workers. */
async function instances(sqs: FakeSqs, count: number, waitSeconds: number, gapMs = 0) {
  const database = await openTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-sqs-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '',
    JOBS_WORKER: 'false',
    AMAZON_SQS_QUEUE_URL: sqs.queueUrl(QUEUE),
    AMAZON_SQS_ENDPOINT: sqs.url,
    AMAZON_SQS_REGION: sqs.region,
    AMAZON_SQS_WAIT_SECONDS: String(waitSeconds),
    AWS_ACCESS_KEY_ID: sqs.accessKeyId,
    AWS_SECRET_ACCESS_KEY: sqs.secretAccessKey,
  });
  config.webDistDir = null;
  const apps: Awaited<ReturnType<typeof buildApp>>[] = [];
  for (let i = 0; i < count; i++) apps.push(await buildApp({ config, database, logger: false }));
  cleanups.push(async () => {
    for (const { app } of apps) await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  for (const [i, { app, deps }] of apps.entries()) {
    await app.ready();
    if (i > 0 && gapMs) await new Promise((r) => setTimeout(r, gapMs));
    await startWorkers(deps, [amazonSqsJob, amazonNotificationJob], { pollingIntervalSeconds: 0.5 });
  }
  const first = apps[0];
  if (!first) throw new Error('no instance');
  return first.deps.db;
}

/** The chain's jobs not finished: one receive under way and its next one at most. */
const chainJobs = async (db: Db) =>
  (
    (await db.execute(
      sql`SELECT state FROM pgboss.job WHERE name = 'amazon-sqs' AND state IN ('created', 'retry', 'active') ORDER BY state`,
    )) as { rows: { state: string }[] }
  ).rows.map((r) => r.state);

/** A LISTINGS_ITEM_ISSUES_CHANGE of a seller nobody connected: read, queued as a job, nothing else to do. */
const issuesChange = () => {
  const at = new Date().toISOString();
  return JSON.stringify({
    NotificationVersion: '1.0',
    NotificationType: 'LISTINGS_ITEM_ISSUES_CHANGE',
    PayloadVersion: '2023-12-13',
    EventTime: at,
    Payload: { SellerId: 'A3NOBODY', MarketplaceId: 'ATVPDKIKX0DER', Sku: `SKU-${randomUUID()}`, Severities: ['NONE'] },
    NotificationMetadata: {
      ApplicationId: 'amzn1.sp.solution.test',
      SubscriptionId: randomUUID(),
      PublishTime: at,
      NotificationId: randomUUID(),
    },
  });
};

const receives = (sqs: FakeSqs) => sqs.calls.filter((c) => c.target === 'AmazonSQS.ReceiveMessage');

/** Each injected message received once and deleted, and made one `amazon-notification` job. */
async function expectHandledOnce(sqs: FakeSqs, db: Db, ids: string[]) {
  await waitFor(
    async () => sqs.messages(QUEUE).length,
    (n) => n === 0,
  );
  for (const id of ids) expect(sqs.received.filter((m) => m.messageId === id)).toHaveLength(1);
  const jobs = (
    (await db.execute(sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'amazon-notification'`)) as {
      rows: { n: number }[];
    }
  ).rows[0]?.n;
  expect(jobs).toBe(ids.length);
}

describe('amazon-sqs: one consumer of the queue', () => {
  it(
    'a refused receive is followed by one next receive, not by a pg-boss retry beside the chain',
    async () => {
      const sqs = await startFakeSqs({ queues: [QUEUE] });
      cleanups.push(() => sqs.close());
      const db = await instances(sqs, 1, 1);
      await waitFor(
        async () => receives(sqs).length,
        (n) => n >= 1,
      );
      sqs.refuseReceives(1);
      await waitFor(
        async () => receives(sqs).filter((c) => c.status === 403).length,
        (n) => n === 1,
      );
      // The refused receive's job ended; what is left of the chain is its next receive, and no retry of it.
      await new Promise((r) => setTimeout(r, 1000));
      const left = await chainJobs(db);
      expect(left).not.toContain('retry');
      expect(left.length).toBeLessThanOrEqual(1);
      expect(
        (
          (await db.execute(
            sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'amazon-sqs' AND state = 'failed'`,
          )) as {
            rows: { n: number }[];
          }
        ).rows[0]?.n,
      ).toBe(0);

      // The chain goes on (after a short wait), alone: messages are taken once each, by one receive at a time.
      const ids = [
        sqs.inject(QUEUE, issuesChange()),
        sqs.inject(QUEUE, issuesChange()),
        sqs.inject(QUEUE, issuesChange()),
      ];
      await expectHandledOnce(sqs, db, ids);
      const after = receives(sqs).length;
      await new Promise((r) => setTimeout(r, 4500));
      // One receive per 2-second window at most (a 1-second long poll each): two chains would make about twice.
      expect(receives(sqs).length - after).toBeLessThanOrEqual(3);
      expect(sqs.receiving.most).toBe(1);
      expect((await chainJobs(db)).length).toBeLessThanOrEqual(2);
    },
    SLOW,
  );

  it(
    'two instances started apart poll the queue one receive at a time, as one chain',
    async () => {
      const sqs = await startFakeSqs({ queues: [QUEUE] });
      cleanups.push(() => sqs.close());
      // A 5-second long poll: the second instance starts while the first one's receive is waiting.
      const db = await instances(sqs, 2, 5, 2500);
      await new Promise((r) => setTimeout(r, 12_000));
      expect(sqs.receiving.most).toBe(1);
      const ids = [sqs.inject(QUEUE, issuesChange()), sqs.inject(QUEUE, issuesChange())];
      await expectHandledOnce(sqs, db, ids);
      const left = await chainJobs(db);
      expect(left.filter((s) => s !== 'active').length).toBeLessThanOrEqual(1);
      expect(sqs.receiving.most).toBe(1);
    },
    SLOW,
  );
});

describe('amazon-sqs: the queue policy', () => {
  it('a database whose amazon-sqs queue was made before it had a policy gets it at the next start', async () => {
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    const first = new JobQueue(database);
    await first.state(QUEUES.amazonSqs, randomUUID());
    const policy = async () =>
      (
        (await database.db.execute(sql`SELECT policy FROM pgboss.queue WHERE name = 'amazon-sqs'`)) as {
          rows: { policy: string }[];
        }
      ).rows[0]?.policy;
    expect(await policy()).toBe('stately');
    await first.stop();
    // As made by an earlier version: a standard queue.
    await database.db.execute(sql`UPDATE pgboss.queue SET policy = 'standard' WHERE name = 'amazon-sqs'`);
    const next = new JobQueue(database);
    await next.state(QUEUES.amazonSqs, randomUUID());
    expect(await policy()).toBe('stately');
    await next.stop();
  });
});
