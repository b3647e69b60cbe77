import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { aiGenerations, workspaces } from '../../db/schema';
import { startOfMonthUtc } from './ai-credits';

/** The AI generations' SQL: each generation is a row with the credits it cost, read back for the monthly caps. */

export type NewGeneration = Omit<typeof aiGenerations.$inferInsert, 'id'>;

/** The query of the credits a workspace used this calendar month (UTC): the sum of its `ai_generations` rows. */
export function aiCreditsUsedQuery(db: Db, workspaceId: string, now: Date) {
  return db
    .select({ used: sql<string | null>`sum(${aiGenerations.credits})` })
    .from(aiGenerations)
    .where(and(eq(aiGenerations.workspaceId, workspaceId), gte(aiGenerations.createdAt, startOfMonthUtc(now))));
}

/** Credits the workspace used this calendar month (UTC). */
export async function aiCreditsUsed(db: Db, workspaceId: string, now: Date): Promise<number> {
  const [row] = await aiCreditsUsedQuery(db, workspaceId, now);
  return Number(row?.used ?? 0);
}

/**
 * Credits used this calendar month (UTC) by every workspace made from the same client address as this one (its
 * `creator_key`): the per-address cap (AI_MONTHLY_CREDITS_PER_ADDRESS), so new workspaces made by dropping the cookie
 * bring no new credits. A workspace made before creators were recorded has no key and no shared cap.
 */
export async function creatorCreditsUsed(
  db: Db,
  workspaceId: string,
  now: Date,
): Promise<{ creatorKey: string | null; used: number }> {
  const [own] = await db
    .select({ creatorKey: workspaces.creatorKey })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  const creatorKey = own?.creatorKey ?? null;
  if (!creatorKey) return { creatorKey, used: 0 };
  const [row] = await db
    .select({ used: sql<string | null>`sum(${aiGenerations.credits})` })
    .from(aiGenerations)
    .innerJoin(workspaces, eq(workspaces.id, aiGenerations.workspaceId))
    .where(and(eq(workspaces.creatorKey, creatorKey), gte(aiGenerations.createdAt, startOfMonthUtc(now))));
  return { creatorKey, used: Number(row?.used ?? 0) };
}

/**
 * Holds a transaction-long lock on a key (`pg_advisory_xact_lock`), so parallel charges of one workspace (or one
 * address) take turns between reading what was used and recording the new generation.
 */
export async function lockCredits(tx: Db, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

export async function insertGeneration(tx: Db, values: NewGeneration): Promise<void> {
  await tx.insert(aiGenerations).values(values);
}

export async function generationRows(db: Db, workspaceId: string, limit: number) {
  return db
    .select()
    .from(aiGenerations)
    .where(eq(aiGenerations.workspaceId, workspaceId))
    .orderBy(desc(aiGenerations.createdAt), desc(aiGenerations.id))
    .limit(limit);
}
