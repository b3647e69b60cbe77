import type { TAmazonSettings, TIntegration, TOrderPage, TProductDetail } from '@podforge/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrations, publications, storeSettings, workspaceReadVersions } from '../src/db/schema';
import { AmazonError } from '../src/integrations/amazon/client';
import type { FakeAmazon } from '../src/integrations/amazon/fake-server';
import { type FakeSqs, startFakeSqs } from '../src/integrations/amazon/fake-sqs';
import { startWorker, startWorkers } from '../src/jobs/workers';
import { amazonListingsJob } from '../src/modules/amazon/amazon-listings';
import { amazonNotificationJob, amazonSqsJob, amazonSubscribeJob } from '../src/modules/amazon/amazon-notifications';
import { storePushJob } from '../src/modules/products/store-push';
import { connectAmazon } from './fixtures/amazon';
import { twoColourTee, waitFor } from './fixtures/store-products';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/**
 * Amazon's notifications through SQS (issue #30) and the background read of listing issues, through the real server
 * against the built-in sandbox seller and a local SQS: on connect the seller is subscribed (the Notifications fake
 * checks every call against Amazon's model), the sandbox delivers ORDER_CHANGE and LISTINGS_ITEM_ISSUES_CHANGE to
 * the queue, the app long-polls it. The order poll (amazon-orders) is not started here: an order that arrives came
 * by its notification.
 */

const APP = 'http://podforge.test';
const QUEUE = 'podforge-amazon';
const SLOW = 120_000;
let t: TestApp;
let fake: FakeAmazon;
let sqs: FakeSqs;

beforeAll(async () => {
  sqs = await startFakeSqs({ queues: [QUEUE], region: 'us-east-1' });
  t = await createTestApp({
    env: {
      APP_URL: APP,
      AMAZON_SQS_QUEUE_URL: sqs.queueUrl(QUEUE),
      AMAZON_SQS_ENDPOINT: sqs.url,
      AMAZON_SQS_REGION: sqs.region,
      AMAZON_SQS_WAIT_SECONDS: '1',
      AWS_ACCESS_KEY_ID: sqs.accessKeyId,
      AWS_SECRET_ACCESS_KEY: sqs.secretAccessKey,
    },
  });
  t.deps.amazon.sandboxOptions = { processingMs: 60_000, fetchImages: false };
  fake = (await t.deps.amazon.sandboxServer()) as FakeAmazon;
  await startWorker(t.deps, storePushJob);
  await startWorkers(t.deps, [amazonSqsJob, amazonNotificationJob, amazonListingsJob], { pollingIntervalSeconds: 0.5 });
}, SLOW);
afterAll(async () => {
  await t?.close();
  await sqs?.close();
});

async function connect(client: TestClient): Promise<TIntegration & { externalId: string }> {
  const store = await connectAmazon(client, APP, 'ATVPDKIKX0DER');
  const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, store.id));
  return { ...store, externalId: row?.externalId ?? '' };
}

/** A connected seller with a two-colour tee pushed to Amazon (accepted, not yet processed). */
async function listedTee(client: TestClient, title: string, brand: string) {
  const store = await connect(client);
  const set = await client.post(`/api/amazon/${store.id}/settings`, { brand, gtinExempt: true });
  expect(set.statusCode, set.body).toBe(200);
  const product = await twoColourTee(t, client, {
    title,
    tags: ['amazon'],
    color: { r: 30, g: 90, b: 160 },
    description: 'Soft cotton. Printed to order.',
  });
  const pushed = await client.post(`/api/upload/amazon/${product.id}`, { integrationId: store.id });
  expect(pushed.statusCode, pushed.body).toBe(200);
  return { store, product, sellerId: store.externalId };
}

const amazonCopy = async (client: TestClient, productId: string) =>
  (await client.get(`/api/products/${productId}`))
    .json<TProductDetail>()
    .storeCopies.find((c) => c.platform === 'amazon');

describe('subscribing on connect', () => {
  it('creates the destination for the queue once and subscribes each seller; the fake refuses a malformed destination', async () => {
    const firstClient = t.client();
    const first = await connect(firstClient);
    const second = await connect(t.client());
    expect(fake.destinations()).toEqual([expect.objectContaining({ arn: sqs.queueArn(QUEUE) })]);
    const destinationId = fake.destinations()[0]?.destinationId;
    for (const store of [first, second]) {
      const subs = fake.subscriptions(store.externalId);
      expect(subs.map((s) => [s.notificationType, s.payloadVersion, s.destinationId]).sort()).toEqual([
        ['LISTINGS_ITEM_ISSUES_CHANGE', '2023-12-13', destinationId],
        ['ORDER_CHANGE', '1.0', destinationId],
      ]);
      expect(subs.find((s) => s.notificationType === 'ORDER_CHANGE')?.processingDirective).toEqual({
        eventFilter: { eventFilterType: 'ORDER_CHANGE', orderChangeTypes: ['OrderStatusChange'] },
      });
      const [settings] = await t.deps.db.select().from(storeSettings).where(eq(storeSettings.integrationId, store.id));
      expect(settings?.data).toMatchObject({ notifications: { destinationId } });
    }
    const shown = (await firstClient.get(`/api/amazon/${first.id}/settings`)).json<TAmazonSettings>();
    expect(shown.notifications).toEqual({ state: 'subscribed', problem: null });

    // Amazon's model: the SQS resource needs an ARN; destinations take the app's grantless token, not a seller's.
    const client = await t.deps.amazon.getClient();
    const refused = await client
      .createDestination('na', 'Bad', 'https://sqs.us-east-1.amazonaws.com/1/q')
      .catch((e) => e);
    expect(refused).toBeInstanceOf(AmazonError);
    expect(refused).toMatchObject({ status: 400, code: 'InvalidInput' });
    expect((refused as AmazonError).details).toMatch(/resourceSpecification\/sqs\/arn must match pattern/);
    const [row] = await t.deps.db.select().from(integrations).where(eq(integrations.id, first.id));
    if (!row) throw new Error('no store row');
    const sellerToken = await t.deps.amazon.accessToken(row);
    const asSeller = await client
      .call(sellerToken, {
        region: 'na',
        sellerId: first.externalId,
        operationId: 'getDestinations',
        method: 'GET',
        path: '/notifications/v1/destinations',
      })
      .catch((e) => e);
    expect(asSeller).toMatchObject({ status: 403, details: expect.stringMatching(/grantless/) });
  });
});

describe('subscriptions of sellers connected before the queue, and on disconnect', () => {
  const settingsOf = async (id: string) =>
    (await t.deps.db.select().from(storeSettings).where(eq(storeSettings.integrationId, id)))[0]?.data as
      | Record<string, unknown>
      | undefined;

  it(
    'subscribes at start-up, once, a seller connected before the queue was configured',
    async () => {
      const client = t.client();
      const store = await connect(client);
      // As a seller connected before AMAZON_SQS_QUEUE_URL was set: no subscription at Amazon, none on the settings.
      await fake.unsubscribe(store.externalId);
      await t.deps.db
        .update(storeSettings)
        .set({ data: sql`${storeSettings.data} - 'notifications'` })
        .where(eq(storeSettings.integrationId, store.id));
      const before = (await client.get(`/api/amazon/${store.id}/settings`)).json<TAmazonSettings>();
      expect(before.notifications).toMatchObject({
        state: 'failed',
        problem: 'Amazon notifications are not set up yet',
      });

      await startWorker(t.deps, amazonSubscribeJob, { pollingIntervalSeconds: 0.5 });
      await amazonSubscribeJob.started?.(t.deps);
      await waitFor(
        async () => fake.subscriptions(store.externalId).length,
        (n) => n === 2,
      );
      await waitFor(
        async () => (await client.get(`/api/amazon/${store.id}/settings`)).json<TAmazonSettings>().notifications,
        (shown) => shown?.state === 'subscribed',
      );
      // Started again (another instance, a restart): nothing more is made.
      await amazonSubscribeJob.started?.(t.deps);
      await new Promise((r) => setTimeout(r, 1500));
      expect(fake.subscriptions(store.externalId)).toHaveLength(2);
      expect(fake.destinations()).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "deletes the seller's subscriptions on disconnect, and only theirs",
    async () => {
      const client = t.client();
      const leaving = await connect(client);
      const staying = await connect(t.client());
      expect(fake.subscriptions(leaving.externalId)).toHaveLength(2);
      const res = await client.post(`/api/amazon/disconnect/${leaving.id}`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(fake.subscriptions(leaving.externalId)).toEqual([]);
      expect(fake.subscriptions(staying.externalId)).toHaveLength(2);
      expect((await settingsOf(leaving.id))?.notifications).toBeUndefined();
    },
    SLOW,
  );
});

describe('ORDER_CHANGE', () => {
  it(
    'a sandbox test order reaches Orders by its notification, not the poll; delivered twice, it is read once',
    async () => {
      const client = t.client();
      const { store, product } = await listedTee(client, 'Notified Tee', 'Generic');
      await fake.processDue(true);
      const sku = product.variants[0]?.sku;
      sqs.duplicateNext();
      const placed = await client.post('/api/amazon/sandbox/orders', {
        integrationId: store.id,
        lines: [{ sku, quantity: 1 }],
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const orderId = placed.json().remoteOrderId as string;
      const order = await waitFor(
        async () => (await client.get('/api/orders')).json<TOrderPage>().items.find((o) => o.externalId === orderId),
        (o) => Boolean(o),
      );
      expect(order?.lines.map((l) => [l.sku, l.quantity])).toEqual([[sku, 1]]);
      expect(fake.calls.some((c) => c.operationId === 'searchOrders')).toBe(false);
      // Both copies received and deleted; the one order read once.
      await waitFor(
        async () => sqs.messages(QUEUE).length,
        (n) => n === 0,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const copies = sqs.received.filter((m) => m.body.includes(orderId));
      expect(copies).toHaveLength(2);
      expect(copies[0]?.body).toBe(copies[1]?.body);
      const reads = fake.calls.filter((c) => c.operationId === 'getOrder' && c.path.endsWith(orderId));
      expect(reads).toHaveLength(1);
      const page = (await client.get('/api/orders')).json<TOrderPage>();
      expect(page.items.filter((o) => o.externalId === orderId)).toHaveLength(1);
    },
    SLOW,
  );
});

describe('listing issues', () => {
  it(
    'LISTINGS_ITEM_ISSUES_CHANGE: the issues Amazon found after ACCEPTED show on the product without opening it',
    async () => {
      const client = t.client();
      const { product } = await listedTee(client, 'Suppressed Tee', 'Acme Prints');
      expect((await amazonCopy(client, product.id))?.listing ?? null).toBeNull();
      await fake.processDue(true);
      const copy = await waitFor(
        () => amazonCopy(client, product.id),
        (c) => c?.listing?.state === 'not_buyable',
      );
      expect(copy?.listing?.issues).toHaveLength(product.variants.length);
      expect(copy?.listing?.issues[0]).toMatch(/The brand 'Acme Prints' has no GTIN exemption for SHIRT/);
      // Each child's notification came through the queue, and they made a read of the family, not one each.
      const notified = () =>
        sqs.received
          .filter((m) => m.body.includes('LISTINGS_ITEM_ISSUES_CHANGE'))
          .map((m) => JSON.parse(m.body).Payload.Sku as string);
      await waitFor(
        async () => notified(),
        (skus) => product.variants.every((v) => skus.includes(v.sku ?? '')),
      );
      const [pub] = await t.deps.db.select().from(publications).where(eq(publications.productId, product.id));
      const familyReads = async () =>
        (
          (await t.deps.db.execute(
            sql`SELECT state FROM pgboss.job WHERE name = 'amazon-listings' AND data->>'publicationId' = ${pub?.id ?? ''}`,
          )) as { rows: { state: string }[] }
        ).rows.map((r) => r.state);
      const reads = await waitFor(familyReads, (states) => states.every((x) => x === 'completed'));
      expect(reads.length).toBeGreaterThanOrEqual(1);
      expect(reads.length).toBeLessThan(product.variants.length / 4);
    },
    SLOW,
  );

  it(
    'the background read stores a family’s state on its store copy, moving the events stream only when it changes',
    async () => {
      const client = t.client();
      const { store, product, sellerId } = await listedTee(client, 'Polled Tee', 'Generic');
      // No notification for this seller: only the poll can tell.
      await fake.unsubscribe(sellerId);
      await fake.processDue(true);
      const ws = await client.workspaceId(t.deps.db);
      const version = async () =>
        (await t.deps.db.select().from(workspaceReadVersions).where(eq(workspaceReadVersions.workspaceId, ws)))[0]
          ?.version ?? 0;
      const run = () =>
        amazonListingsJob.handle(t.deps, {
          id: crypto.randomUUID(),
          data: { integrationId: store.id, after: null },
        } as Parameters<typeof amazonListingsJob.handle>[1]);
      const before = await version();
      await run();
      expect((await amazonCopy(client, product.id))?.listing).toEqual({ state: 'live', issues: [] });
      const after = await version();
      expect(Number(after)).toBeGreaterThan(Number(before));
      await run();
      expect(await version()).toBe(after);
    },
    SLOW,
  );
});
