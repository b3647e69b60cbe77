import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/db';
import { mockupBatches, mockups } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/** The mockup aggregate's SQL (a mockup and the batch that made it), scoped by workspace. */

export type MockupRow = typeof mockups.$inferSelect;
export type MockupBatchRow = typeof mockupBatches.$inferSelect;

export async function insertMockup(db: DbOrTx, values: typeof mockups.$inferInsert): Promise<MockupRow> {
  const [row] = await db.insert(mockups).values(values).returning();
  if (!row) throw new Error('mockup insert returned nothing');
  return row;
}

/** The mockup of the workspace, or 404 (lib/find-in-workspace.ts). */
export async function findMockup(db: DbOrTx, workspaceId: string, id: string): Promise<MockupRow> {
  return findInWorkspace('Mockup', id, async () => {
    const [row] = await db
      .select()
      .from(mockups)
      .where(and(eq(mockups.id, id), eq(mockups.workspaceId, workspaceId)));
    return row;
  });
}

export async function insertMockupBatch(
  db: DbOrTx,
  values: { workspaceId: string; designId: string; productType: string; total: number },
): Promise<MockupBatchRow> {
  const [batch] = await db.insert(mockupBatches).values(values).returning();
  if (!batch) throw new Error('batch insert returned nothing');
  return batch;
}

export async function finishMockupBatch(
  db: DbOrTx,
  id: string,
  set: { status: 'done' | 'failed'; error: string | null; finishedAt: Date },
): Promise<void> {
  await db.update(mockupBatches).set(set).where(eq(mockupBatches.id, id));
}

/** The batch of the workspace with its mockups in batch order, or 404. */
export async function findMockupBatch(
  db: DbOrTx,
  workspaceId: string,
  id: string,
): Promise<{ batch: MockupBatchRow; rows: MockupRow[] }> {
  const batch = await findInWorkspace('Mockup job', id, async () => {
    const [row] = await db
      .select()
      .from(mockupBatches)
      .where(and(eq(mockupBatches.id, id), eq(mockupBatches.workspaceId, workspaceId)));
    return row;
  });
  const rows = await db
    .select()
    .from(mockups)
    .where(and(eq(mockups.batchId, batch.id), eq(mockups.workspaceId, workspaceId)))
    .orderBy(asc(mockups.batchPosition));
  return { batch, rows };
}

/** A mockup by id alone (its full-size file is drawn for a request already scoped, or a signed URL). */
export async function findMockupById(db: DbOrTx, id: string): Promise<MockupRow | undefined> {
  const [row] = await db.select().from(mockups).where(eq(mockups.id, id));
  return row;
}
