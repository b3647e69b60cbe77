import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { storeSettings } from '../../db/schema';

/**
 * WooCommerce's own part of a connection's settings: `data.media`, the media library ids the store gave our
 * pictures (mockup id -> media id), so a picture is uploaded once per store.
 */

export type MediaMemory = Record<string, number>;

export async function mediaMemory(db: Db, integrationId: string): Promise<MediaMemory> {
  const [row] = await db
    .select({ data: storeSettings.data })
    .from(storeSettings)
    .where(eq(storeSettings.integrationId, integrationId));
  return ((row?.data as { media?: MediaMemory } | undefined)?.media ?? {}) as MediaMemory;
}

/** Merges into `data.media` in one statement, so two pushes to one store never lose each other's ids. */
export async function rememberMedia(
  db: Db,
  store: { integrationId: string; workspaceId: string },
  entries: MediaMemory,
  now: Date,
): Promise<void> {
  const patch = JSON.stringify(entries);
  await db
    .insert(storeSettings)
    .values({ ...store, data: { media: entries }, updatedAt: now })
    .onConflictDoUpdate({
      target: storeSettings.integrationId,
      set: {
        data: sql`${storeSettings.data} || jsonb_build_object('media', coalesce(${storeSettings.data}->'media', '{}'::jsonb) || ${patch}::jsonb)`,
        updatedAt: now,
      },
    });
}

/** Replaces `data.media` with what is still known. */
export async function replaceMedia(db: Db, integrationId: string, known: MediaMemory): Promise<void> {
  await db
    .update(storeSettings)
    .set({ data: sql`jsonb_set(${storeSettings.data}, '{media}', ${JSON.stringify(known)}::jsonb)` })
    .where(eq(storeSettings.integrationId, integrationId));
}
