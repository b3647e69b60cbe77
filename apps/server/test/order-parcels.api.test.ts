import { createHash } from 'node:crypto';
import type { TOrder, TOrderPage } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fulfillmentWebhooks, webhookEvents } from '../src/db/schema';
import { signPrintifyWebhook } from '../src/integrations/printify/fake-server';
import { startWorkers } from '../src/jobs/workers';
import { ORDER_JOBS } from '../src/modules/orders/order-jobs';
import { printerWebhookPath } from '../src/modules/printers/fulfilment-provider';
import { shopifyWebhookJob } from '../src/modules/shopify/shopify-webhooks';
import { shopifySeller, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp } from './helpers';

/**
 * An order a printer ships in several parcels is delivered only when every parcel is: the first parcel's delivery
 * (Printify's `order:shipment:delivered`, while the next one is still at the printer) is kept on that parcel and
 * leaves the order shipped. And a printer webhook is taken once per printer that sent it. On the built-in Printify
 * sandbox, whose steps this test moves one at a time (no sandbox tick worker, no printer poll).
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
  const seller = await shopifySeller(
    t,
    t.client(),
    typed,
    { r: 30, g: 90, b: 200 },
    {
      title: 'Ocean Tee',
      description: 'Waves.',
      price: 22,
      provider: 'printify',
      catalogProductId: 6,
      variants: [
        { catalogVariantId: 17391, price: 22 },
        { catalogVariantId: 17392, price: 22 },
      ],
    },
  );
  expect((await seller.client.post('/api/printify/sandbox', {})).statusCode).toBe(200);
  return seller;
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

describe('the printer webhook receiver remembers each delivery under the printer that sent it', () => {
  it('the same event id from two printers is taken for each; the same one twice from one printer once', async () => {
    const client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    // Two printers' webhook configurations of one workspace (Printify signs with its secret; Gelato signs nothing).
    const secret = 'ab'.repeat(32);
    const [printify, gelato] = await t.deps.db
      .insert(fulfillmentWebhooks)
      .values([
        { workspaceId: ws, provider: 'printify-sandbox', secretEnc: t.deps.cipher.encrypt(secret) },
        { workspaceId: ws, provider: 'gelato-sandbox', secretEnc: t.deps.cipher.encrypt('unsigned') },
      ])
      .returning();
    const eventId = 'f3c1a2b4-0000-4000-8000-00000000e7e7';
    const printifyBody = JSON.stringify({
      id: eventId,
      type: 'order:updated',
      created_at: '2026-11-27 10:00:00+00:00',
      resource: { id: 'unknown-order', type: 'order', data: { status: 'in-production' } },
    });
    const gelatoBody = JSON.stringify({
      id: eventId,
      event: 'order_status_updated',
      orderId: 'unknown-order',
      fulfillmentStatus: 'in_production',
    });
    const post = (provider: string, id: string, body: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: printerWebhookPath(provider, id),
        headers: { 'content-type': 'application/json', ...headers },
        payload: body,
      });
    const before = new Set((await t.deps.db.select().from(webhookEvents)).map((e) => e.eventId));
    /** The deliveries this test's printers had taken, remembered under this source. */
    const taken = async (source: string) =>
      (await t.deps.db.select().from(webhookEvents).where(eq(webhookEvents.source, source))).filter(
        (e) => !before.has(e.eventId),
      );
    const fromPrintify = () =>
      post('printify-sandbox', printify?.id as string, printifyBody, {
        'x-pfy-signature': signPrintifyWebhook(printifyBody, secret),
      });

    expect((await fromPrintify()).statusCode).toBe(200);
    expect((await post('gelato-sandbox', gelato?.id as string, gelatoBody)).statusCode).toBe(200);
    // Each printer's delivery was taken, under its own name.
    expect(await taken('printify-sandbox')).toHaveLength(1);
    expect(await taken('gelato-sandbox')).toHaveLength(1);
    // Printify sends it again (a retry): answered 200 and not taken twice.
    expect((await fromPrintify()).statusCode).toBe(200);
    expect(await taken('printify-sandbox')).toHaveLength(1);
    expect((await post('gelato-sandbox', gelato?.id as string, gelatoBody)).statusCode).toBe(200);
    expect(await taken('gelato-sandbox')).toHaveLength(1);

    // A delivery taken before each printer had its own name (every printer's under 'printful') is still a duplicate.
    const earlier = JSON.stringify({ ...JSON.parse(printifyBody), id: 'taken-before-the-change' });
    const key = createHash('sha256')
      .update(JSON.stringify([printify?.id, 'taken-before-the-change']))
      .digest('hex');
    await t.deps.db.insert(webhookEvents).values({ source: 'printful', eventId: key, topic: 'order:updated' });
    const late = await post('printify-sandbox', printify?.id as string, earlier, {
      'x-pfy-signature': signPrintifyWebhook(earlier, secret),
    });
    expect(late.statusCode).toBe(200);
    expect(await taken('printify-sandbox')).toHaveLength(1);
  });
});
