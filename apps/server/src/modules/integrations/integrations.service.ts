import { platformLabel, type TIntegration } from '@podforge/contract';
import { asc, desc, eq } from 'drizzle-orm';
import { integrations } from '../../db/schema';
import type { IntegrationsDeps } from './integrations.deps';

/** Store and fulfilment integrations of the workspace, stores first. Tokens and scopes never leave the server. */
export async function listIntegrations(deps: IntegrationsDeps, workspaceId: string): Promise<TIntegration[]> {
  const rows = await deps.db
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
    .orderBy(desc(integrations.kind), asc(integrations.createdAt), asc(integrations.id));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    platform: row.platform,
    storeName: row.storeName,
    name: row.storeName ?? platformLabel(row.platform),
    status: row.status,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    isConnected: row.status === 'connected' && row.verifiedAt !== null,
    sandbox: row.sandbox,
    problem: row.problem,
  }));
}
