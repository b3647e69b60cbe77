import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations, publications } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { findIntegration, type IntegrationRow } from '../integrations/integrations.repository';

/**
 * Store connections (`integrations` rows of kind 'store'): the one lookup of a store in its workspace. Requests use
 * `findStoreConnection` (another workspace's or an unknown id: 404); jobs, whose store may have gone meanwhile, use
 * `storeConnection` (null).
 */

export type { IntegrationRow };

export const findStoreConnection = findIntegration;

export async function storeConnection(db: Db, workspaceId: string, id: string): Promise<IntegrationRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.workspaceId, workspaceId)));
  return row ?? null;
}

/** A store by id alone (a job whose payload names only the store), of this platform; null when gone. */
export async function storeOfPlatform(db: Db, platform: string, id: string): Promise<IntegrationRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.id, id), eq(integrations.platform, platform)));
  return row ?? null;
}

/**
 * The connections of one shop (a store's own id, e.g. its domain): every workspace that connected it, in this mode
 * (sandbox or real). A webhook names the shop, not our row.
 */
export function storesOfExternalId(db: Db, platform: string, externalId: string, sandbox: boolean) {
  return db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.platform, platform),
        eq(integrations.externalId, externalId),
        eq(integrations.sandbox, sandbox),
      ),
    );
}

/** The connected stores of a platform (a periodic read starts each one's chain). */
export function connectedStoresOf(db: Db, platform: string): Promise<{ id: string }[]> {
  return db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(eq(integrations.platform, platform), eq(integrations.status, 'connected')));
}

/** What the seller must do for this store (shown on its Integrations card), or null to clear it. */
export async function setStoreProblem(db: Db, store: IntegrationRow, problem: string | null): Promise<void> {
  await db
    .update(integrations)
    .set({ problem })
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

/** Moves a store's order-read cursor forward only (two reads of one store at once never move it back). */
export async function advanceOrdersCursor(db: Db, store: IntegrationRow, cursor: number): Promise<void> {
  await db
    .update(integrations)
    .set({ ordersCursor: sql`greatest(coalesce(${integrations.ordersCursor}, 0), ${cursor})` })
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

/** The store's remote product ids of this workspace's publications there (what it pushed to that store). */
export async function publishedRemoteIds(db: Db, store: IntegrationRow): Promise<Set<string>> {
  const rows = await db
    .select({ remoteProductId: publications.remoteProductId })
    .from(publications)
    .where(and(eq(publications.integrationId, store.id), eq(publications.workspaceId, store.workspaceId)));
  return new Set(rows.map((r) => r.remoteProductId).filter((id): id is string => Boolean(id)));
}

/** The names of these stores (what the Orders screen shows each order's store as). */
export function storeNames(
  db: Db,
  ids: string[],
): Promise<{ id: string; name: string | null; shop: string; platform: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({
      id: integrations.id,
      name: integrations.storeName,
      shop: integrations.externalId,
      platform: integrations.platform,
    })
    .from(integrations)
    .where(inArray(integrations.id, ids));
}

/** The workspace's stores of these ids, in the order asked (another workspace's or an unknown id: 404). */
export async function findStoreConnections(db: Db, workspaceId: string, ids: string[]): Promise<IntegrationRow[]> {
  if (ids.some((id) => !UUID.test(id))) throw notFound('Integration');
  const rows = ids.length
    ? await db
        .select()
        .from(integrations)
        .where(
          and(eq(integrations.workspaceId, workspaceId), eq(integrations.kind, 'store'), inArray(integrations.id, ids)),
        )
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw notFound('Integration');
    return row;
  });
}

/** The workspace's stores of a platform (or the one of that id), oldest connection first. */
export function storesOfWorkspace(
  db: Db,
  workspaceId: string,
  platform: string,
  only?: { id?: string | null; sandbox?: boolean; statuses?: IntegrationRow['status'][] },
): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.workspaceId, workspaceId),
        eq(integrations.kind, 'store'),
        eq(integrations.platform, platform),
        only?.id ? eq(integrations.id, only.id) : undefined,
        only?.sandbox === undefined ? undefined : eq(integrations.sandbox, only.sandbox),
        only?.statuses ? inArray(integrations.status, only.statuses) : undefined,
      ),
    )
    .orderBy(asc(integrations.createdAt), asc(integrations.id));
}

/** What a disconnected OAuth store (Etsy, Amazon) clears: its tokens. The row stays: its products' copies name it. */
export const FORGET_OAUTH_TOKENS = {
  status: 'disconnected',
  accessTokenEnc: null,
  refreshTokenEnc: null,
  tokenExpiresAt: null,
  verifiedAt: null,
} as const;

/** Disconnects a store (found in its workspace): `forget` is set on its row. Answers the route's reply. */
export async function disconnectStore(
  db: Db,
  row: IntegrationRow,
  forget: Partial<typeof integrations.$inferInsert>,
): Promise<{ success: true; integrationId: string }> {
  await db
    .update(integrations)
    .set(forget)
    .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, row.workspaceId)));
  return { success: true as const, integrationId: row.id };
}

/**
 * Saves a store connection (OAuth callback, keys checked): a new row for this workspace's store, or the one it had
 * (unique per workspace, platform and the store's id) updated with `values`. Answers the row.
 */
export async function saveStoreConnection(
  db: Db,
  store: { workspaceId: string; platform: string; externalId: string },
  values: Omit<typeof integrations.$inferInsert, 'workspaceId' | 'kind' | 'platform' | 'externalId'>,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .insert(integrations)
    .values({ ...store, kind: 'store', ...values })
    .onConflictDoUpdate({
      target: [integrations.workspaceId, integrations.platform, integrations.externalId],
      set: values,
    })
    .returning();
  return row;
}
