import { and, eq } from 'drizzle-orm';
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
