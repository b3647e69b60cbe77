import { and, eq, isNotNull, like, lt } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { shopifySandboxRecords, shopifyWebhookEvents } from '../../db/schema';

/**
 * The SQL of the tables only the Shopify adapter has: its webhook deliveries (recorded, then worked by a job) and
 * the built-in sandbox's records. Its store connection is a `store-connections.repository.ts` row like any store's.
 */

// Webhook deliveries

export type ShopifyWebhookEventRow = typeof shopifyWebhookEvents.$inferSelect;

/** Records a delivery once per event id; answers the new row's id, or undefined when the event was recorded. */
export async function insertWebhookEvent(
  db: Db,
  values: Omit<typeof shopifyWebhookEvents.$inferInsert, 'id'>,
): Promise<{ id: string } | undefined> {
  const [inserted] = await db
    .insert(shopifyWebhookEvents)
    .values(values)
    .onConflictDoNothing({ target: shopifyWebhookEvents.eventId })
    .returning({ id: shopifyWebhookEvents.id });
  return inserted;
}

export async function webhookEventByEventId(
  db: Db,
  eventId: string,
): Promise<{ id: string; processedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ id: shopifyWebhookEvents.id, processedAt: shopifyWebhookEvents.processedAt })
    .from(shopifyWebhookEvents)
    .where(eq(shopifyWebhookEvents.eventId, eventId));
  return row;
}

export async function webhookEvent(db: Db, id: string): Promise<ShopifyWebhookEventRow | undefined> {
  const [row] = await db.select().from(shopifyWebhookEvents).where(eq(shopifyWebhookEvents.id, id));
  return row;
}

export async function recordWebhookError(db: Db, id: string, error: string): Promise<void> {
  await db.update(shopifyWebhookEvents).set({ error }).where(eq(shopifyWebhookEvents.id, id));
}

/** Marks the event processed (its payload is no longer kept) and deletes those processed before `keepAfter`. */
export async function finishWebhookEvent(db: Db, id: string, now: Date, keepAfter: Date): Promise<void> {
  await db
    .update(shopifyWebhookEvents)
    .set({ processedAt: now, error: null, payload: null, payloadEnc: null })
    .where(eq(shopifyWebhookEvents.id, id));
  await db
    .delete(shopifyWebhookEvents)
    .where(and(isNotNull(shopifyWebhookEvents.processedAt), lt(shopifyWebhookEvents.receivedAt, keepAfter)));
}

// The built-in sandbox's records (JSON per kind and key)

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function sandboxRecord(db: Db, kind: string, key: string): Promise<unknown> {
  const [row] = await db
    .select({ value: shopifySandboxRecords.value })
    .from(shopifySandboxRecords)
    .where(and(eq(shopifySandboxRecords.kind, kind), eq(shopifySandboxRecords.key, key)));
  return row?.value;
}

export async function sandboxRecordsWithPrefix(db: Db, kind: string, prefix: string): Promise<unknown[]> {
  const rows = await db
    .select({ value: shopifySandboxRecords.value })
    .from(shopifySandboxRecords)
    .where(and(eq(shopifySandboxRecords.kind, kind), like(shopifySandboxRecords.key, likePrefix(prefix))));
  return rows.map((r) => r.value);
}

export async function putSandboxRecord(db: Db, kind: string, key: string, value: unknown, now: Date): Promise<void> {
  await db
    .insert(shopifySandboxRecords)
    .values({ kind, key, value, updatedAt: now })
    .onConflictDoUpdate({
      target: [shopifySandboxRecords.kind, shopifySandboxRecords.key],
      set: { value, updatedAt: now },
    });
}

export async function deleteSandboxRecord(db: Db, kind: string, key: string): Promise<void> {
  await db
    .delete(shopifySandboxRecords)
    .where(and(eq(shopifySandboxRecords.kind, kind), eq(shopifySandboxRecords.key, key)));
}
