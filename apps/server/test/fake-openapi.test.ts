import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeEtsy, startFakeEtsy } from '../src/integrations/etsy/fake-server';

/**
 * The fake Etsy checks each Open API v3 request against Etsy's own OAS (the request side of the operations our
 * client calls, vendored in apps/server/assets/reference/etsy-v3.requests.json) and answers a violation as Etsy
 * does: 400 `{"error": "..."}` (#27 point 2). The fake Printful's check is in printful-reconcile.api.test.ts.
 */

let fake: FakeEtsy;
let token = '';
let shopId = 0;

beforeAll(async () => {
  fake = await startFakeEtsy({ limits: { perSecond: 10_000, perDay: 1_000_000 } });
  const verifier = randomBytes(32).toString('base64url');
  const connect = new URL('/oauth/connect', fake.url);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: fake.keystring,
    redirect_uri: 'https://app.example/etsy/callback',
    scope: 'listings_r listings_w listings_d shops_r shops_w transactions_r transactions_w',
    state: 's',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }))
    connect.searchParams.set(k, v);
  const back = await fetch(connect, { redirect: 'manual' });
  const code = new URL(back.headers.get('location') as string).searchParams.get('code') as string;
  const tokens = await fetch(new URL('/v3/public/oauth/token', fake.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: fake.keystring,
      redirect_uri: 'https://app.example/etsy/callback',
      code,
      code_verifier: verifier,
    }),
  });
  token = ((await tokens.json()) as { access_token: string }).access_token;
  const me = await call('GET', '/users/me');
  shopId = ((await me.json()) as { shop_id: number }).shop_id;
});
afterAll(async () => {
  await fake?.close();
});

function call(method: string, path: string, body?: { json?: unknown; form?: Record<string, string> }) {
  return fetch(new URL(`/v3/application${path}`, fake.url), {
    method,
    headers: {
      'x-api-key': `${fake.keystring}:${fake.sharedSecret}`,
      authorization: `Bearer ${token}`,
      ...(body?.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(body?.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body?.json !== undefined ? { body: JSON.stringify(body.json) } : {}),
    ...(body?.form ? { body: new URLSearchParams(body.form) } : {}),
  });
}

const refused = async (res: Response, words: RegExp) => {
  expect(res.status).toBe(400);
  const json = (await res.json()) as { error: string };
  expect(Object.keys(json)).toEqual(['error']);
  expect(json.error).toMatch(words);
};

const draft = {
  quantity: '1',
  title: 'Sunset Tee',
  description: 'A warm sunset.',
  price: '25.00',
  who_made: 'i_did',
  when_made: 'made_to_order',
  taxonomy_id: '482',
};

describe("the fake Etsy checks requests against Etsy's OAS (#27 point 2)", () => {
  it('createDraftListing: a value outside an enum, a missing required field, a non-integer id -> 400 {error}', async () => {
    await refused(
      await call('POST', `/shops/${shopId}/listings`, { form: { ...draft, when_made: 'last_week' } }),
      /when_made must be one of made_to_order/,
    );
    const { title: _t, ...untitled } = draft;
    await refused(await call('POST', `/shops/${shopId}/listings`, { form: untitled }), /title is required/);
    await refused(
      await call('POST', `/shops/${shopId}/listings`, { form: { ...draft, production_partner_ids: '1,x' } }),
      /production_partner_ids.*must be integer/,
    );
    await refused(await call('POST', '/shops/abc/listings', { form: draft }), /path\.shop_id must be integer/);
  });

  it('updateListingInventory: property values without value_ids (#27.8), an offering without readiness_state_id -> 400', async () => {
    const inventory = (pv: Record<string, unknown>, offering: Record<string, unknown>) => ({
      json: {
        products: [
          {
            sku: 'PF-1',
            property_values: [{ property_id: 513, property_name: 'Size', values: ['S'], ...pv }],
            offerings: [{ price: 25, quantity: 10, is_enabled: true, ...offering }],
          },
        ],
      },
    });
    await refused(
      await call('PUT', '/listings/1/inventory', inventory({}, { readiness_state_id: 1 })),
      /value_ids is required/,
    );
    await refused(
      await call('PUT', '/listings/1/inventory', inventory({ value_ids: [] }, {})),
      /readiness_state_id is required/,
    );
  });

  it('getShopReceipts: a limit over 100 or an unknown sort -> 400; a valid query passes the check', async () => {
    await refused(await call('GET', `/shops/${shopId}/receipts?limit=500`), /query\.limit must be <= 100/);
    await refused(await call('GET', `/shops/${shopId}/receipts?sort_on=price`), /sort_on must be one of/);
    expect((await call('GET', `/shops/${shopId}/receipts?limit=100&was_paid=true&sort_on=updated`)).status).toBe(200);
  });
});
