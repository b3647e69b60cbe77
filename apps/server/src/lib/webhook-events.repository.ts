import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { webhookEvents } from '../db/schema';

/**
 * Webhook deliveries taken (printers' and stores'), by source and the sender's event key: a late duplicate is
 * recognised and dropped. Kept WEBHOOK_MEMORY_MS, then forgotten as new ones arrive.
 */

/**
 * A printer's webhook deliveries are remembered under the provider that sent them (the adapter id in
 * `/api/webhooks/printers/:provider/:id`, the configuration's). Before that, every printer's were remembered under
 * this one source, the first printer's name: a key kept there is still taken as seen (a late duplicate of a delivery
 * taken then), until WEBHOOK_MEMORY_MS have forgotten those rows.
 */
export const LEGACY_PRINTER_WEBHOOK_SOURCE = 'printful';

/** How long a taken webhook delivery is remembered, to recognise a late duplicate. */
export const WEBHOOK_MEMORY_MS = 30 * 24 * 3600_000;

export async function webhookEventSeen(db: Db, source: string, eventId: string): Promise<boolean> {
  const [seen] = await db
    .select({ eventId: webhookEvents.eventId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.source, source), eq(webhookEvents.eventId, eventId)));
  return Boolean(seen);
}

/** Records a delivery as taken; false when it already was (a duplicate). */
export async function rememberWebhookEvent(
  db: Db,
  event: { source: string; eventId: string; topic: string },
): Promise<boolean> {
  const [fresh] = await db
    .insert(webhookEvents)
    .values(event)
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return Boolean(fresh);
}

/** Forgets one delivery (it was not taken after all, so the sender's retry must be). */
export async function forgetWebhookEvent(db: Db, source: string, eventId: string): Promise<void> {
  await db.delete(webhookEvents).where(and(eq(webhookEvents.source, source), eq(webhookEvents.eventId, eventId)));
}

/** Forgets printer and store deliveries taken more than WEBHOOK_MEMORY_MS ago (run as new ones arrive). */
export async function forgetOldWebhookEvents(deps: { db: Db; now: () => Date }): Promise<void> {
  await deps.db
    .delete(webhookEvents)
    .where(lt(webhookEvents.receivedAt, new Date(deps.now().getTime() - WEBHOOK_MEMORY_MS)));
}
