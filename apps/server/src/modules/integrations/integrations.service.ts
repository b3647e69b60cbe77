import { platformLabel, type TIntegration } from '@podforge/contract';
import type { IntegrationsDeps } from './integrations.deps';
import { integrationsOfWorkspace } from './integrations.repository';

/** Store and fulfilment integrations of the workspace, stores first. Tokens and scopes never leave the server. */
export async function listIntegrations(deps: IntegrationsDeps, workspaceId: string): Promise<TIntegration[]> {
  const rows = await integrationsOfWorkspace(deps.db, workspaceId);
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
