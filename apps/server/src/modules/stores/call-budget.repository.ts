import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { callBudgets } from '../../db/schema';

/** A call's turn in a shared budget: how long to wait before sending it, or that the day's budget is spent. */
export type CallTurn = { waitMs: number } | { spentForSeconds: number };

/**
 * Reserves the next call's turn in the budget `key` across every instance on the database: at most `limit` calls
 * in any `windowMs` (a sliding window over the last `limit` turns given, so calls queue in the order they asked),
 * by the database's clock. The row is locked for the moment of the reservation, not while the call is sent.
 */
export async function reserveCallTurn(db: Db, key: string, limit: number, windowMs: number): Promise<CallTurn> {
  return db.transaction(async (tx) => {
    await tx.insert(callBudgets).values({ key }).onConflictDoNothing();
    const [row] = await tx
      .select({
        sent: callBudgets.sent,
        spentUntil: callBudgets.spentUntil,
        now: sql<string>`floor(extract(epoch from clock_timestamp()) * 1000)::bigint`,
      })
      .from(callBudgets)
      .where(eq(callBudgets.key, key))
      .for('update');
    if (!row) throw new Error(`call budget ${key} missing`);
    const now = Number(row.now);
    const spentMs = row.spentUntil ? row.spentUntil.getTime() - now : 0;
    if (spentMs > 0) return { spentForSeconds: Math.ceil(spentMs / 1000) };
    const sent = row.sent.map(Number).sort((a, b) => a - b);
    const oldest = sent.length >= limit ? sent[sent.length - limit] : undefined;
    const turn = oldest === undefined ? now : Math.max(now, oldest + windowMs);
    await tx
      .update(callBudgets)
      .set({ sent: [...sent, turn].slice(-limit) })
      .where(eq(callBudgets.key, key));
    return { waitMs: turn - now };
  });
}

/** The service said the budget `key` is spent for `seconds` (e.g. a store's calls per day): no instance calls until then. */
export async function markBudgetSpent(db: Db, key: string, seconds: number): Promise<void> {
  const until = sql`clock_timestamp() + ${String(seconds)}::double precision * interval '1 second'`;
  await db
    .insert(callBudgets)
    .values({ key, spentUntil: until })
    .onConflictDoUpdate({ target: callBudgets.key, set: { spentUntil: until } });
}
