import type { TIntegration } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEtsy, startFakeEtsy } from '../src/integrations/etsy/fake-server';
import { createTestApp, type TestApp } from './helpers';

/** With ETSY_API_KEY and ETSY_SHARED_SECRET the app talks to "Etsy" (here the fake at Etsy's place), not the sandbox. */

const APP = 'http://podforge.test';
let fake: FakeEtsy;

beforeAll(async () => {
  fake = await startFakeEtsy({
    keystring: 'realkeystring',
    sharedSecret: 'realsecret',
    redirectUriPrefixes: [`${APP}/auth/etsy/callback`],
  });
});
afterAll(async () => fake.close());

const env = (secret: string) => ({
  APP_URL: APP,
  ETSY_API_KEY: 'realkeystring',
  ETSY_SHARED_SECRET: secret,
  ETSY_API_BASE: fake.url,
  ETSY_CONNECT_BASE: fake.url,
  ETSY_TOKEN_BASE: fake.url,
});

async function connectWith(t: TestApp) {
  const client = t.client();
  const start = await client.get('/auth/etsy/start');
  const url = new URL(start.headers.location as string);
  expect(url.origin + url.pathname).toBe(`${fake.url}/oauth/connect`);
  expect(url.searchParams.get('client_id')).toBe('realkeystring');
  const approved = await fetch(url, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location') as string);
  const res = await client.get(callback.pathname + callback.search);
  return { client, location: res.headers.location };
}

describe('Etsy with the app’s own credentials', () => {
  it('a wrong shared secret is refused by Etsy and connects nothing', async () => {
    const t = await createTestApp({ env: env('wrongsecret') });
    try {
      const { client, location } = await connectWith(t);
      expect(location).toBe('/integrations?etsy_error=failed');
      const list = (await client.get('/api/integrations')).json<TIntegration[]>();
      expect(list.filter((i) => i.platform === 'etsy' && i.isConnected)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('the right key connects the shop, not labelled Sandbox', async () => {
    const t = await createTestApp({ env: env('realsecret') });
    try {
      const { client, location } = await connectWith(t);
      expect(location).toBe('/integrations?connected=etsy');
      const list = (await client.get('/api/integrations')).json<TIntegration[]>();
      expect(list.find((i) => i.platform === 'etsy')).toMatchObject({
        storeName: 'PodforgeSandboxShop',
        sandbox: false,
        isConnected: true,
      });
      expect((await client.get('/api/etsy/sandbox/listings')).json()).toEqual({ sandbox: false, shops: [] });
    } finally {
      await t.close();
    }
  });
});
