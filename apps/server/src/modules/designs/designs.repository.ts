import { and, desc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/db';
import { designs, mockups } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/** The design aggregate's SQL. Every query is scoped by workspace; a row of another workspace is "not found". */

export type DesignRow = typeof designs.$inferSelect;
export type NewDesignRow = typeof designs.$inferInsert;

export async function insertDesigns(db: DbOrTx, rows: NewDesignRow[]): Promise<DesignRow[]> {
  return db.insert(designs).values(rows).returning();
}

export async function deleteDesigns(db: DbOrTx, workspaceId: string, ids: string[]): Promise<void> {
  await db.delete(designs).where(and(eq(designs.workspaceId, workspaceId), inArray(designs.id, ids)));
}

export async function listDesignRows(db: DbOrTx, workspaceId: string, limit: number): Promise<DesignRow[]> {
  return db
    .select()
    .from(designs)
    .where(eq(designs.workspaceId, workspaceId))
    .orderBy(desc(designs.createdAt), desc(designs.id))
    .limit(limit);
}

/** The design of the workspace, or 404 (lib/find-in-workspace.ts). */
export async function findDesign(db: DbOrTx, workspaceId: string, id: string): Promise<DesignRow> {
  return findInWorkspace('Design', id, async () => {
    const [row] = await db
      .select()
      .from(designs)
      .where(and(eq(designs.id, id), eq(designs.workspaceId, workspaceId)));
    return row;
  });
}

/**
 * Deletes the design (its mockups' rows go with it by cascade) and answers its row with its mockups' file keys, or
 * 404. The keys are read first: the files must be removed too.
 */
export async function deleteDesign(
  db: DbOrTx,
  workspaceId: string,
  id: string,
): Promise<{ row: DesignRow; mockupKeys: (string | null)[] }> {
  const mockupFiles = await db
    .select({ storageKey: mockups.storageKey, previewKey: mockups.previewKey })
    .from(mockups)
    .where(and(eq(mockups.designId, id), eq(mockups.workspaceId, workspaceId)));
  const row = await findInWorkspace('Design', id, async () => {
    const [deleted] = await db
      .delete(designs)
      .where(and(eq(designs.id, id), eq(designs.workspaceId, workspaceId)))
      .returning();
    return deleted;
  });
  return { row, mockupKeys: mockupFiles.flatMap((m) => [m.storageKey, m.previewKey]) };
}
