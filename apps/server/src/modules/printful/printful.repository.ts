import { and, asc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { printfulSandboxOrders, printfulSandboxWebhooks } from '../../db/schema';

/**
 * The built-in Printful sandbox's SQL: its orders (one per store and external id) and each store's webhook
 * configuration. What is sealed in them is sealed by the sandbox (printful-sandbox.ts) before it comes here.
 */

export type SandboxOrderRow = typeof printfulSandboxOrders.$inferSelect;
type SandboxBody = { body: Record<string, unknown>; status: string };

/**
 * The store's order of this external id, made once: the existing row (or the row a concurrent insert made) is
 * answered; else a new row is made and `fill` gives its body from its id, and null is answered.
 */
export async function insertSandboxOrder(
  db: Db,
  storeId: string,
  externalId: string,
  fill: (id: number) => SandboxBody,
): Promise<SandboxOrderRow | null> {
  const byExternalId = and(
    eq(printfulSandboxOrders.storeId, storeId),
    eq(printfulSandboxOrders.externalId, externalId),
  );
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(printfulSandboxOrders).where(byExternalId);
    if (existing) return existing;
    const [row] = await tx
      .insert(printfulSandboxOrders)
      .values({ storeId, externalId, status: 'draft', body: {} })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const [winner] = await tx.select().from(printfulSandboxOrders).where(byExternalId);
      if (!winner) throw new Error('sandbox order vanished');
      return winner;
    }
    await tx.update(printfulSandboxOrders).set(fill(row.id)).where(eq(printfulSandboxOrders.id, row.id));
    return null;
  });
}

/** The store's order by our id or by its external id. */
export async function sandboxOrder(
  db: Db,
  storeId: string,
  ref: { id?: number | undefined; externalId?: string | undefined },
): Promise<SandboxOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(printfulSandboxOrders)
    .where(
      and(
        eq(printfulSandboxOrders.storeId, storeId),
        ref.id !== undefined
          ? eq(printfulSandboxOrders.id, Number.isInteger(ref.id) ? ref.id : -1)
          : eq(printfulSandboxOrders.externalId, ref.externalId ?? ''),
      ),
    );
  return row;
}

export async function saveSandboxOrder(db: Db, id: number, set: SandboxBody & { nextAt: Date | null }): Promise<void> {
  await db.update(printfulSandboxOrders).set(set).where(eq(printfulSandboxOrders.id, id));
}

export async function removeSandboxOrder(db: Db, id: number): Promise<void> {
  await db.delete(printfulSandboxOrders).where(eq(printfulSandboxOrders.id, id));
}

export async function sandboxOrdersOf(db: Db, storeId: string): Promise<SandboxOrderRow[]> {
  return db
    .select()
    .from(printfulSandboxOrders)
    .where(eq(printfulSandboxOrders.storeId, storeId))
    .orderBy(asc(printfulSandboxOrders.id));
}

/** The orders due to move on, taken in one statement: two instances ticking at once never move one order twice. */
export async function claimDueSandboxOrders(db: Db, now: Date): Promise<SandboxOrderRow[]> {
  const due = db
    .select({ id: printfulSandboxOrders.id })
    .from(printfulSandboxOrders)
    .where(and(isNotNull(printfulSandboxOrders.nextAt), lte(printfulSandboxOrders.nextAt, now)))
    .for('update', { skipLocked: true });
  return db
    .update(printfulSandboxOrders)
    .set({ nextAt: null })
    .where(inArray(printfulSandboxOrders.id, due))
    .returning();
}

export async function sandboxOrderCount(db: Db, storeId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(printfulSandboxOrders)
    .where(eq(printfulSandboxOrders.storeId, storeId));
  return row?.n ?? 0;
}

export async function sandboxWebhook(db: Db, storeId: string) {
  const [row] = await db.select().from(printfulSandboxWebhooks).where(eq(printfulSandboxWebhooks.storeId, storeId));
  return row;
}

export async function setSandboxWebhook(
  db: Db,
  storeId: string,
  config: Omit<typeof printfulSandboxWebhooks.$inferInsert, 'storeId'>,
): Promise<void> {
  await db
    .insert(printfulSandboxWebhooks)
    .values({ storeId, ...config })
    .onConflictDoUpdate({ target: printfulSandboxWebhooks.storeId, set: config });
}
