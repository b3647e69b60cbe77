import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { workspaceReadVersions } from '../../db/schema';

/** The read versions of these workspaces (a workspace nothing was written for yet has no row). */
export async function readVersionsOf(db: Db, workspaceIds: string[]): Promise<Map<string, number>> {
  const rows = await db
    .select({ workspaceId: workspaceReadVersions.workspaceId, version: workspaceReadVersions.version })
    .from(workspaceReadVersions)
    .where(inArray(workspaceReadVersions.workspaceId, workspaceIds));
  return new Map(rows.map((r) => [r.workspaceId, Number(r.version)]));
}
