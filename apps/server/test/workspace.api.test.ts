import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('workspace session cookie', () => {
  it('issues a signed, HttpOnly, SameSite=Lax cookie on the first request', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dashboard/stats' });
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((c) => c.name === 'pf_session');
    expect(cookie).toBeDefined();
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    expect(cookie?.path).toBe('/');
    // token (22 base64url chars = 128 bits) + '.' + signature
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_\-+/=]+$/);
  });

  it('keeps the same workspace while the cookie is sent back, and sets no new cookie', async () => {
    const client = t.client();
    const first = await client.workspaceId(t.deps.db);
    const again = await client.get('/api/dashboard/stats');
    expect(again.cookies.find((c) => c.name === 'pf_session')).toBeUndefined();
    expect(await client.workspaceId(t.deps.db)).toBe(first);
  });

  it('gives a tampered cookie a fresh workspace, never the original one', async () => {
    const owner = t.client();
    const ownerId = await owner.workspaceId(t.deps.db);
    await t.deps.db.insert(products).values({ workspaceId: ownerId, title: 'Secret tee', productType: 'tshirt' });

    const value = owner.cookie?.split('=')[1] ?? '';
    const [token, signature] = value.split('.');
    const forged = `pf_session=${token}.${signature?.startsWith('A') ? 'B' : 'A'}${signature?.slice(1)}`;
    const attacker = t.client();
    attacker.cookie = forged;
    const response = await attacker.get('/api/dashboard/recent-uploads');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
    expect(response.cookies.find((c) => c.name === 'pf_session')).toBeDefined();
    expect(await attacker.workspaceId(t.deps.db)).not.toBe(ownerId);
  });

  it('gives an unsigned guess of a token a fresh workspace', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/dashboard/recent-uploads',
      headers: { cookie: 'pf_session=AAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(response.json()).toEqual([]);
    expect(response.cookies.find((c) => c.name === 'pf_session')?.value).not.toContain('AAAAAAAAAAAAAAAAAAAAAA');
  });

  it('never shows one workspace the rows of another', async () => {
    const alice = t.client();
    const bob = t.client();
    const aliceId = await alice.workspaceId(t.deps.db);
    const bobId = await bob.workspaceId(t.deps.db);
    expect(aliceId).not.toBe(bobId);
    await t.deps.db.insert(products).values([
      { workspaceId: aliceId, title: 'Alice mug', productType: 'mug' },
      { workspaceId: aliceId, title: 'Alice tee', productType: 'tshirt' },
      { workspaceId: bobId, title: 'Bob poster', productType: 'poster' },
    ]);
    const aliceRecent = (await alice.get('/api/dashboard/recent-uploads')).json() as { title: string }[];
    const bobRecent = (await bob.get('/api/dashboard/recent-uploads')).json() as { title: string }[];
    expect(aliceRecent.map((r) => r.title).sort()).toEqual(['Alice mug', 'Alice tee']);
    expect(bobRecent.map((r) => r.title)).toEqual(['Bob poster']);
    expect((await alice.get('/api/dashboard/stats')).json().totalProducts).toBe(2);
    expect((await bob.get('/api/dashboard/stats')).json().totalProducts).toBe(1);
  });
});

describe('cross-site protection', () => {
  it('answers 403 to a state-changing request marked cross-site', async () => {
    const response = await t.client().post('/api/dashboard/stats', { a: 1 }, { 'sec-fetch-site': 'cross-site' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Cross-site requests are not allowed', code: 'CROSS_SITE_REQUEST' });
  });

  it('answers 403 to a foreign Origin', async () => {
    const response = await t.client().post('/api/anything', { a: 1 }, { origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('CROSS_SITE_REQUEST');
  });

  it('answers 415 to a form-encoded body, which a cross-site form could send', async () => {
    const response = await t.client().request({
      method: 'POST',
      url: '/api/anything',
      payload: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toMatch(/application\/json or multipart\/form-data/);
  });

  it('lets a same-origin JSON request through to routing', async () => {
    const response = await t
      .client()
      .post('/api/anything', { a: 1 }, { origin: 'http://localhost:80', host: 'localhost:80' });
    expect(response.statusCode).toBe(404);
  });
});
