import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../../db/db';
import { defineJob, sendJob } from '../../jobs/define-job';
import { type JobQueue, QUEUES } from '../../jobs/job-queue';
import type { TokenCipher } from '../../lib/crypto';
import {
  finishWebhookEvent,
  insertWebhookEvent,
  recordWebhookError,
  webhookEvent,
  webhookEventByEventId,
} from './shopify.repository';

/**
 * Shopify webhooks after their hmac was checked (shopify.routes.ts): each event is one `shopify_webhook_events` row
 * keyed by topic and X-Shopify-Event-Id, so a duplicate delivery adds nothing (apis.md A4, E4), and one job (its id is the row's)
 * runs the topic's handlers, so the answer goes back at once and the work survives a restart. Modules register
 * their topics in `deps.shopifyWebhooks`; a topic may have several handlers, each idempotent, because Shopify may
 * deliver an event late, twice, or after the app was uninstalled. The body (an order's buyer and address) is kept
 * encrypted, and only until the event is processed.
 */

export type ShopifyWebhookEvent = {
  eventId: string;
  topic: string;
  shop: string;
  payload: unknown;
  /** When Shopify says the event happened (X-Shopify-Triggered-At), if it said. */
  triggeredAt: Date | null;
};

export type ShopifyWebhookHandler = (event: ShopifyWebhookEvent) => Promise<void>;

/** Topic -> handlers. The orders module registers orders/paid and the rest in the same way. */
export class ShopifyWebhookRegistry {
  private readonly handlers = new Map<string, ShopifyWebhookHandler[]>();

  on(topic: string, handler: ShopifyWebhookHandler): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
  }

  handlersFor(topic: string): ShopifyWebhookHandler[] {
    return this.handlers.get(topic) ?? [];
  }
}

/**
 * The job of a recorded event: every handler of the topic. pg-boss hands each job to one worker across instances; a
 * handler that throws leaves the event unprocessed and pg-boss retries it with backoff.
 */
export const shopifyWebhookJob = defineJob({
  name: QUEUES.shopifyWebhook,
  payload: z.object({ eventRowId: z.string() }),
  retry: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
  workers: { pollingIntervalSeconds: 2, batchSize: 5 },
  handle: (deps: ShopifyWebhookDeps, job) => processWebhookEvent(deps, job.data.eventRowId),
});
/** Handled events are kept this long to recognise late duplicates (Shopify retries for hours, not weeks). */
const KEEP_PROCESSED_MS = 30 * 24 * 3600_000;

type ShopifyWebhookDeps = { db: Db; now: () => Date; shopifyWebhooks: ShopifyWebhookRegistry; cipher: TokenCipher };

type Incoming = {
  eventId: string | undefined;
  webhookId: string | undefined;
  topic: string;
  shop: string;
  triggeredAt: string | undefined;
  raw: Buffer;
};

/** Records a verified delivery and queues its job; a duplicate of a recorded event queues nothing new. */
export async function recordWebhook(deps: { db: Db; jobs: JobQueue; cipher: TokenCipher }, incoming: Incoming) {
  const { raw, topic, shop } = incoming;
  // One merchant action gives all its topics one event id (apis.md A4): a delivery is a duplicate only when topic and
  // event id are both seen. Without an id, the same bytes for the same shop and topic are the same event.
  const eventId = incoming.eventId
    ? `${topic}|${incoming.eventId}`
    : `body:${createHash('sha256').update(`${topic}\n${shop}\n`).update(raw).digest('hex')}`;
  let payload: string | null = null;
  try {
    payload = JSON.stringify(JSON.parse(raw.toString('utf8')));
  } catch {
    payload = null;
  }
  const triggered = incoming.triggeredAt ? new Date(incoming.triggeredAt) : null;
  const inserted = await insertWebhookEvent(deps.db, {
    eventId,
    webhookId: incoming.webhookId ?? null,
    topic,
    shop,
    payloadEnc: payload === null ? null : deps.cipher.encrypt(payload),
    triggeredAt: triggered && !Number.isNaN(triggered.getTime()) ? triggered : null,
  });
  const row = inserted ?? (await webhookEventByEventId(deps.db, eventId));
  if (!row || ('processedAt' in row && row.processedAt)) return { duplicate: !inserted };
  // The job's id is the row's: sending it again for a duplicate of an unfinished event adds nothing.
  await sendJob(deps.jobs, shopifyWebhookJob, { eventRowId: row.id }, { id: row.id });
  return { duplicate: !inserted };
}

/** The job: every handler of the topic, then the row is marked processed (a failure is kept and retried). */
export async function processWebhookEvent(deps: ShopifyWebhookDeps, eventRowId: string) {
  const row = await webhookEvent(deps.db, eventRowId);
  if (!row || row.processedAt) return;
  const event: ShopifyWebhookEvent = {
    // The row's key is topic|event id: handlers see Shopify's event id.
    eventId: row.eventId.startsWith(`${row.topic}|`) ? row.eventId.slice(row.topic.length + 1) : row.eventId,
    topic: row.topic,
    shop: row.shop,
    payload: row.payloadEnc ? JSON.parse(deps.cipher.decrypt(row.payloadEnc)) : row.payload,
    triggeredAt: row.triggeredAt,
  };
  try {
    for (const handler of deps.shopifyWebhooks.handlersFor(row.topic)) await handler(event);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    await recordWebhookError(deps.db, row.id, message.slice(0, 500));
    throw error;
  }
  await finishWebhookEvent(deps.db, row.id, deps.now(), new Date(deps.now().getTime() - KEEP_PROCESSED_MS));
}
