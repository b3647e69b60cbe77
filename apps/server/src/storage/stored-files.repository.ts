import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/db';
import { storedFiles } from '../db/schema';

/** `stored_files`: one row per object stored for a workspace (key and size), the sum of which is its usage. */

/** Records (or re-records) a stored object; only for a workspace that exists (a test may store under any id). */
export async function recordStoredFile(db: Db, key: string, workspaceId: string, bytes: number): Promise<void> {
  await db.execute(sql`INSERT INTO stored_files (key, workspace_id, bytes)
      SELECT ${key}, id, ${bytes} FROM workspaces WHERE id = ${workspaceId}
      ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes`);
}

export async function forgetStoredFile(db: Db, key: string): Promise<void> {
  await db.delete(storedFiles).where(eq(storedFiles.key, key));
}

/** The query of the bytes a workspace has stored (a subquery of the dashboard's figures). */
export function storageUsedQuery(db: Db, workspaceId: string) {
  return db
    .select({ used: sql<string | null>`sum(${storedFiles.bytes})` })
    .from(storedFiles)
    .where(eq(storedFiles.workspaceId, workspaceId));
}

export async function storageUsed(db: Db, workspaceId: string): Promise<number> {
  const [row] = await storageUsedQuery(db, workspaceId);
  return Number(row?.used ?? 0);
}
