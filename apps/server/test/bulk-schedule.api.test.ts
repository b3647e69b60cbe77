import { ErrorCode, type TBulkJob, type TIntegration, type TSchedule } from '@podforge/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, schedules } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import { startWorker } from '../src/jobs/workers';
import { AppError } from '../src/lib/errors';
import { bulkCreateJob } from '../src/modules/bulk/bulk.service';
import { storePushJob } from '../src/modules/products/store-push';
import { pushToStore, scheduledUploadJobWith } from '../src/modules/schedules/schedules.jobs';
import { insertDesign, solidPng } from './fixtures/designs';
import { waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * A bulk run with a schedule: the seller's time is when the first upload to a store starts, the rest follow one at
 * the store's pace (its adapter's pushPaceSeconds), each product's upload planned (and queued) at its own time, the
 * run's expected finish the last one's; at the time each is pushed once.
 */

const TEE = 71; // Bella + Canvas 3001
const SHOP = 'paced-shop.myshopify.com';
// The app's clock runs two minutes behind, so the next minute is "in the future" for the API and due within a minute
// for the queue, which reads the database's clock.
const LAG_MS = 120_000;
const behind = () => new Date(Date.now() - LAG_MS);

async function follow(client: TestClient, jobId: string, timeoutMs = 90_000): Promise<TBulkJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    if (job.status !== 'running') return job;
    if (Date.now() > until) throw new Error(`bulk job still running: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The state of a schedule's first job (its id is the schedule's). */
async function jobState(deps: AppDeps, scheduleId: string): Promise<string | undefined> {
  const result = (await deps.db.execute(
    sql`select state from pgboss.job where id = ${scheduleId}::uuid`,
  )) as unknown as {
    rows: { state: string }[];
  };
  return result.rows[0]?.state;
}

/** pg-boss's start time of a schedule's job (its id is the schedule's). */
async function queuedAt(deps: AppDeps, scheduleId: string): Promise<number> {
  const result = (await deps.db.execute(
    sql`select start_after from pgboss.job where id = ${scheduleId}::uuid`,
  )) as unknown as { rows: { start_after: unknown }[] };
  return new Date(String(result.rows[0]?.start_after)).getTime();
}

describe('bulk runs: scheduled uploads at the store’s pace', () => {
  let t: TestApp;
  let client: TestClient;
  let workspaceId: string;
  let store: TIntegration;
  /** Each product's scheduled pushes: when (real time) each started. */
  const started = new Map<string, number[]>();
  /** Set: the next scheduled push meets the store's spent day budget. */
  let budgetSpent = false;

  beforeAll(async () => {
    t = await createTestApp({ now: behind, env: { APP_URL: 'http://app.test' } });
    client = t.client();
    workspaceId = await client.workspaceId(t.deps.db);
    // The built-in sandbox Shopify (on the app's clock), connected the way the browser does.
    const start = await client.get(`/auth/shopify/start?shop=${SHOP}`);
    const approved = await client.get(start.headers.location as string);
    const callback = new URL(approved.headers.location as string);
    expect((await client.get(callback.pathname + callback.search)).headers.location).toBe(
      '/integrations?connected=shopify',
    );
    const found = (await client.get('/api/integrations'))
      .json<TIntegration[]>()
      .find((i) => i.platform === 'shopify' && i.isConnected);
    if (!found) throw new Error('no Shopify store');
    store = found;
    const realPush = pushToStore(t.deps);
    const job = scheduledUploadJobWith(async (s) => {
      started.set(s.productId, [...(started.get(s.productId) ?? []), Date.now()]);
      if (budgetSpent) {
        budgetSpent = false;
        throw new AppError(503, ErrorCode.RateLimited, "The store's daily request budget is spent; try again later", {
          retryAfterSeconds: '7200',
        });
      }
      return realPush(s);
    });
    await startWorker(t.deps, storePushJob);
    await startWorker(t.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
    await startWorker(t.deps, job, { pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(() => t.close());

  /** Three products to the store, their uploads scheduled for the next minute (real time): the run once done. */
  async function scheduledRun(name: string) {
    const png = await solidPng(400, 400, { r: 30, g: 90, b: 200 });
    const designIds: string[] = [];
    for (let i = 0; i < 3; i++) designIds.push((await insertDesign(t.deps, workspaceId, png, `${name} ${i}.png`)).id);
    const first = Math.ceil((Date.now() + 1000) / 60_000) * 60_000;
    const iso = new Date(first).toISOString();
    const res = await client.post('/api/bulk', {
      designIds,
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { markupPercent: 60 },
      stores: [store.id],
      schedule: { scheduledDate: iso.slice(0, 10), scheduledTime: iso.slice(11, 16), timeZone: 'UTC' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await follow(client, res.json<TBulkJob>().jobId);
    expect(job).toMatchObject({ status: 'done', done: 3, failures: [], pushFailures: [] });
    expect(job.scheduledFor).toBe(iso);
    // The store's pace, by its adapter.
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
    const adapter = t.deps.stores.get('shopify');
    if (!row || !adapter) throw new Error('no Shopify adapter');
    const pace = adapter.pushPaceSeconds(row) * 1000;
    expect(pace).toBeGreaterThan(0);
    return { job, first, pace, row };
  }

  it('plans the uploads one store pace apart from the seller’s time, says when they end, and pushes each once then', async () => {
    const { job, first, pace, row } = await scheduledRun('Wave');

    // Each product's own planned time: the seller's, then one pace after another (not all at once).
    const planned = job.items.map((i) => {
      expect(i.pushes.map((p) => p.status)).toEqual(['scheduled']);
      return Date.parse(i.pushes[0]?.scheduledFor ?? '');
    });
    expect([...planned].sort((a, b) => a - b)).toEqual([first, first + pace, first + 2 * pace]);
    // The run says when its last upload should be done.
    expect(job.expectedFinishAt).toBe(new Date(first + 3 * pace).toISOString());

    // The schedules API (My Products) shows each product's planned time, and the queue starts each job then.
    const upcoming = (await client.get('/api/schedules')).json<TSchedule[]>();
    const runAtOf = new Map(upcoming.map((s) => [s.productId, s]));
    for (const [index, productId] of job.productIds.entries()) {
      const schedule = runAtOf.get(productId);
      expect(schedule?.runAt).toBe(job.items[index]?.pushes[0]?.scheduledFor);
      expect(await queuedAt(t.deps, schedule?.id ?? '')).toBe(Date.parse(schedule?.runAt ?? ''));
    }

    // When the time comes, each product is pushed once, not before its own time.
    const rows = await waitFor(
      () => t.deps.db.select().from(schedules).where(inArray(schedules.productId, job.productIds)),
      (list) => list.length === 3 && list.every((s) => s.status === 'completed' || s.status === 'failed'),
      120_000,
    );
    expect(rows.map((s) => [s.status, s.error])).toEqual([
      ['completed', null],
      ['completed', null],
      ['completed', null],
    ]);
    for (const s of rows) {
      const times = started.get(s.productId) ?? [];
      expect(times).toHaveLength(1);
      expect(times[0]).toBeGreaterThanOrEqual(s.runAt.getTime());
    }
    const fake = await t.deps.shopify.sandboxServer();
    expect(await fake?.products(row.externalId)).toHaveLength(3);
    const after = (await client.get(`/api/bulk/${job.jobId}`)).json<TBulkJob>();
    expect(after.expectedFinishAt).toBeNull();
    expect(after.items.every((i) => i.pushes[0]?.status === 'scheduled')).toBe(true);
  }, 240_000);

  it('moves the run’s uploads waiting behind one that met a spent day budget as far, keeping their spacing', async () => {
    const { job, pace } = await scheduledRun('Tide');
    budgetSpent = true;
    const byProduct = <T extends { productId: string }>(list: T[]) =>
      list.filter((s) => job.productIds.includes(s.productId));
    // The first upload meets the spent budget; the two behind it move with it before their time comes.
    const rows = await waitFor(
      async () =>
        byProduct(await t.deps.db.select().from(schedules).where(inArray(schedules.productId, job.productIds))),
      (list) => list.length === 3 && list.every((s) => s.status === 'pending' && s.error),
      120_000,
    );
    rows.sort((a, b) => a.runAt.getTime() - b.runAt.getTime());
    const [head] = rows;
    if (!head) throw new Error('no schedule');
    const movedTo = head.runAt.getTime();
    expect(Math.abs(movedTo - (behind().getTime() + 7200_000))).toBeLessThan(120_000);
    expect(rows.map((s) => s.runAt.getTime() - movedTo)).toEqual([0, pace, 2 * pace]);
    // The first jobs of the uploads behind it come at their old times and find them moved: nothing is pushed.
    await waitFor(
      async () => Promise.all(rows.map((s) => jobState(t.deps, s.id))),
      (states) => states.every((state) => state === 'completed'),
      30_000,
    );
    for (const s of rows) {
      expect(s.error).toBe(
        `The store's daily request budget is spent; try again later. The upload moved to ${s.runAt.toISOString()}.`,
      );
      // One job waits for each upload's new time.
      const waiting = (await t.deps.db.execute(
        sql`select start_after from pgboss.job where data->>'scheduleId' = ${s.id} and state = 'created'`,
      )) as unknown as { rows: { start_after: unknown }[] };
      expect(waiting.rows.map((w) => new Date(String(w.start_after)).getTime())).toEqual([s.runAt.getTime()]);
    }
    // The upload that met the budget was tried once, the ones behind it not at all.
    expect(started.get(head.productId)).toHaveLength(1);
    for (const s of rows.slice(1)) expect(started.get(s.productId)).toBeUndefined();
    const shown = (await client.get('/api/schedules')).json<TSchedule[]>();
    expect(byProduct(shown).map((s) => s.runAt)).toEqual(rows.map((s) => s.runAt.toISOString()));
    const run = (await client.get(`/api/bulk/${job.jobId}`)).json<TBulkJob>();
    expect(run.expectedFinishAt).toBe(new Date(movedTo + 3 * pace).toISOString());
  }, 240_000);
});
