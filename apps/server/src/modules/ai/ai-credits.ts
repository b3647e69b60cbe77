import type { TDashboardStats } from '@podforge/contract';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { aiGenerations, workspaces } from '../../db/schema';

export const startOfMonthUtc = (now: Date, offsetMonths = 0) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1));

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

/** The monthly allowance minus what was used (read with `aiCreditsUsedQuery`); the AI routes enforce it. */
export function aiCreditsFrom(used: number, options: { now: Date; allowance: number }): TDashboardStats['aiCredits'] {
  return {
    allowance: options.allowance,
    used,
    remaining: Math.max(0, options.allowance - used),
    resetsAt: startOfMonthUtc(options.now, 1).toISOString(),
  };
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
