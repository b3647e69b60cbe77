import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/integrations', () => {
  it('is empty for a new workspace', async () => {
    const res = await t.client().get('/api/integrations');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("lists the workspace's stores then fulfilment services, with names and isConnected, and never a token", async () => {
    const client = t.client();
    const other = t.client();
    const ws = await client.workspaceId(t.deps.db);
    const otherWs = await other.workspaceId(t.deps.db);
    const verifiedAt = new Date('2026-03-01T10:00:00Z');
    const secret = t.deps.cipher.encrypt('shpat_secret_token');
    await t.deps.db.insert(integrations).values([
      {
        workspaceId: ws,
        kind: 'fulfillment',
        platform: 'printful',
        externalId: '42',
        storeName: 'My Printful',
        accessTokenEnc: secret,
        refreshTokenEnc: secret,
        scopes: 'orders',
        status: 'connected',
        verifiedAt,
        createdAt: new Date('2026-01-01T00:00:00Z'),
      },
      {
        workspaceId: ws,
        kind: 'store',
        platform: 'shopify',
        externalId: 'a.myshopify.com',
        storeName: 'Shop A',
        accessTokenEnc: secret,
        status: 'connected',
        verifiedAt,
        lastSyncAt: verifiedAt,
        createdAt: new Date('2026-01-02T00:00:00Z'),
      },
      {
        workspaceId: ws,
        kind: 'store',
        platform: 'shopify',
        externalId: 'b.myshopify.com',
        status: 'connected',
        createdAt: new Date('2026-01-03T00:00:00Z'),
      },
      { workspaceId: otherWs, kind: 'store', platform: 'shopify', externalId: 'x.myshopify.com', status: 'error' },
    ]);

    const res = await client.get('/api/integrations');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: expect.any(String),
        kind: 'store',
        platform: 'shopify',
        storeName: 'Shop A',
        name: 'Shop A',
        status: 'connected',
        verifiedAt: verifiedAt.toISOString(),
        lastSyncAt: verifiedAt.toISOString(),
        isConnected: true,
        sandbox: false,
        problem: null,
      },
      {
        id: expect.any(String),
        kind: 'store',
        platform: 'shopify',
        storeName: null,
        name: 'Shopify',
        status: 'connected',
        verifiedAt: null,
        lastSyncAt: null,
        // Connected but never verified: not usable for pushes or syncs.
        isConnected: false,
        sandbox: false,
        problem: null,
      },
      {
        id: expect.any(String),
        kind: 'fulfillment',
        platform: 'printful',
        storeName: 'My Printful',
        name: 'My Printful',
        status: 'connected',
        verifiedAt: verifiedAt.toISOString(),
        lastSyncAt: null,
        isConnected: true,
        sandbox: false,
        problem: null,
      },
    ]);
    expect(res.body).not.toMatch(/token|scopes|secret/i);
    expect(res.body).not.toContain(secret);

    const others = (await other.get('/api/integrations')).json();
    expect(others).toHaveLength(1);
    expect(others[0]).toMatchObject({ status: 'error', isConnected: false, name: 'Shopify' });
  });
});
