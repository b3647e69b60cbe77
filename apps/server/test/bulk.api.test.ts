import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_STORE_FEES,
  priceForMargin,
  type TBulkJob,
  type TProduct,
  type TProductDetail,
} from '@podforge/contract';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { aiGenerations, bulkItems, bulkRuns, mockups, products } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import { OfflineAiProvider } from '../src/integrations/ai/offline.provider';
import type { AiProvider } from '../src/integrations/ai/provider';
import { startWorker } from '../src/jobs/workers';
import { claimRun, releaseRun } from '../src/modules/bulk/bulk.repository';
import { bulkCreateJob, bulkSlicing, runBulk } from '../src/modules/bulk/bulk.service';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, openTestDatabase, type TestApp, TestClient } from './helpers';

const TEE = 71; // Bella + Canvas 3001: White, Black, ... XS-4XL
const MUG = 19; // White Glossy Mug: White only

async function designsOf(deps: AppDeps, workspaceId: string, n: number): Promise<string[]> {
  const png = await solidPng(400, 400, { r: 200, g: 40, b: 40 });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await insertDesign(deps, workspaceId, png, `Sunset Cat ${i + 1}.png`)).id);
  return ids;
}

async function settled(client: TestClient, jobId: string, timeoutMs = 60_000): Promise<TBulkJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    if (job.status === 'done') return job;
    if (Date.now() > until) throw new Error(`bulk job not done: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function counts(deps: AppDeps, workspaceId: string) {
  const [p] = await deps.db.select({ n: count() }).from(products).where(eq(products.workspaceId, workspaceId));
  const [m] = await deps.db.select({ n: count() }).from(mockups).where(eq(mockups.workspaceId, workspaceId));
  const [g] = await deps.db
    .select({ n: count() })
    .from(aiGenerations)
    .where(eq(aiGenerations.workspaceId, workspaceId));
  return { products: p?.n ?? 0, mockups: m?.n ?? 0, listings: g?.n ?? 0 };
}

/** The offline writer, failing its first `failures` calls and hanging (a process that stopped) from call `hangAt`. */
function flakyAi(options: { failures?: number; hangAt?: number }): AiProvider & { calls: number } {
  const offline = new OfflineAiProvider();
  const provider = {
    name: offline.name,
    calls: 0,
    generateContent(...args: Parameters<AiProvider['generateContent']>) {
      provider.calls++;
      if (options.hangAt !== undefined && provider.calls >= options.hangAt) return new Promise<never>(() => {});
      if (provider.calls <= (options.failures ?? 0)) return Promise.reject(new Error('provider unreachable'));
      return offline.generateContent(...args);
    },
    analyzeImage: offline.analyzeImage.bind(offline),
    generateDesigns: offline.generateDesigns.bind(offline),
  };
  return provider;
}

describe('bulk creation', () => {
  let t: TestApp;
  let client: TestClient;
  let workspaceId: string;
  let ai: ReturnType<typeof flakyAi>;

  beforeAll(async () => {
    ai = flakyAi({});
    t = await createTestApp({ ai });
    client = t.client();
    workspaceId = await client.workspaceId(t.deps.db);
    await startWorker(t.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
  });
  afterAll(() => t.close());

  it('makes one product per design x blank, with a mockup per colour, listing text and markup prices', async () => {
    const designIds = await designsOf(t.deps, workspaceId, 2);
    const res = await client.post('/api/bulk', {
      designIds,
      catalogProductIds: [TEE, MUG],
      colors: ['White', 'Black'],
      pricing: { markupPercent: 50 },
      status: 'ready',
    });
    expect(res.statusCode, res.body).toBe(202);
    const started = res.json<TBulkJob>();
    expect(started).toMatchObject({ total: 4, status: 'running' });
    const job = await settled(client, started.jobId);
    expect(job.failures).toEqual([]);
    expect(job).toMatchObject({ done: 4, total: 4 });
    expect(new Set(job.productIds).size).toBe(4);
    for (const id of job.productIds) {
      const product = (await client.get(`/api/products/${id}`)).json<TProductDetail>();
      expect(product.status).toBe('ready');
      expect(product.title.length).toBeGreaterThan(0);
      expect(product.description.length).toBeGreaterThan(0);
      for (const v of product.variants) {
        expect(v.price).toBe(Math.ceil(Math.round((v.baseCost ?? 0) * 100) * 1.5 - 1e-6) / 100);
        expect(v.price).toBeGreaterThanOrEqual(v.baseCost ?? 0);
      }
      if (product.catalogProductId === TEE) {
        expect(new Set(product.variants.map((v) => v.color))).toEqual(new Set(['White', 'Black']));
        expect(product.mockups.map((m) => m.color).sort()).toEqual(['Black', 'White']);
        expect(product.title).toMatch(/t-shirt|tee/i);
      } else {
        expect(product.catalogProductId).toBe(MUG);
        expect(new Set(product.variants.map((v) => v.color))).toEqual(new Set(['White']));
        expect(product.mockups.map((m) => m.color)).toEqual(['White']);
        expect(product.title).toMatch(/mug/i);
      }
    }
  }, 90_000);

  it('prices by margin after the store fee with the contract rule', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [MUG],
      pricing: { marginPercent: 40 },
      platform: 'etsy',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await settled(client, res.json<TBulkJob>().jobId);
    const product = (await client.get(`/api/products/${job.productIds[0]}`)).json<TProduct>();
    expect(product.status).toBe('draft');
    for (const v of product.variants) {
      expect(v.price).toBe(priceForMargin(v.baseCost ?? 0, 40, DEFAULT_STORE_FEES.etsy));
    }
  }, 60_000);

  it('refuses a rule that would sell below cost, naming the variant, and makes nothing', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const before = await counts(t.deps, workspaceId);
    const res = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { fixed: 12 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toMatch(
      /^pricing: Unisex Staple T-Shirt \| Bella \+ Canvas 3001 Black \/ 3XL: price 12\.00 is below its base cost of \d+\.\d\d/,
    );
    expect(await counts(t.deps, workspaceId)).toEqual(before);
    const ok = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      colors: ['Black'],
      pricing: { fixed: 40 },
    });
    expect(ok.statusCode, ok.body).toBe(202);
    const job = await settled(client, ok.json<TBulkJob>().jobId);
    const product = (await client.get(`/api/products/${job.productIds[0]}`)).json<TProduct>();
    expect(product.variants.every((v) => v.price === 40)).toBe(true);
  }, 60_000);

  it('answers bad input with an error naming it', async () => {
    const [designId] = await designsOf(t.deps, workspaceId, 1);
    const unknown = '00000000-0000-4000-8000-000000000001';
    const missing = await client.post('/api/bulk', {
      designIds: [designId, unknown],
      catalogProductIds: [TEE],
      pricing: { markupPercent: 50 },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error: string }>().error).toBe(`designIds: design ${unknown} not found`);

    const other = t.client();
    const theirs = await other.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [TEE],
      pricing: { markupPercent: 50 },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json<{ error: string }>().error).toContain(designId);

    const empty = await client.post('/api/bulk', {
      designIds: [],
      catalogProductIds: [],
      pricing: { markupPercent: 50 },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: string }>().error).toMatch(/designIds.*choose at least one design/);

    const blank = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [999_999],
      pricing: { markupPercent: 50 },
    });
    expect(blank.statusCode).toBe(404);
    expect(blank.json<{ error: string }>().error).toContain('999999');

    const colour = await client.post('/api/bulk', {
      designIds: [designId],
      catalogProductIds: [MUG],
      colors: ['Black'],
      pricing: { markupPercent: 50 },
    });
    expect(colour.statusCode).toBe(400);
    expect(colour.json<{ error: string }>().error).toBe('colors: White Glossy Mug comes in none of Black');

    const job = await other.get(`/api/bulk/${unknown}`);
    expect(job.statusCode).toBe(404);
  });

  it('records a failed product and makes it on retry, with no duplicates', async () => {
    ai.calls = 0;
    const failing = flakyAi({ failures: 1 });
    const app = await createTestApp({ ai: failing });
    try {
      const c = app.client();
      const ws = await c.workspaceId(app.deps.db);
      await startWorker(app.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
      const designIds = await designsOf(app.deps, ws, 2);
      const res = await c.post('/api/bulk', { designIds, catalogProductIds: [MUG], pricing: { markupPercent: 80 } });
      expect(res.statusCode, res.body).toBe(202);
      const first = await settled(c, res.json<TBulkJob>().jobId);
      expect(first.done).toBe(1);
      expect(first.failures).toHaveLength(1);
      expect(first.failures[0]?.error).toBeTruthy();
      const retry = await c.post(`/api/bulk/${first.jobId}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      const second = await settled(c, first.jobId);
      expect(second).toMatchObject({ done: 2, total: 2, failures: [] });
      expect(await counts(app.deps, ws)).toEqual({ products: 2, mockups: 2, listings: 2 });
      expect((await c.post(`/api/bulk/${first.jobId}/retry`)).statusCode).toBe(409);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe('bulk creation: restart', () => {
  it('a server stopped mid-run: a new one on the same database finishes it with no duplicate', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-bulk-restart-'));
    const database = await openTestDatabase();
    const boot = async (ai: AiProvider) => {
      const config = loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: '',
        JOB_STOP_GRACE_SECONDS: '1',
        AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '1000000',
        AI_MONTHLY_CREDITS_PER_ADDRESS: '1000000000',
      });
      config.webDistDir = null;
      const built = await buildApp({ config, database, logger: false, ai });
      await built.app.ready();
      await startWorker(built.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
      return built;
    };
    try {
      // The first server's listing writer stops answering at its fourth call (as if the process died there).
      const first = await boot(flakyAi({ hangAt: 4 }));
      const client = new TestClient(first.app);
      const ws = await client.workspaceId(first.deps.db);
      const designIds = await designsOf(first.deps, ws, 3);
      const res = await client.post('/api/bulk', {
        designIds,
        catalogProductIds: [TEE, MUG],
        colors: ['White', 'Black'],
        pricing: { markupPercent: 60 },
      });
      expect(res.statusCode, res.body).toBe(202);
      const { jobId } = res.json<TBulkJob>();
      for (let i = 0; i < 300; i++) {
        const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
        if (job.done >= 2) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const midway = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
      expect(midway.status).toBe('running');
      expect(midway.done).toBeLessThan(6);
      await first.app.close();

      const second = await boot(new OfflineAiProvider());
      try {
        const client2 = new TestClient(second.app);
        client2.cookie = client.cookie;
        const job = await settled(client2, jobId);
        expect(job).toMatchObject({ done: 6, total: 6, failures: [] });
        // 3 designs x 2 blanks; tees in 2 colours, mugs in 1: 3 x (2 + 1) mockups; one listing per product.
        expect(await counts(second.deps, ws)).toEqual({ products: 6, mockups: 9, listings: 6 });
        const items = await second.deps.db.select().from(bulkItems).where(eq(bulkItems.runId, jobId));
        expect(new Set(items.map((i) => i.productId)).size).toBe(6);
      } finally {
        await second.app.close();
      }
    } finally {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('bulk creation: a long run, one attempt at a time', () => {
  let t: TestApp;
  let client: TestClient;
  let workspaceId: string;
  const saved = { ...bulkSlicing };

  beforeAll(async () => {
    // No bulk worker yet: the first case runs the job's handler itself.
    t = await createTestApp({});
    client = t.client();
    workspaceId = await client.workspaceId(t.deps.db);
    bulkSlicing.claimPollMs = 50;
  });
  afterAll(async () => {
    Object.assign(bulkSlicing, saved);
    await t.close();
  });

  const runOf = async (id: string) => (await t.deps.db.select().from(bulkRuns).where(eq(bulkRuns.id, id)))[0];

  it('a second attempt waits while the first holds the run, then carries on alone', async () => {
    const designIds = await designsOf(t.deps, workspaceId, 2);
    const res = await client.post('/api/bulk', { designIds, catalogProductIds: [MUG], pricing: { markupPercent: 50 } });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json<TBulkJob>();
    // The first attempt (a job pg-boss expired and retried while it still works) holds the run.
    const first = '00000000-0000-4000-a000-000000000001';
    expect(await claimRun(t.deps.db, jobId, first, 60_000)).toBe(true);
    let ended = false;
    const second = runBulk(t.deps, workspaceId, jobId).finally(() => {
      ended = true;
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(ended).toBe(false);
    const items = await t.deps.db.select().from(bulkItems).where(eq(bulkItems.runId, jobId));
    expect(items.map((i) => i.status)).toEqual(['pending', 'pending']);
    expect(await runOf(jobId)).toMatchObject({ claimedBy: first });
    // The first attempt ends: the second takes the run and finishes it, and gives the claim up.
    await releaseRun(t.deps.db, jobId, first);
    await second;
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    expect(job).toMatchObject({ status: 'done', done: 2, total: 2 });
    expect(await runOf(jobId)).toMatchObject({ claimedBy: null, claimedUntil: null });
  }, 60_000);

  it('a claim that lapsed (its process died) is taken over', async () => {
    const designIds = await designsOf(t.deps, workspaceId, 1);
    const res = await client.post('/api/bulk', { designIds, catalogProductIds: [MUG], pricing: { markupPercent: 50 } });
    const { jobId } = res.json<TBulkJob>();
    expect(await claimRun(t.deps.db, jobId, '00000000-0000-4000-a000-000000000002', 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    await runBulk(t.deps, workspaceId, jobId);
    expect((await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>()).toMatchObject({ status: 'done', done: 1 });
  }, 60_000);

  it('works the run in slices, each job sending the next, with no duplicate', async () => {
    bulkSlicing.sliceMs = 1;
    try {
      await startWorker(t.deps, bulkCreateJob, { pollingIntervalSeconds: 0.5 });
      const designIds = await designsOf(t.deps, workspaceId, 3);
      const res = await client.post('/api/bulk', {
        designIds,
        catalogProductIds: [MUG],
        pricing: { markupPercent: 50 },
      });
      const { jobId } = res.json<TBulkJob>();
      const job = await settled(client, jobId);
      expect(job).toMatchObject({ done: 3, total: 3, failures: [] });
      expect(new Set(job.productIds).size).toBe(3);
      // One item per slice: three jobs.
      expect((await runOf(jobId))?.slice).toBe(2);
      const [made] = await t.deps.db.select({ n: count() }).from(products).where(eq(products.workspaceId, workspaceId));
      expect(made?.n).toBe(6);
    } finally {
      bulkSlicing.sliceMs = saved.sliceMs;
    }
  }, 90_000);
});
