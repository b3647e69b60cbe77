import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TDashboardStats, TProductPage } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { aiGenerations, integrations, orders, products, productVariants, publications } from '../src/db/schema';
import type { AppDeps } from '../src/deps';
import { insertDesign, solidPng } from './fixtures/designs';
import { openTestDatabase, TestClient } from './helpers';

/**
 * Lists and dashboard answers are kept per workspace read version (lib/read-cache.ts). Two app instances on one
 * database: what one instance (or a job, or SQL) changes, the other shows at its next answer.
 */
describe('kept list and dashboard answers with two instances on one database', () => {
  let database: Database;
  let dataDir: string;
  let instances: { app: FastifyInstance; deps: AppDeps }[];
  let one: TestClient;
  let two: TestClient;
  let ws: string;
  let designId: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-read-cache-'));
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', JOBS_WORKER: 'false' });
    config.webDistDir = null;
    instances = await Promise.all([0, 1].map(() => buildApp({ config, database, logger: false })));
    for (const { app } of instances) await app.ready();
    const [first, second] = instances;
    if (!first || !second) throw new Error('two instances expected');
    one = new TestClient(first.app);
    ws = await one.workspaceId(first.deps.db);
    // The same seller on the other instance (a load balancer sends each call anywhere).
    two = new TestClient(second.app);
    two.cookie = one.cookie;
    designId = (await insertDesign(first.deps, ws, await solidPng(200, 200, { r: 10, g: 20, b: 30 }))).id;
  });
  afterAll(async () => {
    for (const { app } of instances) await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const list = async (client: TestClient, query = '') => {
    const res = await client.get(`/api/products?page=1&pageSize=10${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TProductPage>();
  };
  const stats = async (client: TestClient) => {
    const res = await client.get('/api/dashboard/stats');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TDashboardStats>();
  };
  const create = async (client: TestClient, title: string) => {
    const res = await client.post('/api/products', {
      title,
      description: 'Kept answers',
      price: 20,
      tags: ['kept'],
      productType: 'mug',
      designId,
      variants: [{ option: 'One size', price: 20 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };

  it('shows on one instance a product created, changed and deleted through the other', async () => {
    expect((await list(one)).total).toBe(0);
    expect((await stats(one)).totalProducts).toBe(0);
    const id = await create(two, 'Made on two');
    expect((await list(one)).items.map((p) => p.title)).toEqual(['Made on two']);
    expect((await list(one, '&search=made')).total).toBe(1);
    expect((await stats(one)).totalProducts).toBe(1);

    const patched = await two.patch(`/api/products/${id}`, { title: 'Renamed on two' });
    expect(patched.statusCode, patched.body).toBe(200);
    expect((await list(one)).items[0]?.title).toBe('Renamed on two');
    expect((await list(one, '&search=made')).total).toBe(0);

    expect((await two.delete(`/api/products/${id}`)).statusCode).toBe(204);
    expect((await list(one)).total).toBe(0);
    expect((await stats(one)).totalProducts).toBe(0);
  });

  it('shows changes written by SQL (jobs, webhooks) to variants, publications, orders and AI credits', async () => {
    const id = await create(one, 'Written by jobs');
    expect((await list(two)).items[0]?.variants[0]?.price).toBe(20);
    const db = instances[0]?.deps.db;
    if (!db) throw new Error('no database');
    await db.update(productVariants).set({ price: '24.50' }).where(eq(productVariants.productId, id));
    expect((await list(two)).items[0]?.variants[0]?.price).toBe(24.5);

    const [store] = await db
      .insert(integrations)
      .values({ workspaceId: ws, kind: 'store', platform: 'shopify', externalId: 'kept.myshopify.com' })
      .returning();
    if (!store) throw new Error('no store');
    await db.transaction(async (tx) => {
      await tx.insert(publications).values({
        workspaceId: ws,
        productId: id,
        integrationId: store.id,
        status: 'published',
        publishedAt: new Date(),
      });
      await tx.update(products).set({ status: 'live' }).where(eq(products.id, id));
    });
    const live = (await list(two)).items[0];
    expect(live?.status).toBe('live');
    expect(live?.liveOn).toEqual(['shopify']);

    expect((await stats(two)).store).toBeNull();
    await db.insert(orders).values({
      workspaceId: ws,
      integrationId: store.id,
      remoteOrderId: '1001',
      name: '#1001',
      currency: 'USD',
      revenue: '30.00',
      cost: '12.00',
      status: 'shipped',
      orderedAt: new Date(),
    });
    expect((await stats(two)).store?.sales).toEqual({ amount: '30.00', currency: 'USD' });

    const used = (await stats(two)).aiCredits.used;
    await db.insert(aiGenerations).values({ workspaceId: ws, kind: 'content', request: {}, provider: 'offline' });
    expect((await stats(two)).aiCredits.used).toBe(used + 1);
  });

  it.skipIf(process.env.TEST_DB !== 'postgres')(
    'moves a workspace’s read version once per committed transaction, and not for another workspace’s changes',
    async () => {
      const db = instances[0]?.deps.db;
      if (!db) throw new Error('no database');
      const id = await create(one, 'Versioned');
      const v0 = await database.readVersionOf(ws);
      await db.transaction(async (tx) => {
        await tx.update(products).set({ title: 'Versioned again' }).where(eq(products.id, id));
        await tx.update(productVariants).set({ price: '21.00' }).where(eq(productVariants.productId, id));
        // Not yet committed: no reader may take the version as covering this change.
        const outside = await database.readVersionOf(ws);
        expect(outside).toBe(v0);
      });
      expect(await database.readVersionOf(ws)).toBe(v0 + 1);
      await db.execute(sql`SELECT 1`);
      expect(await database.readVersionOf(ws)).toBe(v0 + 1);

      const other = new TestClient(instances[1]?.app as FastifyInstance);
      const otherWs = await other.workspaceId(db);
      await db
        .insert(aiGenerations)
        .values({ workspaceId: otherWs, kind: 'content', request: {}, provider: 'offline' });
      expect(await database.readVersionOf(ws)).toBe(v0 + 1);
      expect(await database.readVersionOf(otherWs)).toBeGreaterThan(0);
    },
  );
});
