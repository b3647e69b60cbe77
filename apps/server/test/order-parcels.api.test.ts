import type { TOrder, TOrderPage, TProductDetail } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../src/jobs/workers';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { connectShopifySandbox, teeDesign, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp } from './helpers';

/**
 * An order a printer ships in several parcels is delivered only when every parcel is: the first parcel's delivery
 * (Printify's `order:shipment:delivered`, while the next one is still at the printer) is kept on that parcel and
 * leaves the order shipped. On the built-in Printify sandbox, whose steps this test moves one at a time (no sandbox
 * tick worker, no printer poll).
 */

const APP = 'http://podforge.test';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: APP, PRINTIFY_SANDBOX_SHIP_SECONDS: '0' } });
  await startWorkers(t.deps, [...ORDER_JOBS, shopifyWebhookJob], { pollingIntervalSeconds: 0.5 });
});
afterAll(async () => {
  await t.close();
});

/** A workspace selling a two-size Printify tee in its Shopify sandbox shop, printed by the Printify sandbox. */
async function printifySeller(typed: string) {
  const client = t.client();
  const storeId = await connectShopifySandbox(client, typed);
  const { designId, mockup } = await teeDesign(t, client, { r: 30, g: 90, b: 200 }, 80);
  const created = await client.post('/api/products', {
    title: 'Ocean Tee',
    description: 'Waves.',
    price: 22,
    productType: 'tshirt',
    provider: 'printify',
    catalogProductId: 6,
    variants: [
      { catalogVariantId: 17391, price: 22 },
      { catalogVariantId: 17392, price: 22 },
    ],
    designId,
    mockupId: await mockup(),
    status: 'ready',
  });
  expect(created.statusCode, created.body).toBe(201);
  const productId = created.json().id as string;
  const pushed = await client.post(`/api/upload/shopify/${productId}`, {});
  expect(pushed.statusCode, pushed.body).toBe(200);
  const skus = (await client.get(`/api/products/${productId}`)).json<TProductDetail>().variants.map((v) => v.sku);
  expect((await client.post('/api/printify/sandbox', {})).statusCode).toBe(200);
  const set = await client.patch('/api/settings', { orderConfirmation: { mode: 'automatic', delayMinutes: 60 } });
  expect(set.statusCode, set.body).toBe(200);
  return { client, storeId, skus };
}

describe('an order shipped in several parcels', () => {
  it('is delivered only when every parcel is: the first parcel’s delivery is kept on it, the order stays shipped', async () => {
    const { client, storeId, skus } = await printifySeller('pfy-parcels.myshopify.com');
    // Each line ships in its own parcel, and each parcel arrives before the next one leaves the printer.
    (await t.deps.printifySandbox.server()).shipInParts(1, { deliverEach: true });
    const placed = await client.post('/api/shopify/sandbox/orders', {
      integrationId: storeId,
      lines: [
        { sku: skus[0], quantity: 2 },
        { sku: skus[1], quantity: 1 },
      ],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const latest = async () => (await client.get('/api/orders')).json<TOrderPage>().items[0] as TOrder;
    const after = async (done: (o: TOrder) => boolean) => {
      // One step of the sandbox (its webhooks go to the app), then what the app made of it.
      await t.deps.printifySandbox.tick();
      return waitFor(latest, done);
    };
    await waitFor(latest, (o) => o?.status === 'sent', 40_000);

    await after((o) => o.status === 'in_production');
    // The first parcel leaves: the order is shipped, with that parcel, not delivered.
    const first = await after((o) => o.status === 'shipped' && o.shipments.length === 1);
    expect(first.shipments.map((s) => s.delivered)).toEqual([false]);

    // The first parcel arrives while the second is still at the printer (Printify: partially fulfilled).
    const arrived = await after((o) => o.status === 'delivered' || o.shipments[0]?.delivered === true);
    expect(arrived.status).toBe('shipped');
    expect(arrived.shipments.map((s) => [s.trackingNumber, s.delivered])).toEqual([
      [first.shipments[0]?.trackingNumber, true],
    ]);
    const atPrinter = await t.deps.printifySandbox.orders(await client.workspaceId(t.deps.db));
    expect(atPrinter[0]?.status).toBe('partially-fulfilled');

    // The second parcel leaves: still shipped, one parcel delivered and one on its way.
    const second = await after((o) => o.shipments.length === 2);
    expect(second.status).toBe('shipped');
    expect(second.shipments.map((s) => s.delivered)).toEqual([true, false]);

    // It arrives: every parcel has, and nothing more is to ship: the order is delivered.
    const done = await after((o) => o.status === 'delivered');
    expect(done.shipments.map((s) => s.delivered)).toEqual([true, true]);
  }, 120_000);
});
