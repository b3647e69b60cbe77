import type { TBulkJob, TIntegration, TProductDetail } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publications } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import type { FakeAmazon } from '../src/integrations/amazon/fake-server';
import { startWorker, startWorkers } from '../src/jobs/workers';
import { amazonListingsJob } from '../src/modules/amazon/amazon-listings';
import { bulkCreateJob } from '../src/modules/bulk/bulk.service';
import { storePushJob } from '../src/modules/products/store-push';
import { connectAmazon } from './fixtures/amazon';
import { insertDesign, solidPng } from './fixtures/designs';
import { waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * A bulk run pushing to the built-in Amazon sandbox seller through the real server: each product made becomes one
 * variation family (a parent SKU and a child per variant, every call checked against Amazon's models by the fake),
 * the background listing read (`amazon-listings`) finds each live once Amazon processed it, and a retry of a push
 * whose answer was lost makes no second family.
 */

const APP = 'http://podforge.test';
const TEE = 71; // Bella + Canvas 3001
const SLOW = 180_000;
let t: TestApp;
let fake: FakeAmazon;
let client: TestClient;
let store: TIntegration;

async function designsOf(deps: AppDeps, workspaceId: string, n: number, name: string): Promise<string[]> {
  const png = await solidPng(400, 400, { r: 30, g: 90, b: 200 });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await insertDesign(deps, workspaceId, png, `${name} ${i + 1}.png`)).id);
  return ids;
}

async function follow(jobId: string, timeoutMs = 120_000): Promise<TBulkJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await client.get(`/api/bulk/${jobId}`)).json<TBulkJob>();
    if (job.status !== 'running') return job;
    if (Date.now() > until) throw new Error(`bulk job still running: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The seller's families in the sandbox: parent SKU -> its children's SKUs (as Amazon's attributes say). */
const families = (sellerId: string) => {
  const items = fake.listings(sellerId);
  const value = (attrs: Record<string, unknown[]>, name: string) =>
    (attrs[name]?.[0] as Record<string, unknown> | undefined) ?? {};
  const out = new Map<string, string[]>();
  for (const parent of items.filter((l) => value(l.attributes, 'parentage_level').value === 'parent'))
    out.set(
      parent.sku,
      items
        .filter((c) => value(c.attributes, 'child_parent_sku_relationship').parent_sku === parent.sku)
        .map((c) => c.sku),
    );
  return out;
};

const amazonCopy = async (productId: string) =>
  (await client.get(`/api/products/${productId}`))
    .json<TProductDetail>()
    .storeCopies.find((c) => c.platform === 'amazon');

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP } });
  t.deps.amazon.sandboxOptions = { processingMs: 60_000, fetchImages: false };
  fake = (await t.deps.amazon.sandboxServer()) as FakeAmazon;
  client = t.client();
  store = await connectAmazon(client, APP, 'ATVPDKIKX0DER');
  const set = await client.post(`/api/amazon/${store.id}/settings`, { brand: 'Generic', gtinExempt: true });
  expect(set.statusCode, set.body).toBe(200);
  await startWorker(t.deps, storePushJob);
  await startWorkers(t.deps, [bulkCreateJob, amazonListingsJob], { pollingIntervalSeconds: 0.5 });
}, SLOW);
afterAll(async () => {
  await t?.close();
});

describe('bulk runs to Amazon', () => {
  it(
    '2 designs x 1 blank: one family each, live after Amazon processes it; a lost answer is retried without a second family',
    async () => {
      const workspaceId = await client.workspaceId(t.deps.db);
      const sellerId = (
        (await t.deps.db.execute(sql`SELECT external_id FROM integrations WHERE id = ${store.id}`)) as {
          rows: { external_id: string }[];
        }
      ).rows[0]?.external_id;
      if (!sellerId) throw new Error('no seller id');
      const designIds = await designsOf(t.deps, workspaceId, 2, 'Harbour Light');
      const puts = () => fake.calls.filter((c) => c.operationId === 'putListingsItem' && c.status === 200).length;

      // The first PUT is applied, its answer lost (500): that product's push fails, its SKU is at Amazon.
      fake.failNextPutAfterApplying();
      const res = await client.post('/api/bulk', {
        designIds,
        catalogProductIds: [TEE],
        colors: ['Black'],
        pricing: { markupPercent: 60 },
        status: 'ready',
        platform: 'amazon',
        stores: [store.id],
      });
      expect(res.statusCode, res.body).toBe(202);
      const jobId = res.json<TBulkJob>().jobId;
      const first = await follow(jobId);
      expect(first).toMatchObject({ status: 'done', done: 2, total: 2, failures: [] });
      expect(first.pushFailures).toHaveLength(1);
      expect(first.pushFailures[0]).toMatchObject({ integrationId: store.id });
      const pushed = first.items.filter((i) => i.pushes[0]?.status === 'pushed');
      expect(pushed).toHaveLength(1);

      const retry = await client.post(`/api/bulk/${jobId}/retry`);
      expect(retry.statusCode, retry.body).toBe(202);
      const job = await follow(jobId);
      expect(job).toMatchObject({ status: 'done', done: 2, total: 2, failures: [], pushFailures: [] });
      for (const item of job.items) {
        expect(item.pushes.map((p) => [p.platform, p.status])).toEqual([['amazon', 'pushed']]);
        // The sandbox seller's link: its listings page at the family.
        expect(item.pushes[0]?.remoteUrl).toMatch(/^\/integrations\/amazon-sandbox#PF-[0-9A-F]+-PARENT$/);
      }

      // Amazon processes the submissions: one family per product, each of its variants a child, none twice.
      await fake.processDue(true);
      const held = families(sellerId);
      expect(held.size).toBe(2);
      const products = await Promise.all(
        job.productIds.map(async (id) => (await client.get(`/api/products/${id}`)).json<TProductDetail>()),
      );
      for (const product of products) {
        const pubs = await t.deps.db.select().from(publications).where(eq(publications.productId, product.id));
        expect(pubs.map((p) => [p.integrationId, p.status])).toEqual([[store.id, 'published']]);
        const parentSku = pubs[0]?.remoteProductId ?? '';
        expect(parentSku).toMatch(/-PARENT$/);
        expect(held.get(parentSku)?.sort()).toEqual(product.variants.map((v) => v.sku).sort());
      }
      const skus = fake.listings(sellerId).map((l) => l.sku);
      expect(new Set(skus).size).toBe(skus.length);
      expect(puts()).toBeGreaterThan(0);

      // The background read (amazon-listings) finds each family live, and its jobs complete.
      for (const product of products)
        await waitFor(
          () => amazonCopy(product.id),
          (c) => c?.listing?.state === 'live',
          60_000,
        );
      const reads = await waitFor(
        async () =>
          (
            (await t.deps.db.execute(
              sql`SELECT state FROM pgboss.job WHERE name = 'amazon-listings' AND data->>'integrationId' = ${store.id} AND start_after <= now()`,
            )) as { rows: { state: string }[] }
          ).rows.map((r) => r.state),
        (states) => states.length > 0 && states.every((s) => s === 'completed' || s === 'created'),
      );
      expect(reads).toContain('completed');
      expect(reads).not.toContain('failed');
    },
    SLOW,
  );
});
