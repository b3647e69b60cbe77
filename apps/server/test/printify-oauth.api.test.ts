import type { TPrintifyStatus } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations } from '../src/db/schema';
import { type FakePrintify, startFakePrintify } from '../src/integrations/printify/fake-server';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Printify's OAuth app flow (apis-next.md F.1): Podforge's app id, the merchant's consent at printify.com, the code
 * exchanged for a 6-hour access token and a refresh token, refreshed before it expires; a decline and a forged
 * state connect nothing. Printify wants https accept/decline URLs on a domain, so APP_URL is https here.
 */

const APP = 'https://podforge.example';
let t: TestApp;
let fake: FakePrintify;
let clock = Date.parse('2026-11-27T09:00:00Z');

beforeAll(async () => {
  fake = await startFakePrintify({ appId: 'podforge-app', now: () => clock });
  t = await createTestApp({
    env: { APP_URL: APP, PRINTIFY_API_BASE: fake.url, PRINTIFY_OAUTH_BASE: fake.url, PRINTIFY_APP_ID: 'podforge-app' },
    now: () => new Date(clock),
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** Start -> Printify's consent -> our callback, as the browser follows the redirects. */
async function authorise(client: TestClient, currency = 'GBP') {
  const start = await client.get(`/api/printify/oauth/start?currency=${currency}`);
  expect(start.statusCode).toBe(302);
  const consent = new URL(start.headers.location as string);
  expect(consent.searchParams.get('app_id')).toBe('podforge-app');
  expect(consent.searchParams.get('accept_url')).toBe(`${APP}/api/printify/oauth/callback`);
  const answer = await fetch(consent, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location') as string);
  return client.get(back.pathname + back.search);
}

describe('Printify OAuth app flow', () => {
  it('connects the merchant’s shop, keeps the tokens encrypted and refreshes the 6-hour token before it expires', async () => {
    const client = t.client();
    expect((await client.get('/api/printify/status')).json<TPrintifyStatus>().oauthConfigured).toBe(true);
    const done = await authorise(client);
    expect(done.headers.location).toBe('/integrations?printify=connected');
    expect((await client.get('/api/printify/status')).json()).toMatchObject({
      connected: true,
      shopName: 'Merchant Shop',
      currency: 'GBP',
    });
    const ws = await client.workspaceId(t.deps.db);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws));
    expect(row?.refreshTokenEnc).toBeTruthy();
    const firstToken = t.deps.cipher.decrypt(row?.accessTokenEnc as string);

    // Nearly six hours on (inside the refresh margin): the next use refreshes the token first.
    clock += 6 * 3600_000 - 60_000;
    const account = await t.deps.printers.get('printify')?.account(ws);
    const [after] = await t.deps.db.select().from(integrations).where(eq(integrations.workspaceId, ws));
    const second = t.deps.cipher.decrypt(after?.accessTokenEnc as string);
    expect(second).not.toBe(firstToken);
    expect(after?.tokenExpiresAt?.getTime()).toBeGreaterThan(clock);
    expect((account as unknown as { token: string }).token).toBe(second);
    // And the refreshed token works at Printify.
    expect((await client.get('/api/providers/printify/products')).statusCode).toBe(200);
  });

  it('a decline or a forged state connects nothing', async () => {
    const client = t.client();
    fake.declineNext();
    expect((await authorise(client)).headers.location).toBe('/integrations?printify=denied');
    const forged = await client.get('/api/printify/oauth/callback?state=not-ours&code=abc');
    expect(forged.headers.location).toBe('/integrations?printify=invalid_state');
    expect((await client.get('/api/printify/status')).json()).toMatchObject({ connected: false });
  });
});
