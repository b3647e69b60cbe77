import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProduct,
  createWebhook,
  deleteWebhook,
  getProduct,
  listOrders,
  listShops,
  listWebhooks,
  type PrintifyConn,
  updateProduct,
  uploadImage,
} from './api';
import { PrintifyClient, PrintifyError } from './client';
import { type FakePrintify, signPrintifyWebhook, startFakePrintify } from './fake-server';
import { eventOf } from './mapping';

/**
 * The fake Printify is strict where Printify is (apis-next.md F.10), and the client copes: tokens and scopes, the
 * User-Agent, 429s waited out, content-addressed uploads, the product matrix and its update rules, webhook
 * signatures, retries and the one-hour block, and delete needing `host`.
 */

let fake: FakePrintify;
let now = Date.now();
const deliveries: { body: string; headers: Record<string, string> }[] = [];
let refuse = 0;

beforeAll(async () => {
  fake = await startFakePrintify({
    now: () => now,
    rateLimits: { global: 50, catalog: 5 },
    post: async (_url, body, headers) => {
      deliveries.push({ body, headers });
      if (refuse > 0) {
        refuse -= 1;
        throw new Error('webhook answered 500');
      }
    },
  });
});
afterAll(() => fake.close());

const client = (sleeps: number[] = []) =>
  new PrintifyClient({
    apiBase: fake.url,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
  });

const conn = (): PrintifyConn => {
  const { token, shops } = fake.issueToken();
  return { client: client(), token, shopId: shops[0]?.id as string };
};

describe('fake Printify: auth', () => {
  it('needs a User-Agent and a live bearer token with the scope of the call', async () => {
    const { token } = fake.issueToken({ scopes: ['catalog.read'] });
    const bare = await fetch(`${fake.url}/v1/shops.json`, {
      headers: { Authorization: `Bearer ${token}`, 'User-Agent': '' },
    });
    expect(bare.status).toBe(400);
    await expect(listShops(client(), 'pfy_unknown')).rejects.toMatchObject({ status: 401 });
    await expect(listShops(client(), token)).rejects.toMatchObject({ status: 403 });
    const year = fake.issueToken({ lifetimeSec: 60 });
    expect(await listShops(client(), year.token)).toHaveLength(1);
    now += 61_000;
    await expect(listShops(client(), year.token)).rejects.toMatchObject({ status: 401 });
  });
});

describe('client: rate limits', () => {
  it('waits out a 429 with growing backoff (Printify sends no Retry-After), then gives up', async () => {
    const c = conn();
    const sleeps: number[] = [];
    fake.throttleNext(2);
    expect(await listShops(client(sleeps), c.token)).toHaveLength(1);
    expect(sleeps.filter((s) => s >= 2000)).toEqual([2000, 4000]);
    fake.throttleNext(10);
    await expect(listShops(client(), c.token)).rejects.toMatchObject({ status: 429 });
    // The catalogue has its own, smaller limit per account: the fake answers 429 past it.
    const raw = (path: string) =>
      fetch(`${fake.url}${path}`, { headers: { Authorization: `Bearer ${c.token}`, 'User-Agent': 'test' } });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await raw('/v1/catalog/blueprints.json')).status);
    expect(statuses).toContain(429);
    expect(fake.errorRatio()).toBeGreaterThan(0);
  });
});

describe('fake Printify: uploads and products', () => {
  it('uploads are content-addressed; a product answers the whole matrix; updates must cover every variant', async () => {
    now += 120_000;
    const c = conn();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ).toString('base64');
    const a = await uploadImage(c, { fileName: 'a.png', contents: png });
    const b = await uploadImage(c, { fileName: 'b.png', contents: png });
    expect(b.id).toBe(a.id);
    expect([a.width, a.height]).toEqual([1, 1]);

    const missingPrice = await createProduct(c, {
      title: 'T',
      description: '',
      blueprint_id: 6,
      print_provider_id: 3,
      variants: [{ id: 17390 } as never],
      print_areas: [{ variant_ids: [17390], placeholders: [{ position: 'front', images: [] }] }],
    }).catch((e: unknown) => e);
    expect(missingPrice).toMatchObject({ status: 400, code: 8150 });

    const made = await createProduct(c, {
      title: 'Tee',
      description: 'd',
      blueprint_id: 6,
      print_provider_id: 3,
      variants: [{ id: 17390, price: 2000, is_enabled: true }],
      print_areas: [
        {
          variant_ids: [17390],
          placeholders: [{ position: 'front', images: [{ id: a.id, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }],
        },
      ],
    });
    // The whole matrix: 18 variants, only the one sent enabled, the others priced at their cost; no currency.
    expect(made.variants).toHaveLength(18);
    expect(made.variants.filter((v) => v.is_enabled).map((v) => v.id)).toEqual([17390]);
    const other = made.variants.find((v) => v.id === 17391);
    expect(other?.price).toBe(other?.cost);
    expect(JSON.stringify(made)).not.toMatch(/currency/i);
    expect(made.print_areas[0]?.variant_ids).toHaveLength(18);
    expect(made.print_areas[0]?.placeholders.find((p) => p.position === 'back')?.images).toEqual([]);

    // The create payload is refused as an update (8251); blueprint and provider cannot change (silently).
    const put = (body: unknown) =>
      c.client.request('PUT', `/v1/shops/${c.shopId}/products/${made.id}.json`, c.token, { body });
    await expect(
      put({ variants: [{ id: 17390, price: 2100 }], print_areas: [{ variant_ids: [17390], placeholders: [] }] }),
    ).rejects.toMatchObject({ status: 400, code: 8251 });
    await put({ blueprint_id: 77, print_provider_id: 99, title: 'Renamed' });
    expect(await getProduct(c, made.id)).toMatchObject({ blueprint_id: 6, print_provider_id: 3, title: 'Renamed' });

    // The client's update sends the whole matrix: a new price, the others kept, every variant covered.
    const updated = await updateProduct(c, made.id, { prices: new Map([[17390, 2500]]) });
    expect(updated.variants.find((v) => v.id === 17390)).toMatchObject({ price: 2500, is_enabled: true });
    expect(updated.variants.find((v) => v.id === 17391)?.is_enabled).toBe(false);
  });
});

describe('fake Printify: webhooks and orders', () => {
  it('signs deliveries, retries a refused one 3 times then blocks it for an hour; delete needs the host', async () => {
    now += 120_000;
    const c = conn();
    const hook = await createWebhook(c, 'order:created', 'https://app.example/hooks/1', 'the-secret');
    const order = () =>
      c.client.request<{ id: string }>('POST', `/v1/shops/${c.shopId}/orders.json`, c.token, {
        body: {
          external_id: 'ext-1',
          line_items: [
            {
              blueprint_id: 6,
              print_provider_id: 3,
              variant_id: 17390,
              quantity: 1,
              print_areas: { front: 'https://x.example/a.png' },
            },
          ],
          shipping_method: 1,
          address_to: {
            first_name: 'A',
            last_name: 'B',
            country: 'US',
            region: 'OR',
            address1: '1 St',
            city: 'P',
            zip: '97201',
          },
        },
      });
    const first = await order();
    const signed = deliveries.at(-1) as (typeof deliveries)[number];
    expect(signed.headers['x-pfy-signature']).toBe(signPrintifyWebhook(signed.body, 'the-secret'));
    expect(JSON.parse(signed.body)).toMatchObject({ type: 'order:created', resource: { id: first.id, type: 'order' } });

    // Duplicate external ids are accepted: two orders.
    const second = await order();
    expect(second.id).not.toBe(first.id);
    expect((await listOrders(c, 1)).data.filter((o) => o.metadata.shop_order_id === 'ext-1')).toHaveLength(2);

    const before = deliveries.length;
    refuse = 4;
    await order();
    expect(deliveries.length - before).toBe(4);
    await order();
    expect(deliveries.length - before).toBe(4);
    now += 3600_001;
    await order();
    expect(deliveries.length - before).toBe(5);

    const [listed] = await listWebhooks(c);
    await expect(
      c.client.request('DELETE', `/v1/shops/${c.shopId}/webhooks/${hook.id}.json`, c.token, {
        query: { host: 'evil.example' },
      }),
    ).rejects.toBeInstanceOf(PrintifyError);
    await deleteWebhook(c, listed as NonNullable<typeof listed>);
    expect(await listWebhooks(c)).toEqual([]);

    // A US address needs a region.
    const noRegion = await c.client
      .request('POST', `/v1/shops/${c.shopId}/orders.json`, c.token, {
        body: {
          line_items: [
            {
              blueprint_id: 6,
              print_provider_id: 3,
              variant_id: 17390,
              quantity: 1,
              print_areas: { front: 'https://x.example/a.png' },
            },
          ],
          address_to: { first_name: 'A', last_name: 'B', country: 'US', address1: '1 St', city: 'P', zip: '97201' },
        },
      })
      .catch((e: unknown) => e);
    expect(noRegion).toMatchObject({ status: 400, code: 8150 });
  });
});

describe('fake Printify: order states', () => {
  it('payment-not-received can still be cancelled; an image it cannot fetch puts the order in has-issues', async () => {
    now += 120_000;
    const c = conn();
    await createWebhook(c, 'order:updated', 'https://app.example/hooks/2', 'secret-2');
    const place = async () =>
      (
        await c.client.request<{ id: string }>('POST', `/v1/shops/${c.shopId}/orders.json`, c.token, {
          body: {
            external_id: 'ext-2',
            line_items: [
              {
                blueprint_id: 6,
                print_provider_id: 3,
                variant_id: 17390,
                quantity: 1,
                print_areas: { front: 'http://127.0.0.1:9/unreachable.png' },
              },
            ],
            address_to: {
              first_name: 'A',
              last_name: 'B',
              country: 'GB',
              region: '',
              address1: '1 St',
              city: 'L',
              zip: 'L1',
            },
          },
        })
      ).id;
    const path = (id: string, action = '') => `/v1/shops/${c.shopId}/orders/${id}${action}.json`;

    fake.failNextPayment();
    const unpaid = await place();
    const answer = await c.client.request<{ status: string }>('POST', path(unpaid, '/send_to_production'), c.token);
    expect(answer.status).toBe('payment-not-received');
    const cancelled = await c.client.request<{ status: string }>('POST', path(unpaid, '/cancel'), c.token);
    expect(cancelled.status).toBe('canceled');

    const stuck = await place();
    await c.client.request('POST', path(stuck, '/send_to_production'), c.token);
    // Sent: Printify refuses to cancel it now.
    await expect(c.client.request('POST', path(stuck, '/cancel'), c.token)).rejects.toMatchObject({ status: 400 });
    now += 10_000;
    await fake.tick();
    const read = await c.client.get<{ status: string }>(path(stuck), c.token);
    expect(read.status).toBe('has-issues');
    const delivered = deliveries.map((d) => JSON.parse(d.body)).filter((b) => b.resource?.id === stuck);
    const issue = delivered.find((b) => b.resource?.data?.status === 'has-issues');
    expect(eventOf(issue)).toMatchObject({ to: 'on_hold', failureReason: expect.stringMatching(/needs action/) });
  });
});

describe('fake Printify: shipping, express and automatic approval', () => {
  it('quotes shipping per method in cents, answers the express split, and sends an order by itself after the delay', async () => {
    let t0 = Date.now();
    const auto = await startFakePrintify({ now: () => t0, autoApproveMs: 60_000, fetchFile: async () => true });
    try {
      const { token, shops } = auto.issueToken();
      const c: PrintifyConn = {
        client: new PrintifyClient({ apiBase: auto.url }),
        token,
        shopId: shops[0]?.id as string,
      };
      const address = {
        first_name: 'A',
        last_name: 'B',
        country: 'US',
        region: 'OR',
        address1: '1 St',
        city: 'P',
        zip: '97201',
      };
      const line = {
        blueprint_id: 6,
        print_provider_id: 3,
        variant_id: 17390,
        quantity: 2,
        print_areas: { front: 'https://x.example/a.png' },
      };
      const quote = await c.client.request<Record<string, number>>(
        'POST',
        `/v1/shops/${c.shopId}/orders/shipping.json`,
        token,
        {
          body: { line_items: [line], address_to: address },
        },
      );
      expect(Object.keys(quote).sort()).toEqual(['economy', 'express', 'printify_express', 'priority', 'standard']);
      expect(quote.standard).toBe(475 + 240);
      const split = await c.client.request<{ type: string; id: string; attributes: { fulfilment_type: string } }[]>(
        'POST',
        `/v1/shops/${c.shopId}/orders/express.json`,
        token,
        { body: { external_id: 'x-1', line_items: [line], address_to: address } },
      );
      expect(split[0]).toMatchObject({ type: 'order', attributes: { fulfilment_type: 'ordinary' } });
      const read = () => c.client.get<{ status: string }>(`/v1/shops/${c.shopId}/orders/${split[0]?.id}.json`, token);
      expect((await read()).status).toBe('on-hold');
      t0 += 60_000;
      await auto.tick();
      expect((await read()).status).toBe('sending-to-production');
    } finally {
      await auto.close();
    }
  });
});
