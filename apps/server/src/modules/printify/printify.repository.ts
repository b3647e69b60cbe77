import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { printifySandboxRecords } from '../../db/schema';

/**
 * The built-in Printify sandbox's SQL: one row per record (an order, a product, an upload, a webhook) of a shop,
 * its body sealed by the sandbox (printify-sandbox.ts) before it comes here.
 */

const t = printifySandboxRecords;
export type SandboxRecordRow = typeof t.$inferSelect;
type Kind = SandboxRecordRow['kind'];

const byKey = (kind: Kind, shopId: string, id: string) => and(eq(t.kind, kind), eq(t.shopId, shopId), eq(t.id, id));

export async function putSandboxRecord(
  db: Db,
  record: { kind: Kind; shopId: string; id: string; body: Record<string, unknown>; nextAt: Date | null },
): Promise<void> {
  await db
    .insert(t)
    .values(record)
    .onConflictDoUpdate({ target: [t.kind, t.shopId, t.id], set: { body: record.body, nextAt: record.nextAt } });
}

export async function sandboxRecord(
  db: Db,
  kind: Kind,
  shopId: string,
  id: string,
): Promise<SandboxRecordRow | undefined> {
  const [row] = await db
    .select()
    .from(t)
    .where(byKey(kind, shopId, id));
  return row;
}

/** The shop's records of a kind, in the order they were first put. */
export async function sandboxRecordsOf(db: Db, kind: Kind, shopId: string): Promise<SandboxRecordRow[]> {
  return db
    .select()
    .from(t)
    .where(and(eq(t.kind, kind), eq(t.shopId, shopId)))
    .orderBy(asc(t.seq));
}

export async function removeSandboxRecord(db: Db, kind: Kind, shopId: string, id: string): Promise<void> {
  await db.delete(t).where(byKey(kind, shopId, id));
}

/** The records due to move on, taken in one statement: two instances ticking at once never move one twice. */
export async function claimDueSandboxRecords(db: Db, now: Date): Promise<SandboxRecordRow[]> {
  const due = db
    .select({ seq: t.seq })
    .from(t)
    .where(and(isNotNull(t.nextAt), lte(t.nextAt, now)))
    .for('update', { skipLocked: true });
  return db.update(t).set({ nextAt: null }).where(inArray(t.seq, due)).returning();
}
