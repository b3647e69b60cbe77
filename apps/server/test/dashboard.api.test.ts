import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiGenerations, integrations, orders, products, publications } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

const NOW = new Date('2026-11-22T12:00:00Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 24 * 3600 * 1000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW, env: { AI_MONTHLY_CREDITS: '50' } });
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/dashboard/stats', () => {
  it('reports zeros, no trends and no store figures for a new workspace', async () => {
    const stats = (await t.client().get('/api/dashboard/stats')).json();
    expect(stats).toMatchObject({
      month: 'November 2026',
      totalProducts: 0,
      totalProductsTrend: null,
      pendingUploads: 0,
      weeklyUploads: 0,
      thisWeek: 0,
      weeklyUploadsTrend: null,
      aiCredits: { allowance: 50, used: 0, remaining: 50, resetsAt: '2026-12-01T00:00:00.000Z' },
      store: null,
      recentUploads: [],
    });
  });

  it('computes every figure from the rows of the workspace', async () => {
    const client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    const db = t.deps.db;
    // 4 products before this month, 2 created this month.
    const inserted = await db
      .insert(products)
      .values([
        { workspaceId: ws, title: 'Old live', productType: 'tshirt', status: 'live', createdAt: daysAgo(60) },
        { workspaceId: ws, title: 'Old live 2', productType: 'tshirt', status: 'live', createdAt: daysAgo(50) },
        { workspaceId: ws, title: 'Old draft', productType: 'mug', status: 'draft', createdAt: daysAgo(40) },
        { workspaceId: ws, title: 'Old processing', productType: 'mug', status: 'processing', createdAt: daysAgo(30) },
        { workspaceId: ws, title: 'New ready', productType: 'poster', status: 'ready', createdAt: daysAgo(3) },
        { workspaceId: ws, title: 'Newest draft', productType: 'hoodie', status: 'draft', createdAt: daysAgo(1) },
      ])
      .returning({ id: products.id });
    const [store] = await db
      .insert(integrations)
      .values({
        workspaceId: ws,
        kind: 'store',
        platform: 'shopify',
        externalId: 'a.myshopify.com',
        status: 'connected',
      })
      .returning({ id: integrations.id });
    const storeId = store?.id ?? '';
    const ids = inserted.map((p) => p.id);
    // 3 pushes in the last 7 days, 1 in the 7 days before, 1 failed push that does not count.
    await db.insert(publications).values([
      {
        workspaceId: ws,
        productId: ids[0] ?? '',
        integrationId: storeId,
        status: 'published',
        publishedAt: daysAgo(1),
      },
      {
        workspaceId: ws,
        productId: ids[1] ?? '',
        integrationId: storeId,
        status: 'published',
        publishedAt: daysAgo(2),
      },
      {
        workspaceId: ws,
        productId: ids[4] ?? '',
        integrationId: storeId,
        status: 'published',
        publishedAt: daysAgo(6),
      },
      {
        workspaceId: ws,
        productId: ids[2] ?? '',
        integrationId: storeId,
        status: 'published',
        publishedAt: daysAgo(10),
      },
      { workspaceId: ws, productId: ids[3] ?? '', integrationId: storeId, status: 'failed', publishedAt: daysAgo(1) },
    ]);
    // AI usage: 7 credits this month, 20 last month (does not count).
    await db.insert(aiGenerations).values([
      { workspaceId: ws, kind: 'content', request: {}, provider: 'offline', credits: 5, createdAt: daysAgo(2) },
      { workspaceId: ws, kind: 'title', request: {}, provider: 'offline', credits: 2, createdAt: daysAgo(5) },
      { workspaceId: ws, kind: 'design', request: {}, provider: 'offline', credits: 20, createdAt: daysAgo(40) },
    ]);
    await db.insert(orders).values([
      {
        workspaceId: ws,
        integrationId: storeId,
        remoteOrderId: '1',
        name: '#1001',
        status: 'shipped',
        currency: 'USD',
        revenue: '30.00',
        cost: '12.50',
        orderedAt: daysAgo(2),
      },
      {
        workspaceId: ws,
        integrationId: storeId,
        remoteOrderId: '2',
        name: '#1002',
        status: 'sent',
        currency: 'USD',
        revenue: '20.00',
        cost: '9.00',
        orderedAt: daysAgo(4),
      },
    ]);

    const stats = (await client.get('/api/dashboard/stats')).json();
    expect(stats.totalProducts).toBe(6);
    expect(stats.totalProductsTrend).toEqual({ delta: 2, percent: 50 });
    expect(stats.pendingUploads).toBe(3);
    expect(stats.weeklyUploads).toBe(3);
    expect(stats.thisWeek).toBe(3);
    expect(stats.weeklyUploadsTrend).toEqual({ delta: 2, percent: 200 });
    expect(stats.aiCredits).toMatchObject({ allowance: 50, used: 7, remaining: 43 });
    expect(stats.store).toEqual({
      orders: 2,
      sales: { amount: '50.00', currency: 'USD' },
      // Each sale less the printer's charge less Shopify's default fee (2.9% + 0.30): 16.33 + 10.12.
      profit: { amount: '26.45', currency: 'USD' },
      conversionRate: null,
      aov: { amount: '25.00', currency: 'USD' },
    });
    expect(stats.recentUploads.map((r: { title: string }) => r.title)).toEqual([
      'Newest draft',
      'New ready',
      'Old processing',
    ]);

    const recent = (await client.get('/api/dashboard/recent-uploads')).json();
    expect(recent).toHaveLength(3);
    expect(recent[0]).toMatchObject({ title: 'Newest draft', status: 'draft' });
    expect(new Date(recent[0].createdAt).toISOString()).toBe(daysAgo(1).toISOString());
    expect((await client.get('/api/dashboard/recent-uploads?limit=10')).json()).toHaveLength(6);
  });
});
