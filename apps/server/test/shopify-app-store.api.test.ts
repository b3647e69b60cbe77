import type { TIntegration, TShopifyConnectOptions } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oauthStates } from '../src/db/schema';
import { type FakeShopify, startFakeShopify } from '../src/integrations/shopify/fake-server';
import { createTestApp, type TestApp } from './helpers';

/**
 * Issue #27, 'also': a public app listed in the Shopify App Store never asks for the shop's domain. The merchant
 * installs it from the listing; Shopify sends them to the App URL with their shop (signed), and that connects it.
 */

const KEY = 'listed-key';
const SECRET = 'listed-secret';
const APP = 'https://podforge.example';
const LISTING = 'https://apps.shopify.com/podforge';

let fake: FakeShopify;
let t: TestApp;

beforeAll(async () => {
  fake = await startFakeShopify({ apiKey: KEY, apiSecret: SECRET });
  t = await createTestApp({
    env: {
      SHOPIFY_API_KEY: KEY,
      SHOPIFY_API_SECRET: SECRET,
      SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
      SHOPIFY_APP_STORE_URL: LISTING,
      APP_URL: APP,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('a public app listed in the Shopify App Store', () => {
  it('tells the page to send merchants to the listing, and takes no typed domain', async () => {
    const client = t.client();
    const options = (await client.get('/api/shopify/connect-options')).json<TShopifyConnectOptions>();
    expect(options).toEqual({ sandbox: false, appStoreUrl: LISTING });
    const typed = await client.get('/auth/shopify/start?shop=typed-shop.myshopify.com');
    expect(typed.headers.location).toBe('/integrations?shopify_error=install_from_app_store');
    const ws = await client.workspaceId(t.deps.db);
    expect(await t.deps.db.select().from(oauthStates).where(eq(oauthStates.workspaceId, ws))).toEqual([]);
  });

  it('connects the shop Shopify names when the merchant installs from the listing', async () => {
    const client = t.client();
    const shop = 'listed-shop.myshopify.com';
    // What Shopify sends the merchant's browser to after Install: the App URL with shop, host, timestamp, hmac.
    const install = new URL(fake.auth.installUrl(`${APP}/auth/shopify/install`, shop));
    const start = await client.get(install.pathname + install.search);
    expect(start.statusCode).toBe(302);
    const approved = await fetch(start.headers.location as string, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('location') as string);
    const done = await client.get(callback.pathname + callback.search);
    expect(done.headers.location).toBe('/integrations?connected=shopify');
    const list = (await client.get('/api/integrations')).json<TIntegration[]>();
    expect(list).toEqual([expect.objectContaining({ storeName: 'listed-shop', isConnected: true })]);
  });
});
