import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';
import { findIntegration, type IntegrationRow } from '../integrations/integrations.repository';

/**
 * Store connections (`integrations` rows of kind 'store'): the one lookup of a store in its workspace. Requests use
 * `findStoreConnection` (another workspace's or an unknown id: 404); jobs, whose store may have gone meanwhile, use
 * `storeConnection` (null).
 */

export const findStoreConnection = findIntegration;

export async function storeConnection(db: Db, workspaceId: string, id: string): Promise<IntegrationRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.workspaceId, workspaceId)));
  return row ?? null;
}
