import type { TBulkJob, TIntegration, TPushStates } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkPushes, bulkRuns, callBudgets, integrations, schedules } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import type { FakeEtsy } from '../src/integrations/etsy/fake-server';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { jobIdOf } from '../src/jobs/define-job';
import { startWorker } from '../src/jobs/workers';
import { bulkCreateJob, runBulk } from '../src/modules/bulk/bulk.service';
import { storePushJob } from '../src/modules/products/store-push';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Issue #32, points 1, 2 and 4: a bulk run pushes each product it makes to the chosen stores through the store push
 * job, within each store's limits (the strict fakes never answer THROTTLED or 429), reports when it should finish,
 * retries a failed push without a second listing, and a run whose job gave up says so instead of running forever.
 */

const TEE = 71; // Bella + Canvas 3001
const KEY = 'bulk-key';
const SECRET = 'bulk-secret';
const APP = 'http://podforge.test';

async function designsOf(deps: AppDeps, workspaceId: string, n: number): Promise<string[]> {
  const png = await solidPng(400, 400, { r: 30, g: 90, b: 200 });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await insertDesign(deps, workspaceId, png, `Ocean Wave ${i + 1}.png`)).id);
  return ids;
}

/** Polls the run until it is no longer running; answers every answer read on the way. */
async function follow(client: TestClient, jobId: string, timeoutMs = 90_000): Promise<TBulkJob[]> {
  const seen: TBulkJob[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    seen.push(job);
    if (job.status !== 'running') return seen;
    if (Date.now() > until) throw new Error(`bulk job still running: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const last = <T>(list: T[]): T => {
  const item = list[list.length - 1];
  if (item === undefined) throw new Error('empty');
  return item;
};

describe('bulk runs: store pushes and schedules', () => {
  let t: TestApp;
  let client: TestClient;
  let workspaceId: string;
  let shopify: FakeShopify;
  let etsy: FakeEtsy;
  let shopifyStore: TIntegration;
  let etsyStore: TIntegration;

  beforeAll(async () => {
    shopify = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET });
    t = await createTestApp({
      env: {
        SHOPIFY_API_KEY: KEY,
        SHOPIFY_API_SECRET: SECRET,
        SHOPIFY_SHOP_BASE_URL: `${shopify.url}/{shop}`,
        APP_URL: APP,
      },
    });
    // A strict Etsy: 4 calls a second (Etsy's default is 10), so a push's calls in a row would go over it unpaced.
    t.deps.etsy.sandboxOptions = { limits: { perSecond: 4, perDay: 10_000 } };
    etsy = (await t.deps.etsy.sandboxServer()) as FakeEtsy;
    client = t.client();
    workspaceId = await client.workspaceId(t.deps.db);

    const start = await client.get('/auth/shopify/start?shop=bulk-shop.myshopify.com');
    const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
    const back = new URL(answer.headers.get('location') as string);
    expect((await client.get(back.pathname + back.search)).headers.location).toBe('/integrations?connected=shopify');
    const relay = await client.get((await client.get('/auth/etsy/start')).headers.location as string);
    const callback = new URL(relay.headers.location as string);
    expect((await client.get(callback.pathname + callback.search)).headers.location).toBe(
      '/integrations?connected=etsy',
    );
    const list = (await client.get('/api/integrations')).json<TIntegration[]>();
    const find = (platform: string) => {
      const store = list.find((i) => i.platform === platform && i.isConnected);
      if (!store) throw new Error(`no ${platform} store`);
      return store;
    };
    shopifyStore = find('shopify');
    etsyStore = find('etsy');
    await startWorker(t.deps, storePushJob);
    await startWorker(t.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await shopify.close();
  });

  it('pushes every product to Shopify and Etsy within their limits and says when it should finish', async () => {
    const designIds = await designsOf(t.deps, workspaceId, 2);
    const res = await client.post('/api/bulk', {
      designIds,
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { markupPercent: 60 },
      status: 'ready',
      platform: 'etsy',
      stores: [shopifyStore.id, etsyStore.id],
    });
    expect(res.statusCode, res.body).toBe(202);
    const startedAt = Date.now();
    const seen = await follow(client, res.json<TBulkJob>().jobId);
    const job = last(seen);
    expect(job.failures).toEqual([]);
    expect(job.pushFailures).toEqual([]);
    expect(job).toMatchObject({ status: 'done', done: 2, total: 2, expectedFinishAt: null });
    for (const item of job.items) {
      expect(item.pushes.map((p) => [p.platform, p.status])).toEqual([
        ['shopify', 'pushed'],
        ['etsy', 'pushed'],
      ]);
      expect(item.pushes.every((p) => p.remoteUrl)).toBe(true);
    }
    // Within the stores' limits: Shopify never answered THROTTLED, Etsy never 429.
    expect(shopify.calls.filter((c) => c.throttled)).toEqual([]);
    expect(etsy.calls.filter((c) => c.status === 429)).toEqual([]);
    expect(await shopify.products('bulk-shop.myshopify.com')).toHaveLength(2);
    expect(etsy.listings()).toHaveLength(2);
    // Once a pace was known, the run said when it should be done: after the read, and not far off.
    const estimates = seen.flatMap((j) => (j.expectedFinishAt ? [Date.parse(j.expectedFinishAt)] : []));
    expect(estimates.length).toBeGreaterThan(0);
    for (const at of estimates) {
      expect(at).toBeGreaterThanOrEqual(startedAt);
      expect(at).toBeLessThan(Date.now() + 5 * 60_000);
    }
  }, 120_000);

  it('a failed push is that product’s failure, and its retry makes no second listing', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const listed = etsy.listings().length;
    // Etsy makes the listing, then answers 500: the push fails, the listing is there.
    etsy.failNextCreateAfterCreating();
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { markupPercent: 60 },
      platform: 'etsy',
      stores: [etsyStore.id],
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json<TBulkJob>().jobId;
    const failed = last(await follow(client, jobId));
    expect(failed).toMatchObject({ status: 'done', done: 1, failures: [] });
    expect(failed.pushFailures).toHaveLength(1);
    expect(failed.pushFailures[0]).toMatchObject({ integrationId: etsyStore.id });
    expect(failed.items[0]?.pushes[0]?.status).toBe('failed');
    expect(etsy.listings()).toHaveLength(listed + 1);

    const retry = await client.post(`/api/bulk/${jobId}/retry`);
    expect(retry.statusCode, retry.body).toBe(202);
    const job = last(await follow(client, jobId));
    expect(job.pushFailures).toEqual([]);
    expect(job.items[0]?.pushes[0]?.status).toBe('pushed');
    expect(etsy.listings()).toHaveLength(listed + 1);
  }, 120_000);

  it('pushes that meet Etsy’s spent day wait (deferred, not failed) and finish once it is back, one listing each', async () => {
    const designIds = await designsOf(t.deps, workspaceId, 2);
    const listed = etsy.listings().length;
    // The day's budget is spent: Etsy asks for a wait of hours (the app then calls no more until it is over).
    etsy.rateLimitNext(1, 6 * 3600);
    try {
      const res = await client.post('/api/bulk', {
        designIds,
        catalogProductIds: [TEE],
        colors: ['Black'],
        pricing: { markupPercent: 60 },
        platform: 'etsy',
        stores: [etsyStore.id],
      });
      expect(res.statusCode, res.body).toBe(202);
      const seen = await follow(client, res.json<TBulkJob>().jobId);
      const job = last(seen);
      expect(job).toMatchObject({ status: 'done', done: 2, failures: [], pushFailures: [] });
      for (const item of job.items) {
        expect(item.pushes[0]).toMatchObject({
          status: 'scheduled',
          error: expect.stringMatching(/^Waiting for Etsy's request limit; resumes at \d\d:\d\d UTC/),
        });
        const { pushes } = (await client.get(`/api/products/${item.productId}/pushes`)).json<TPushStates>();
        expect(pushes[0]).toMatchObject({ state: 'waiting', error: null });
        expect(Date.parse(pushes[0]?.resumesAt ?? '')).toBeGreaterThan(Date.now() + 5 * 3600_000);
      }
      // No estimate from a deferred push's pace (it took no push's time).
      for (const j of seen)
        if (j.expectedFinishAt) expect(Date.parse(j.expectedFinishAt)).toBeLessThan(Date.now() + 5 * 60_000);
      expect(etsy.listings()).toHaveLength(listed);

      // The budget is back and the deferred jobs' time has come: each finishes, with one listing.
      await t.deps.db.delete(callBudgets);
      const ids = job.productIds;
      await t.deps.db.execute(
        sql`update pgboss.job set start_after = now() where name = ${storePushJob.name} and state = 'created' and data->>'productId' in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      for (const id of ids) {
        let state: TPushStates['pushes'][number] | undefined;
        for (let i = 0; i < 600 && state?.state !== 'published'; i++) {
          [state] = (await client.get(`/api/products/${id}/pushes`)).json<TPushStates>().pushes;
          if (state?.state !== 'published') await new Promise((r) => setTimeout(r, 100));
        }
        expect(state).toMatchObject({ state: 'published', error: null, resumesAt: null });
      }
      expect(etsy.listings()).toHaveLength(listed + 2);
    } finally {
      etsy.rateLimitNext(0);
      await t.deps.db.delete(callBudgets);
    }
  }, 120_000);

  it('a run resumed after its process died mid-push finds the listing made and pushes nothing twice', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { markupPercent: 60 },
      stores: [shopifyStore.id],
    });
    const jobId = res.json<TBulkJob>().jobId;
    const first = last(await follow(client, jobId));
    expect(first.items[0]?.pushes[0]?.status).toBe('pushed');
    const listed = (await shopify.products('bulk-shop.myshopify.com')).length;
    const sets = shopify.calls.filter((c) => c.field === 'productSet').length;
    expect(sets).toBeGreaterThan(0);
    // As a process that died after the store push but before recording it leaves the run.
    await t.deps.db.update(bulkPushes).set({ status: 'pushing', finishedAt: null }).where(eq(bulkPushes.runId, jobId));
    await t.deps.db.update(bulkRuns).set({ status: 'running', finishedAt: null }).where(eq(bulkRuns.id, jobId));
    await runBulk(t.deps, workspaceId, jobId);
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    expect(job).toMatchObject({ status: 'done', pushFailures: [] });
    expect(job.items[0]?.pushes[0]?.status).toBe('pushed');
    expect(await shopify.products('bulk-shop.myshopify.com')).toHaveLength(listed);
    expect(shopify.calls.filter((c) => c.field === 'productSet')).toHaveLength(sets);
  }, 60_000);

  it('waits out a WooCommerce host’s short limit instead of failing the push', async () => {
    const connect = await client.post('/api/woocommerce/connect', { sandbox: true });
    expect(connect.statusCode, connect.body).toBe(201);
    const woo = (await client.get('/api/integrations'))
      .json<TIntegration[]>()
      .find((i) => i.platform === 'woocommerce' && i.isConnected);
    if (!woo) throw new Error('no WooCommerce store');
    const fake = await t.deps.woocommerce.sandboxServer();
    const designIds = await designsOf(t.deps, workspaceId, 2);
    // The host (a security plugin) limits the next calls for a second.
    fake.rateLimitNext(2, 1);
    const res = await client.post('/api/bulk', {
      designIds,
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { markupPercent: 60 },
      stores: [woo.id],
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = last(await follow(client, res.json<TBulkJob>().jobId));
    expect(job.pushFailures).toEqual([]);
    expect(job.items.map((i) => i.pushes[0]?.status)).toEqual(['pushed', 'pushed']);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, woo.id));
    const host = new URL(row?.externalId ?? '').host;
    expect(fake.products(host)).toHaveLength(2);
  }, 60_000);

  it('schedules each product’s upload instead when a time is given', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const schedule = { scheduledDate: day, scheduledTime: '09:30', timeZone: 'Europe/Berlin' };
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      pricing: { markupPercent: 60 },
      stores: [shopifyStore.id],
      schedule,
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = last(await follow(client, res.json<TBulkJob>().jobId));
    expect(job.items[0]?.pushes[0]).toMatchObject({ status: 'scheduled', error: null });
    expect(Date.parse(job.scheduledFor ?? '')).toBeGreaterThan(Date.now());
    const rows = await t.deps.db
      .select()
      .from(schedules)
      .where(eq(schedules.productId, job.productIds[0] ?? ''));
    expect(rows.map((r) => [r.integrationId, r.status, r.runAt.toISOString()])).toEqual([
      [shopifyStore.id, 'pending', job.scheduledFor],
    ]);
  }, 60_000);

  it('refuses stores and schedules it cannot keep, naming them', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const base = { designIds: [designId], catalogProductIds: [TEE], pricing: { markupPercent: 60 } };
    const noStores = await client.post('/api/bulk', {
      ...base,
      schedule: { scheduledDate: '2099-06-01', scheduledTime: '09:30' },
    });
    expect(noStores.statusCode).toBe(400);
    expect(noStores.json<{ error: string }>().error).toMatch(/^schedule: choose the stores/);
    const past = await client.post('/api/bulk', {
      ...base,
      stores: [shopifyStore.id],
      schedule: { scheduledDate: '2020-01-01', scheduledTime: '09:30' },
    });
    expect(past.statusCode).toBe(400);
    const far = await client.post('/api/bulk', {
      ...base,
      stores: [shopifyStore.id],
      schedule: { scheduledDate: '2099-01-01', scheduledTime: '09:30' },
    });
    expect(far.statusCode).toBe(400);
    expect(far.json<{ error: string }>().error).toMatch(/^schedule: .*366 days/);
    const unknown = await client.post('/api/bulk', { ...base, stores: ['4b1c1c66-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(404);
    const twice = await client.post('/api/bulk', { ...base, stores: [shopifyStore.id, shopifyStore.id] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json<{ error: string }>().error).toMatch(/stores/);
  });
});

describe('bulk runs: a job that gave up', () => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    client = t.client();
  });
  afterAll(() => t.close());

  /** pg-boss gives the run's job up (its retries spent, or its process died on the last one). */
  async function giveUp(jobId: string, attempt = 1) {
    await t.deps.db.execute(
      sql`update pgboss.job set state = 'failed' where id = ${jobIdOf(`bulk:${jobId}:${attempt}`)}::uuid`,
    );
  }

  it('is failed with the reason, not left running, and a retry carries on to the end', async () => {
    const [designId] = await designsOf(t.deps, await client.workspaceId(t.deps.db), 1);
    // No worker yet: the job waits in the queue.
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      pricing: { fixed: 30 },
    });
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json<TBulkJob>().jobId;
    expect((await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>().status).toBe('running');

    await giveUp(jobId);
    const failed = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    expect(failed).toMatchObject({ status: 'failed', done: 0, expectedFinishAt: null });
    expect(failed.error).toMatch(/stopped after its retries.*retry/);

    const retry = await client.post(`/api/bulk/${jobId}/retry`);
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json<TBulkJob>()).toMatchObject({ status: 'running', error: null });
    await startWorker(t.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
    const job = last(await follow(client, jobId));
    expect(job).toMatchObject({ status: 'done', done: 1, error: null });
  }, 60_000);

  it('is found by the sweep at start-up, with nobody reading it', async () => {
    // Another server, whose workers are not started: its run's job waits in the queue.
    const other = await createTestApp();
    try {
      const c = other.client();
      const [id] = await designsOf(other.deps, await c.workspaceId(other.deps.db), 1);
      const res = await c.post('/api/bulk', { designIds: [id], catalogProductIds: [TEE], pricing: { fixed: 30 } });
      const jobId = res.json<TBulkJob>().jobId;
      await other.deps.db.execute(
        sql`update pgboss.job set state = 'failed' where id = ${jobIdOf(`bulk:${jobId}:1`)}::uuid`,
      );
      await bulkCreateJob.started?.(other.deps);
      const [row] = await other.deps.db.select().from(bulkRuns).where(eq(bulkRuns.id, jobId));
      expect(row).toMatchObject({ status: 'failed' });
      expect(row?.error).toMatch(/retry/);
    } finally {
      await other.close();
    }
  }, 60_000);
});
