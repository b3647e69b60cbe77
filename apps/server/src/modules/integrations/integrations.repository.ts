import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

export type IntegrationRow = typeof integrations.$inferSelect;

/** One integration of the workspace (of that platform, when given); another workspace's or an unknown id: 404. */
export async function findIntegration(
  db: Db,
  workspaceId: string,
  id: string,
  platform?: string,
): Promise<IntegrationRow> {
  return findInWorkspace('Integration', id, async () => {
    const [row] = await db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.id, id),
          eq(integrations.workspaceId, workspaceId),
          platform ? eq(integrations.platform, platform) : undefined,
        ),
      );
    return row;
  });
}

/** The workspace's integrations (stores and printers), stores first, then oldest first. */
export function integrationsOfWorkspace(db: Db, workspaceId: string) {
  return (
    db
      .select({
        id: integrations.id,
        kind: integrations.kind,
        platform: integrations.platform,
        storeName: integrations.storeName,
        status: integrations.status,
        verifiedAt: integrations.verifiedAt,
        lastSyncAt: integrations.lastSyncAt,
        sandbox: integrations.sandbox,
        problem: integrations.problem,
      })
      .from(integrations)
      .where(eq(integrations.workspaceId, workspaceId))
      // 'store' sorts after 'fulfillment': descending puts stores first.
      .orderBy(desc(integrations.kind), asc(integrations.createdAt), asc(integrations.id))
  );
}
