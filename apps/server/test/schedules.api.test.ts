import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, type TSchedule, type TStorePlatform } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { integrations, products, publications, schedules } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import { startWorker } from '../src/jobs/workers';
import { AppError, conflict } from '../src/lib/errors';
import { pushToStore, scheduledUploadJobWith } from '../src/modules/schedules/schedules.jobs';
import { insertDesign, solidPng } from './fixtures/designs';
import { waitFor as waitUntil } from './fixtures/store-products';
import { createTestApp, openTestDatabase, type TestApp, type TestClient } from './helpers';

async function insertProduct(deps: AppDeps, workspaceId: string, status: 'draft' | 'live' = 'draft') {
  const [row] = await deps.db
    .insert(products)
    .values({ workspaceId, title: 'Sunset Tee', productType: 'tshirt', price: '24.99', status })
    .returning();
  if (!row) throw new Error('no product');
  return row.id;
}

/** The current UTC minute as the API's date and time: already due for the queue's (real) clock. */
function thisMinuteUtc() {
  const iso = new Date().toISOString();
  return { scheduledDate: iso.slice(0, 10), scheduledTime: iso.slice(11, 16), timeZone: 'UTC' };
}

const waitFor = <T>(read: () => Promise<T>, done: (value: T) => boolean) => waitUntil(read, done, 20_000);

/** pg-boss's own row for a job (its id is the schedule's). Both drivers answer `{ rows }`. */
async function queueJob(deps: AppDeps, id: string) {
  const result = (await deps.db.execute(
    sql`select name, state, start_after from pgboss.job where id = ${id}::uuid`,
  )) as unknown as { rows: { name: string; state: string; start_after: unknown }[] };
  return result.rows;
}

const scheduleRow = async (deps: AppDeps, id: string) =>
  (await deps.db.select().from(schedules).where(eq(schedules.id, id)))[0];

describe('scheduled uploads: the calls', () => {
  let t: TestApp;
  let client: TestClient;
  let productId: string;
  // The seller's clock: noon UTC on 22 November 2026.
  const now = new Date('2026-11-22T12:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp({ now: () => now });
    client = t.client();
    productId = await insertProduct(t.deps, await client.workspaceId(t.deps.db));
  });
  afterAll(() => t.close());

  const schedule = (body: Record<string, unknown>) =>
    client.post('/api/schedule-upload', {
      productId,
      platform: 'Shopify',
      scheduledDate: '2026-12-24',
      scheduledTime: '09:30',
      status: 'pending',
      integrationId: 'default',
      timeZone: 'America/New_York',
      ...body,
    });

  it('creates a pending schedule at the instant of the date and time in the seller’s zone, with its job', async () => {
    const res = await schedule({});
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<TSchedule>();
    expect(created).toMatchObject({
      productId,
      platform: 'shopify',
      scheduledDate: '2026-12-24',
      scheduledTime: '09:30',
      timeZone: 'America/New_York',
      runAt: '2026-12-24T14:30:00.000Z',
      status: 'pending',
      integrationId: 'default',
      error: null,
    });
    const rows = await queueJob(t.deps, created.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'scheduled-upload', state: 'created' });
    expect(new Date(String(rows[0]?.start_after)).toISOString()).toBe('2026-12-24T14:30:00.000Z');

    const list = await client.get(`/api/products/${productId}/schedules`);
    expect(list.json<TSchedule[]>().map((s) => s.id)).toContain(created.id);
  });

  it('follows daylight saving time: 09:30 in Berlin is 07:30Z in summer and 08:30Z in winter', async () => {
    const summer = await schedule({ scheduledDate: '2027-07-01', timeZone: 'Europe/Berlin' });
    const winter = await schedule({ scheduledDate: '2027-01-15', timeZone: 'Europe/Berlin' });
    expect(summer.json<TSchedule>().runAt).toBe('2027-07-01T07:30:00.000Z');
    expect(winter.json<TSchedule>().runAt).toBe('2027-01-15T08:30:00.000Z');
  });

  it.each([
    [
      'a time in the past',
      { scheduledDate: '2026-11-22', scheduledTime: '06:59' },
      'Please select a future date and time.',
    ],
    ['a date over a year ahead', { scheduledDate: '2028-01-01' }, 'up to 366 days ahead'],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }, 'timeZone must be an IANA time zone'],
    ['a date that does not exist', { scheduledDate: '2026-02-30' }, 'scheduledDate'],
    ['a missing time', { scheduledTime: undefined }, 'scheduledTime'],
    ['a time like 9.30', { scheduledTime: '9.30' }, 'scheduledTime'],
    ['an unknown platform', { platform: 'ebay' }, 'platform'],
    ['a product id that is not a uuid', { productId: 'p1' }, 'productId'],
  ])('answers 400 for %s, naming the problem', async (_name, body, message) => {
    const before = (await t.deps.db.select().from(schedules)).length;
    const res = await schedule(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toContain(message);
    expect((await t.deps.db.select().from(schedules)).length).toBe(before);
  });

  it('answers 404 for another workspace’s product and store; 409 for a store that already has the product', async () => {
    const other = t.client();
    const otherWs = await other.workspaceId(t.deps.db);
    const foreignProduct = await insertProduct(t.deps, otherWs);
    expect((await schedule({ productId: foreignProduct })).statusCode).toBe(404);

    const [store] = await t.deps.db
      .insert(integrations)
      .values({ workspaceId: otherWs, kind: 'store', platform: 'shopify', externalId: 'other.myshopify.com' })
      .returning();
    expect((await schedule({ integrationId: store?.id })).statusCode).toBe(404);

    // A product live in one store may be scheduled for another (#28), not for the store that has it.
    const ws = await client.workspaceId(t.deps.db);
    const live = await insertProduct(t.deps, ws, 'live');
    const [mine] = await t.deps.db
      .insert(integrations)
      .values({ workspaceId: ws, kind: 'store', platform: 'shopify', externalId: 'mine.myshopify.com' })
      .returning();
    if (!mine) throw new Error('no store');
    await t.deps.db.insert(publications).values({
      workspaceId: ws,
      productId: live,
      integrationId: mine.id,
      status: 'published',
      publishedAt: new Date(),
    });
    const res = await schedule({ productId: live, integrationId: mine.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('already live in that store');
    const elsewhere = await schedule({ productId: live });
    expect(elsewhere.statusCode, elsewhere.body).toBe(201);
  });

  it('cancels a pending schedule, which leaves the list; a second cancel is refused; others get 404', async () => {
    const created = (await schedule({ scheduledDate: '2026-12-01' })).json<TSchedule>();
    const other = t.client();
    expect((await other.delete(`/api/schedule-upload/${created.id}`)).statusCode).toBe(404);

    const res = await client.delete(`/api/schedule-upload/${created.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TSchedule>().status).toBe('cancelled');
    const list = (await client.get(`/api/products/${productId}/schedules`)).json<TSchedule[]>();
    expect(list.map((s) => s.id)).not.toContain(created.id);
    // The queue will not run it either.
    expect((await queueJob(t.deps, created.id))[0]).toMatchObject({ state: 'cancelled' });

    const again = await client.delete(`/api/schedule-upload/${created.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('Only a pending upload can be cancelled; this one is cancelled');
    expect((await other.get(`/api/products/${productId}/schedules`)).statusCode).toBe(404);
  });

  it('GET /api/schedules lists the workspace’s upcoming (pending or running) uploads, soonest first, for My Products', async () => {
    const seller = t.client();
    const ws = await seller.workspaceId(t.deps.db);
    const a = await insertProduct(t.deps, ws);
    const b = await insertProduct(t.deps, ws);
    const post = (body: Record<string, unknown>) =>
      seller.post('/api/schedule-upload', {
        platform: 'shopify',
        scheduledTime: '09:30',
        timeZone: 'UTC',
        ...body,
      });
    const later = (await post({ productId: a, scheduledDate: '2027-01-10' })).json<TSchedule>();
    const sooner = (await post({ productId: b, scheduledDate: '2026-12-10' })).json<TSchedule>();
    const cancelled = (await post({ productId: a, scheduledDate: '2026-12-05' })).json<TSchedule>();
    await seller.delete(`/api/schedule-upload/${cancelled.id}`);
    const done = (await post({ productId: a, scheduledDate: '2026-12-06' })).json<TSchedule>();
    await t.deps.db.update(schedules).set({ status: 'failed', error: 'x' }).where(eq(schedules.id, done.id));

    const res = await seller.get('/api/schedules');
    expect(res.statusCode).toBe(200);
    expect(res.json<TSchedule[]>().map((s) => [s.id, s.productId, s.status])).toEqual([
      [sooner.id, b, 'pending'],
      [later.id, a, 'pending'],
    ]);
    expect((await t.client().get('/api/schedules')).json()).toEqual([]);
  });
});

describe('scheduled uploads: the worker', () => {
  // The app's clock runs two minutes behind, so the current minute is "in the future" for the API and already due
  // for the queue, which reads the database's clock.
  const behind = () => new Date(Date.now() - 120_000);
  let t: TestApp;
  let client: TestClient;
  let ws: string;
  /** A test may stand in for the store push of its own products; the others get the real push. */
  const pushFor = new Map<string, () => Promise<unknown>>();
  const calls = new Map<string, number>();

  beforeAll(async () => {
    t = await createTestApp({ now: behind, env: { APP_URL: 'http://app.test' } });
    client = t.client();
    ws = await client.workspaceId(t.deps.db);
    const realPush = pushToStore(t.deps);
    const job = scheduledUploadJobWith(async (s) => {
      calls.set(s.productId, (calls.get(s.productId) ?? 0) + 1);
      return (pushFor.get(s.productId) ?? (() => realPush(s)))();
    });
    await startWorker(t.deps, job, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => t.close());

  const scheduleNow = async (productId: string) => {
    const res = await client.post('/api/schedule-upload', { productId, platform: 'shopify', ...thisMinuteUtc() });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<TSchedule>().id;
  };

  it('runs a due upload once with the real push, and records why it failed', async () => {
    const productId = await insertProduct(t.deps, ws);
    const id = await scheduleNow(productId);
    const row = await waitFor(
      () => scheduleRow(t.deps, id),
      (r) => r?.status === 'failed',
    );
    // No store is connected: a refusal the seller must act on, so it is not retried.
    expect(row?.error).toBe('No Shopify store is connected. Connect one in Integrations first.');
    const list = (await client.get(`/api/products/${productId}/schedules`)).json<TSchedule[]>();
    expect(list[0]).toMatchObject({ status: 'failed', error: row?.error });
    expect(calls.get(productId)).toBe(1);
  });

  it('pushes to a connected (sandbox) Shopify store at the time, and the product goes live', async () => {
    // Connect the built-in sandbox store the way the browser does: start, the relayed approval, the callback.
    const other = t.client();
    const start = await other.get('/auth/shopify/start?shop=schedule-shop.myshopify.com');
    const approved = await other.get(start.headers.location as string);
    const callback = new URL(approved.headers.location as string);
    expect((await other.get(callback.pathname + callback.search)).headers.location).toBe(
      '/integrations?connected=shopify',
    );
    const otherWs = await other.workspaceId(t.deps.db);
    const { id: designId } = await insertDesign(t.deps, otherWs, await solidPng(64, 64, { r: 200, g: 40, b: 40 }));
    const created = await other.post('/api/products', {
      title: 'Scheduled Mug',
      description: 'Hot drinks, on time.',
      price: 14.99,
      productType: 'mug',
      variants: [{ option: '11 oz', price: 14.99 }],
      designId,
    });
    expect(created.statusCode, created.body).toBe(201);
    const productId = created.json<{ id: string }>().id;

    const res = await other.post('/api/schedule-upload', { productId, platform: 'shopify', ...thisMinuteUtc() });
    expect(res.statusCode, res.body).toBe(201);
    const row = await waitFor(
      () => scheduleRow(t.deps, res.json<TSchedule>().id),
      (r) => r?.status === 'completed' || r?.status === 'failed',
    );
    expect(row?.error).toBeNull();
    expect(row?.status).toBe('completed');
    expect(row?.result).toMatchObject({ success: true, platform: 'shopify' });
    const product = (await other.get(`/api/products/${productId}`)).json<{ status: string }>();
    expect(product.status).toBe('live');
    expect(calls.get(productId)).toBe(1);
  });

  it('completes a push, and puts a push that failed for a passing reason back to pending for a retry', async () => {
    const good = await insertProduct(t.deps, ws);
    const flaky = await insertProduct(t.deps, ws);
    pushFor.set(good, async () => ({ remoteProductId: 'gid://shopify/Product/1' }));
    pushFor.set(flaky, async () => {
      throw new Error('socket hang up');
    });
    const goodId = await scheduleNow(good);
    const flakyId = await scheduleNow(flaky);
    const done = await waitFor(
      () => scheduleRow(t.deps, goodId),
      (r) => r?.status === 'completed',
    );
    expect(done?.result).toEqual({ remoteProductId: 'gid://shopify/Product/1' });
    const retrying = await waitFor(
      () => scheduleRow(t.deps, flakyId),
      (r) => r?.error === 'socket hang up',
    );
    expect(retrying?.status).toBe('pending');
    // pg-boss takes the job back for a later attempt once the handler has failed.
    await waitFor(
      () => queueJob(t.deps, flakyId),
      (rows) => rows[0]?.state === 'retry',
    );
    expect(calls.get(good)).toBe(1);
  });

  it("moves an upload to the next window when the store's day budget is spent, and says so", async () => {
    const productId = await insertProduct(t.deps, ws);
    pushFor.set(productId, async () => {
      throw new AppError(503, ErrorCode.RateLimited, "Etsy's daily request budget is spent; try again later", {
        retryAfterSeconds: '7200',
      });
    });
    const id = await scheduleNow(productId);
    const row = await waitFor(
      () => scheduleRow(t.deps, id),
      (r) => r?.status === 'pending' && Boolean(r.error),
    );
    expect(row?.error).toMatch(/^Etsy's daily request budget is spent; try again later\. The upload moved to \d{4}-/);
    const movedTo = new Date(String(/moved to (\S+)\.$/.exec(row?.error ?? '')?.[1]));
    expect(Math.abs(movedTo.getTime() - (behind().getTime() + 7200_000))).toBeLessThan(60_000);
    // A new job waits for that time; the first one ended without a pg-boss retry.
    const waiting = (await t.deps.db.execute(
      sql`select start_after from pgboss.job where data->>'scheduleId' = ${id} and state = 'created'`,
    )) as unknown as { rows: { start_after: unknown }[] };
    expect(waiting.rows).toHaveLength(1);
    expect(Math.abs(new Date(String(waiting.rows[0]?.start_after)).getTime() - movedTo.getTime())).toBeLessThan(1000);
    await waitFor(
      () => queueJob(t.deps, id),
      (rows) => rows[0]?.state === 'completed',
    );
    expect(calls.get(productId)).toBe(1);
  });

  it('treats a refusal as final: a 409 from the store push is not retried', async () => {
    const productId = await insertProduct(t.deps, ws);
    pushFor.set(productId, async () => {
      throw conflict('"Sunset Tee" is already live; it cannot be uploaded again');
    });
    const id = await scheduleNow(productId);
    const row = await waitFor(
      () => scheduleRow(t.deps, id),
      (r) => r?.status === 'failed',
    );
    expect(row?.error).toContain('already live');
    await waitFor(
      () => queueJob(t.deps, id),
      (rows) => rows[0]?.state === 'completed',
    );
    expect(calls.get(productId)).toBe(1);
  });
});

describe('scheduled uploads: several instances', () => {
  const behind = () => new Date(Date.now() - 120_000);

  it('never runs one schedule twice with two app instances on one database', async () => {
    const database: Database = await openTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-two-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', JOBS_WORKER: 'false' });
    config.webDistDir = null;
    const instances = await Promise.all([0, 1].map(() => buildApp({ config, database, logger: false, now: behind })));
    const runs = new Map<string, number[]>();
    try {
      for (const [index, { app, deps }] of instances.entries()) {
        await app.ready();
        const job = scheduledUploadJobWith(async ({ productId }: { productId: string; platform: TStorePlatform }) => {
          runs.set(productId, [...(runs.get(productId) ?? []), index]);
          await new Promise((r) => setTimeout(r, 50));
          return { ok: true };
        });
        await startWorker(deps, job, { pollingIntervalSeconds: 0.5 });
      }
      const [first] = instances;
      if (!first) throw new Error('no instance');
      const client = new (await import('./helpers')).TestClient(first.app);
      const ws = await client.workspaceId(first.deps.db);
      const productIds: string[] = [];
      const scheduleIds: string[] = [];
      for (let i = 0; i < 8; i++) {
        const productId = await insertProduct(first.deps, ws);
        productIds.push(productId);
        const res = await client.post('/api/schedule-upload', { productId, platform: 'shopify', ...thisMinuteUtc() });
        expect(res.statusCode, res.body).toBe(201);
        scheduleIds.push(res.json<TSchedule>().id);
      }
      await waitFor(
        async () => Promise.all(scheduleIds.map((id) => scheduleRow(first.deps, id))),
        (rows) => rows.every((r) => r?.status === 'completed'),
      );
      for (const productId of productIds) expect(runs.get(productId)).toHaveLength(1);
    } finally {
      for (const { app } of instances) await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
