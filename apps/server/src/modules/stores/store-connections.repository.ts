import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations, publications, storeSettings } from '../../db/schema';
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

/**
 * What a disconnected OAuth store (one whose seller signs in at the platform) clears: its tokens and any refresh in
 * flight. The row stays: its products' copies and orders name it.
 */
export const FORGET_OAUTH_TOKENS = {
  status: 'disconnected',
  accessTokenEnc: null,
  refreshTokenEnc: null,
  tokenExpiresAt: null,
  refreshTokenExpiresAt: null,
  refreshLockedUntil: null,
  verifiedAt: null,
} as const satisfies StoreConnectionSet;

/** Disconnects a store (found in its workspace): `forget` is set on its row. Answers the route's reply. */
export async function disconnectStore(
  db: Db,
  row: IntegrationRow,
  forget: StoreConnectionSet,
): Promise<{ success: true; integrationId: string }> {
  await updateStoreInWorkspace(db, row, forget);
  return { success: true as const, integrationId: row.id };
}

// A connection's tokens and state, by the row's id (the adapters' token handling and connect steps)

export type StoreConnectionSet = Partial<Omit<typeof integrations.$inferInsert, 'id' | 'workspaceId'>>;

/** The row read again by id (another instance may have changed it); undefined when gone. */
export async function storeById(db: Db, id: string): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(integrations).where(eq(integrations.id, id));
  return row;
}

export async function updateStoreConnection(db: Db, id: string, set: StoreConnectionSet): Promise<void> {
  await db.update(integrations).set(set).where(eq(integrations.id, id));
}

/** The platform will not renew the token: a connected row goes to error (the seller must connect again). */
export async function markTokenRefused(db: Db, id: string): Promise<void> {
  await db
    .update(integrations)
    .set({ status: 'error', refreshLockedUntil: null })
    .where(and(eq(integrations.id, id), eq(integrations.status, 'connected')));
}

/**
 * Takes the lease to renew the row's token until `leaseUntil`: only while the row still holds the token read (no
 * other instance renewed it meanwhile) and no unexpired lease is held. Answers the claimed row, else undefined.
 */
export async function claimTokenRefresh(
  db: Db,
  row: Pick<IntegrationRow, 'id' | 'accessTokenEnc'>,
  leaseUntil: Date,
  now: Date,
): Promise<IntegrationRow | undefined> {
  const [claimed] = await db
    .update(integrations)
    .set({ refreshLockedUntil: leaseUntil })
    .where(
      and(
        eq(integrations.id, row.id),
        row.accessTokenEnc === null
          ? isNull(integrations.accessTokenEnc)
          : eq(integrations.accessTokenEnc, row.accessTokenEnc),
        or(isNull(integrations.refreshLockedUntil), lt(integrations.refreshLockedUntil, now)),
      ),
    )
    .returning();
  return claimed;
}

/**
 * Saves a connection of this workspace to this store (a reconnect updates the row of the same platform and store id,
 * so its publications and orders stay with it). Answers the row.
 */
export async function upsertStoreConnection(
  db: Db,
  key: { workspaceId: string; platform: string; externalId: string },
  values: StoreConnectionSet,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .insert(integrations)
    .values({ ...key, kind: 'store', ...values })
    .onConflictDoUpdate({
      target: [integrations.workspaceId, integrations.platform, integrations.externalId],
      set: values,
    })
    .returning();
  return row;
}

/** Changes the workspace's connection (scoped by its workspace, like every request's write). */
export async function updateStoreInWorkspace(
  db: Db,
  store: Pick<IntegrationRow, 'id' | 'workspaceId'>,
  set: StoreConnectionSet,
): Promise<void> {
  await db
    .update(integrations)
    .set(set)
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

/** Changes every connection of these ids (a store that forgot the app: each workspace's row of it). */
export async function updateStoresByIds(db: Db, ids: string[], set: StoreConnectionSet): Promise<void> {
  if (ids.length === 0) return;
  await db.update(integrations).set(set).where(inArray(integrations.id, ids));
}

/**
 * The store refused the token: a connected row goes to error, unless it was disconnected meanwhile or its token was
 * replaced (refreshed by another request: that one was not the token refused).
 */
export async function markTokenRejected(db: Db, store: IntegrationRow): Promise<void> {
  await db
    .update(integrations)
    .set({ status: 'error' })
    .where(
      and(
        eq(integrations.id, store.id),
        eq(integrations.workspaceId, store.workspaceId),
        eq(integrations.status, 'connected'),
        ...(store.accessTokenEnc ? [eq(integrations.accessTokenEnc, store.accessTokenEnc)] : []),
      ),
    );
}

/** The sandbox connections of one store id of a platform, the latest verified first. */
export function sandboxConnectionsOf(db: Db, platform: string, externalId: string): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(
      and(eq(integrations.platform, platform), eq(integrations.sandbox, true), eq(integrations.externalId, externalId)),
    )
    .orderBy(sql`${integrations.verifiedAt} desc nulls last`);
}

/**
 * Gives a sandbox connection without a webhook secret this one (once: whichever instance asks first wins) and
 * answers the secret the row holds afterwards (encrypted), or null when it has none.
 */
export async function ensureSandboxWebhookSecret(db: Db, id: string, secretEnc: string): Promise<string | null> {
  await db
    .update(integrations)
    .set({ webhookSecretEnc: secretEnc })
    .where(and(eq(integrations.id, id), eq(integrations.sandbox, true), isNull(integrations.webhookSecretEnc)));
  const [saved] = await db
    .select({ webhookSecretEnc: integrations.webhookSecretEnc })
    .from(integrations)
    .where(eq(integrations.id, id));
  return saved?.webhookSecretEnc ?? null;
}

/** Removes a connection that was never finished (nothing half-made is kept). */
export async function deleteStoreConnection(db: Db, store: Pick<IntegrationRow, 'id' | 'workspaceId'>): Promise<void> {
  await db
    .delete(integrations)
    .where(and(eq(integrations.id, store.id), eq(integrations.workspaceId, store.workspaceId)));
}

// A connection's settings (`store_settings`: one JSON value per connection, the platform's own shape)

export async function storeSettingsOf(db: Db, integrationId: string): Promise<unknown> {
  const [row] = await db
    .select({ data: storeSettings.data })
    .from(storeSettings)
    .where(eq(storeSettings.integrationId, integrationId));
  return row?.data;
}

/** Replaces the connection's settings. */
export async function saveStoreSettings(
  db: Db,
  store: Pick<IntegrationRow, 'id' | 'workspaceId'>,
  data: object,
  now: Date,
): Promise<void> {
  await db
    .insert(storeSettings)
    .values({ integrationId: store.id, workspaceId: store.workspaceId, data, updatedAt: now })
    .onConflictDoUpdate({ target: storeSettings.integrationId, set: { data, updatedAt: now } });
}

/** Merges these top-level keys into the connection's settings in one statement, keeping the others. */
export async function mergeStoreSettings(
  db: Db,
  store: Pick<IntegrationRow, 'id' | 'workspaceId'>,
  data: object,
  now: Date,
): Promise<void> {
  const patch = JSON.stringify(data);
  await db
    .insert(storeSettings)
    .values({ integrationId: store.id, workspaceId: store.workspaceId, data, updatedAt: now })
    .onConflictDoUpdate({
      target: storeSettings.integrationId,
      set: { data: sql`${storeSettings.data} || ${patch}::jsonb`, updatedAt: now },
    });
}

/** A connection of this platform by id alone (a webhook names our row) with its settings; undefined when none. */
export async function storeWithSettings(
  db: Db,
  platform: string,
  id: string,
): Promise<{ row: IntegrationRow; data: unknown } | undefined> {
  const [found] = await db
    .select({ row: integrations, settings: storeSettings })
    .from(integrations)
    .innerJoin(storeSettings, eq(storeSettings.integrationId, integrations.id))
    .where(and(eq(integrations.id, id), eq(integrations.platform, platform)));
  return found ? { row: found.row, data: found.settings.data } : undefined;
}

/** The listings this workspace pushed to its sandbox stores of a platform: each store's id and remote product id. */
export function sandboxListingsOf(
  db: Db,
  workspaceId: string,
  platform: string,
): Promise<{ storeUrl: string; remoteProductId: string | null }[]> {
  return db
    .select({ storeUrl: integrations.externalId, remoteProductId: publications.remoteProductId })
    .from(publications)
    .innerJoin(integrations, eq(integrations.id, publications.integrationId))
    .where(
      and(
        eq(publications.workspaceId, workspaceId),
        eq(integrations.platform, platform),
        eq(integrations.sandbox, true),
      ),
    );
}

/** The product's published listings in the workspace's stores of a platform, each with its store. */
export function publishedListingsOfProduct(
  db: Db,
  workspaceId: string,
  productId: string,
  platform: string,
): Promise<{ pub: typeof publications.$inferSelect; store: IntegrationRow }[]> {
  return db
    .select({ pub: publications, store: integrations })
    .from(publications)
    .innerJoin(integrations, eq(integrations.id, publications.integrationId))
    .where(
      and(
        eq(publications.workspaceId, workspaceId),
        eq(publications.productId, productId),
        eq(integrations.workspaceId, workspaceId),
        eq(integrations.platform, platform),
        eq(publications.status, 'published'),
      ),
    );
}

/** Every connected store of a platform with this store id, in any workspace (a notification names the seller). */
export function connectedStoresOfExternalId(db: Db, platform: string, externalId: string): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.platform, platform),
        eq(integrations.externalId, externalId),
        eq(integrations.status, 'connected'),
      ),
    );
}
