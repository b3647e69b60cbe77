import type { TCatalogProductPage, TFulfilmentProviders, TPrintfulStatus } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrations, oauthStates } from '../src/db/schema';
import { PrintfulClient } from '../src/integrations/printful/client';
import { type FakePrintful, startFakePrintful } from '../src/integrations/printful/fake-server';
import { createTestApp, type TestApp, type TestClient } from './helpers';

let fake: FakePrintful;
let t: TestApp;
/** The app's clock; tests move it forward to reach token expiry. */
let clock = Date.now();
const sleeps: number[] = [];

beforeAll(async () => {
  // Pages of 20 at most, so a product's variants take several pages, as a real tee's hundreds do.
  fake = await startFakePrintful({
    clientId: 'pf-id',
    clientSecret: 'pf-secret',
    privateTokens: ['pf-private'],
    maxPageSize: 20,
  });
  t = await createTestApp({
    now: () => new Date(clock),
    env: {
      PRINTFUL_CLIENT_ID: 'pf-id',
      PRINTFUL_CLIENT_SECRET: 'pf-secret',
      PRINTFUL_API_BASE: fake.url,
      PRINTFUL_OAUTH_BASE: fake.url,
      APP_URL: 'http://podforge.test',
    },
  });
  // Same client on a virtual clock: rate-limit waits are recorded and advance it instead of taking time.
  let virtual = Date.now();
  t.deps.printful.client = new PrintfulClient({
    now: () => virtual,
    apiBase: fake.url,
    oauthBase: fake.url,
    clientId: 'pf-id',
    clientSecret: 'pf-secret',
    sleep: async (ms) => {
      sleeps.push(ms);
      virtual += ms;
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  t.deps.printful.clearCatalogCache();
  sleeps.length = 0;
});

/** Start -> Printful's authorize page (the fake approves or denies) -> the path of our callback. */
async function authorize(client: TestClient): Promise<string> {
  const start = await client.get('/api/printful/oauth/start');
  expect(start.statusCode).toBe(302);
  const answer = await fetch(start.headers.location as string, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const callback = new URL(answer.headers.get('location') as string);
  expect(callback.origin + callback.pathname).toBe('http://podforge.test/api/printful/oauth/callback');
  return callback.pathname + callback.search;
}

const status = async (client: TestClient) => (await client.get('/api/printful/status')).json<TPrintfulStatus>();

async function connect(client: TestClient) {
  const res = await client.get(await authorize(client));
  expect(res.headers.location).toBe('/integrations?printful=connected');
}

describe('Printful OAuth', () => {
  it('start redirects to the authorize URL with client_id, redirect_url and a stored state nonce', async () => {
    const client = t.client();
    const res = await client.get('/api/printful/oauth/start');
    const url = new URL(res.headers.location as string);
    expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe('pf-id');
    expect(url.searchParams.get('redirect_url')).toBe('http://podforge.test/api/printful/oauth/callback');
    const state = url.searchParams.get('state') as string;
    expect(state.length).toBeGreaterThanOrEqual(32);
    const rows = await t.deps.db.select().from(oauthStates).where(eq(oauthStates.state, state));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.workspaceId).toBe(await client.workspaceId(t.deps.db));
  });

  it('connects on a good state, storing the tokens encrypted, and the live catalogue replaces the bundled one', async () => {
    const client = t.client();
    expect(await status(client)).toEqual({ connected: false, oauthConfigured: true, sandbox: true });
    expect((await client.get('/api/printful/products')).json<TCatalogProductPage>().source).toBe('bundled');

    await connect(client);
    expect(await status(client)).toEqual({
      connected: true,
      via: 'oauth',
      storeName: 'Fake Print Store',
      oauthConfigured: true,
      sandbox: false,
    });
    const workspaceId = await client.workspaceId(t.deps.db);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, workspaceId));
    expect(row).toMatchObject({ kind: 'fulfillment', platform: 'printful', externalId: '10001', status: 'connected' });
    expect(row?.accessTokenEnc).toMatch(/^v1\./);
    expect(t.deps.cipher.decrypt(row?.accessTokenEnc as string)).toMatch(/^fake_at_/);
    expect(t.deps.cipher.decrypt(row?.refreshTokenEnc as string)).toMatch(/^fake_rt_/);
    expect(row?.tokenExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);

    const live = (await client.get('/api/printful/products')).json<TCatalogProductPage>();
    expect(live.source).toBe('printful');
    expect(live.total).toBe(3);
    const tee = live.items.find((p) => p.id === 71);
    expect(tee).toMatchObject({ name: 'Unisex Staple T-Shirt | Bella + Canvas 3001', basePrice: 9.25 });
    expect(tee?.mockupUrls[0]).toBe(`${fake.url}/images/71/white.svg`);
    expect(tee?.printAreas[0]).toMatchObject({ placement: 'front', widthPx: 1800, heightPx: 2400 });
    const mugs = (await client.get('/api/printful/products?category=Mugs')).json<TCatalogProductPage>();
    expect(mugs.items.map((p) => p.name)).toEqual(['White Glossy Mug']);
    const cheap = (await client.get('/api/printful/products?maxPrice=7')).json<TCatalogProductPage>();
    expect(cheap.items.map((p) => p.id)).toEqual([19]);
    const cats = (await client.get('/api/printful/categories?parent_id=0')).json<{ name: string }[]>();
    expect(cats.map((c) => c.name)).toEqual(['Apparel', 'Home & Living']);
    const templates = await client.get('/api/catalog/shopify/products?categoryId=21');
    expect(templates.json()).toEqual([expect.objectContaining({ id: 1, price: 9.5 })]);

    // Another workspace still sees the bundled catalogue.
    expect((await t.client().get('/api/printful/products')).json<TCatalogProductPage>().source).toBe('bundled');
  });

  it('serves the live catalogue through a 429: waits Retry-After, retries, and answers', async () => {
    const client = t.client();
    await connect(client);
    fake.throttleNext(1, 2);
    const before = fake.calls.length;
    const res = await client.get('/api/printful/products?search=mug');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TCatalogProductPage>().items.map((p) => p.id)).toEqual([19]);
    const calls = fake.calls.slice(before);
    expect(calls[0]?.status).toBe(429);
    expect(calls[1]).toEqual({ path: calls[0]?.path, status: 200 });
    expect(calls.slice(1).every((c) => c.status === 200)).toBe(true);
    expect(sleeps).toContain(2000);
  });

  it('turns endless 429s and Printful errors into clear messages, never a crash', async () => {
    const client = t.client();
    await connect(client);
    fake.throttleNext(10, 1);
    const limited = await client.get('/api/printful/products');
    expect(limited.statusCode).toBe(503);
    expect(limited.json()).toEqual({
      error: 'Printful: Printful is rate limiting requests; try again in a minute',
      code: 'RATE_LIMITED',
    });
    fake.throttleNext(0);
    t.deps.printful.clearCatalogCache();
    fake.expireAccessTokens();
    const rejected = await client.get('/api/printful/categories');
    expect(rejected.statusCode).toBe(502);
    expect(rejected.json().error).toBe('Printful rejected the connection; reconnect Printful on the Integrations page');
  });

  it('rejects a wrong or foreign state and a reused one', async () => {
    const client = t.client();
    const callback = await authorize(client);
    const forged = callback.replace(/state=[^&]+/, 'state=forged');
    expect((await client.get(forged)).headers.location).toBe('/integrations?printful=invalid_state');
    // The nonce belongs to the workspace that started the flow.
    expect((await t.client().get(callback)).headers.location).toBe('/integrations?printful=invalid_state');
    expect((await status(client)).connected).toBe(false);
    expect((await client.get('/api/printful/oauth/callback?code=x&success=1')).headers.location).toBe(
      '/integrations?printful=invalid_state',
    );
  });

  it('answers denied on success=0 and stores nothing', async () => {
    const client = t.client();
    fake.denyNextAuthorization();
    const callback = await authorize(client);
    expect(callback).toContain('success=0');
    expect((await client.get(callback)).headers.location).toBe('/integrations?printful=denied');
    expect((await status(client)).connected).toBe(false);
    // A rejection without the state echoed is still a rejection.
    expect((await client.get('/api/printful/oauth/callback?success=0')).headers.location).toBe(
      '/integrations?printful=denied',
    );
  });

  it('refreshes the token before it expires, rotating both tokens; a dead refresh token asks to reconnect', async () => {
    const client = t.client();
    await connect(client);
    const workspaceId = await client.workspaceId(t.deps.db);
    const where = and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, 'printful'));
    const [before] = await t.deps.db.select().from(integrations).where(where);
    const grants = fake.tokenGrants.length;

    clock += 57 * 60_000; // within the 5-minute margin of the one-hour token
    const res = await client.get('/api/printful/categories');
    expect(res.statusCode, res.body).toBe(200);
    expect(fake.tokenGrants.slice(grants)).toEqual(['refresh_token']);
    const [after] = await t.deps.db.select().from(integrations).where(where);
    const decrypt = (v: string | null | undefined) => t.deps.cipher.decrypt(v as string);
    expect(decrypt(after?.accessTokenEnc)).not.toBe(decrypt(before?.accessTokenEnc));
    expect(decrypt(after?.refreshTokenEnc)).not.toBe(decrypt(before?.refreshTokenEnc));

    // The fake rotates refresh tokens: the old one is now worthless.
    await t.deps.db
      .update(integrations)
      .set({ refreshTokenEnc: before?.refreshTokenEnc, tokenExpiresAt: new Date(clock) })
      .where(where);
    t.deps.printful.clearCatalogCache();
    const dead = await client.get('/api/printful/categories');
    expect(dead.statusCode).toBe(502);
    expect(dead.json().error).toContain('reconnect Printful');
    const [failed] = await t.deps.db.select().from(integrations).where(where);
    expect(failed?.status).toBe('error');
    expect((await status(client)).connected).toBe(false);
    clock = Date.now();
  });

  it('asks which store when the account has several, and connects the chosen one (not the first)', async () => {
    fake.setStores([
      { id: 20001, name: 'Main Store' },
      { id: 20002, name: 'Second Store' },
    ]);
    try {
      const client = t.client();
      const res = await client.get(await authorize(client));
      expect(res.headers.location).toBe('/integrations?printful=choose_store');
      expect(await status(client)).toEqual({
        connected: false,
        oauthConfigured: true,
        sandbox: true,
        choosingStore: true,
      });
      expect((await client.get('/api/printful/stores')).json()).toEqual([
        { id: 20001, name: 'Main Store' },
        { id: 20002, name: 'Second Store' },
      ]);
      const wrong = await client.post('/api/printful/store', { storeId: 99 });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toContain('99');
      const chosen = await client.post('/api/printful/store', { storeId: 20002 });
      expect(chosen.statusCode, chosen.body).toBe(200);
      expect(chosen.json()).toMatchObject({ connected: true, via: 'oauth', storeName: 'Second Store' });
      const [row] = await t.deps.db
        .select()
        .from(integrations)
        .where(eq(integrations.workspaceId, await client.workspaceId(t.deps.db)));
      expect(row).toMatchObject({ externalId: '20002', status: 'connected' });
      expect((await t.client().get('/api/printful/stores')).statusCode).toBe(409);
    } finally {
      fake.setStores([{ id: 10001, name: 'Fake Print Store' }]);
    }
  });

  it('disconnects, going back to the bundled catalogue', async () => {
    const client = t.client();
    await connect(client);
    const res = await client.post('/api/printful/disconnect');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ connected: false, oauthConfigured: true, sandbox: true });
    expect((await client.get('/api/printful/products')).json<TCatalogProductPage>().source).toBe('bundled');
  });

  it('says where store orders are printed, as the printers do: the sandbox until the own account is connected', async () => {
    const client = t.client();
    const printfulState = async () =>
      (await client.get('/api/fulfillment/providers'))
        .json<TFulfilmentProviders>()
        .providers.find((p) => p.id === 'printful');
    // Not "not connected": the built-in sandbox prints this workspace's orders.
    expect(await status(client)).toMatchObject({ connected: false, sandbox: true });
    expect(await printfulState()).toMatchObject({ connected: false, sandbox: true });
    expect(
      (await t.deps.printers.forWorkspace(await client.workspaceId(t.deps.db), 'printful'))?.provider.sandbox,
    ).toBe(true);
    await connect(client);
    expect(await status(client)).toMatchObject({ connected: true, via: 'oauth', sandbox: false });
    expect(await printfulState()).toMatchObject({ connected: true, sandbox: false });
    expect((await client.post('/api/printful/disconnect')).json()).toMatchObject({ connected: false, sandbox: true });
    expect(await printfulState()).toMatchObject({ connected: false, sandbox: true });
  });

  it('uses PRINTFUL_TOKEN for workspaces without their own connection', async () => {
    const client = t.client();
    t.deps.config.printfulToken = 'pf-private';
    try {
      // Catalogue only: the workspace's orders still go to the sandbox.
      expect(await status(client)).toMatchObject({ connected: true, via: 'token', sandbox: true });
      const page = (await client.get('/api/printful/products')).json<TCatalogProductPage>();
      expect(page.source).toBe('printful');
      expect((await client.post('/api/printful/disconnect')).statusCode).toBe(409);
      // One product from the live catalogue: every variant, read page after page, with its base cost.
      const tee = await client.get('/api/printful/products/71');
      expect(tee.statusCode, tee.body).toBe(200);
      const body = tee.json();
      expect(body.variants).toHaveLength(6 * 8);
      expect(body.variants[0]).toMatchObject({ color: 'White', size: 'XS', colorHex: '#ffffff', baseCost: 9.25 });
      expect(body.placements[0]).toMatchObject({ placement: 'front', widthPx: 1800, heightPx: 2400, dpi: 150 });
      expect((await client.get('/api/printful/products/424242')).statusCode).toBe(404);
    } finally {
      t.deps.config.printfulToken = undefined;
    }
  });
});
