import type { TDashboardStats } from '@podforge/contract';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { aiGenerations } from '../../db/schema';

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
