import { and, asc, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  fulfillmentWebhooks,
  gelatoCatalogIds,
  gelatoSandboxOrders,
  gelatoSandboxWebhooks,
  storeSettings,
} from '../../db/schema';
import {
  deletePrinterConnection,
  printerConnection,
  replacePrinterConnection,
} from '../printers/printer-connections.repository';

/** The workspace's Gelato connection row (live key or sandbox), or null. */
export function gelatoRow(db: Db, workspaceId: string) {
  return printerConnection(db, workspaceId, 'gelato');
}

/** Replaces the workspace's Gelato connection: the row (the key sealed) and its sealed contact email, together. */
export async function replaceGelatoConnection(
  db: Db,
  workspaceId: string,
  connection: { sandbox: boolean; apiKeyEnc: string | null; emailEnc: string; at: Date },
): Promise<void> {
  await replacePrinterConnection(
    db,
    workspaceId,
    'gelato',
    {
      externalId: connection.sandbox ? 'sandbox' : 'account',
      storeName: connection.sandbox ? 'Gelato sandbox' : 'Gelato',
      accessTokenEnc: connection.apiKeyEnc,
      status: 'connected',
      sandbox: connection.sandbox,
      verifiedAt: connection.at,
    },
    async (tx, integrationId) => {
      await tx.insert(storeSettings).values({ integrationId, workspaceId, data: { emailEnc: connection.emailEnc } });
    },
  );
}

export function deleteGelatoConnection(db: Db, workspaceId: string): Promise<void> {
  return deletePrinterConnection(db, workspaceId, 'gelato');
}

/** The sealed contact email kept with a Gelato connection, or null. */
export async function sealedEmailOf(db: Db, integrationId: string): Promise<string | null> {
  const [s] = await db
    .select({ data: storeSettings.data })
    .from(storeSettings)
    .where(eq(storeSettings.integrationId, integrationId));
  return (s?.data as { emailEnc?: string } | undefined)?.emailEnc ?? null;
}

/** The id of the workspace's Gelato webhook row (its URL is entered in Gelato's dashboard), or null. */
export async function gelatoWebhookId(db: Db, workspaceId: string): Promise<string | null> {
  const [hook] = await db
    .select({ id: fulfillmentWebhooks.id })
    .from(fulfillmentWebhooks)
    .where(and(eq(fulfillmentWebhooks.workspaceId, workspaceId), eq(fulfillmentWebhooks.provider, 'gelato')));
  return hook?.id ?? null;
}

/** Our integer ids for Gelato uids, made on first sight. */
export async function catalogIdsOf(db: Db, uids: string[]): Promise<Map<string, number>> {
  await db
    .insert(gelatoCatalogIds)
    .values(uids.map((uid) => ({ uid })))
    .onConflictDoNothing();
  const rows = await db.select().from(gelatoCatalogIds).where(inArray(gelatoCatalogIds.uid, uids));
  return new Map(rows.map((r) => [r.uid, r.id]));
}

export async function catalogUidsOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  const rows = await db.select().from(gelatoCatalogIds).where(inArray(gelatoCatalogIds.id, ids));
  return new Map(rows.map((r) => [r.id, r.uid]));
}

// The built-in Gelato sandbox: its orders (the body sealed by the sandbox) and each account's webhook URL

export type SandboxOrderRow = typeof gelatoSandboxOrders.$inferSelect;
export type NewSandboxOrder = typeof gelatoSandboxOrders.$inferInsert;

/** Inserts these orders together. */
export async function insertSandboxOrders(db: Db, rows: NewSandboxOrder[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const row of rows) await tx.insert(gelatoSandboxOrders).values(row);
  });
}

export async function sandboxOrder(db: Db, account: string, id: string): Promise<SandboxOrderRow | undefined> {
  const [row] = await db
    .select()
    .from(gelatoSandboxOrders)
    .where(and(eq(gelatoSandboxOrders.account, account), eq(gelatoSandboxOrders.id, id)));
  return row;
}

/** The account's orders, oldest first (only those of these order references, when given). */
export async function sandboxOrdersOf(db: Db, account: string, references?: string[]): Promise<SandboxOrderRow[]> {
  return db
    .select()
    .from(gelatoSandboxOrders)
    .where(
      and(
        eq(gelatoSandboxOrders.account, account),
        references ? inArray(gelatoSandboxOrders.orderReferenceId, references) : undefined,
      ),
    )
    .orderBy(asc(gelatoSandboxOrders.createdAt));
}

export async function saveSandboxOrder(
  db: Db,
  id: string,
  set: { body: Record<string, unknown>; nextAt: Date | null },
): Promise<void> {
  await db.update(gelatoSandboxOrders).set(set).where(eq(gelatoSandboxOrders.id, id));
}

export async function removeSandboxOrder(db: Db, id: string): Promise<void> {
  await db.delete(gelatoSandboxOrders).where(eq(gelatoSandboxOrders.id, id));
}

/** The orders due to move on, taken in one statement: two instances ticking at once never move one order twice. */
export async function claimDueSandboxOrders(db: Db, now: Date): Promise<SandboxOrderRow[]> {
  const due = db
    .select({ id: gelatoSandboxOrders.id })
    .from(gelatoSandboxOrders)
    .where(and(isNotNull(gelatoSandboxOrders.nextAt), lte(gelatoSandboxOrders.nextAt, now)))
    .for('update', { skipLocked: true });
  return db.update(gelatoSandboxOrders).set({ nextAt: null }).where(inArray(gelatoSandboxOrders.id, due)).returning();
}

export async function sandboxWebhookUrl(db: Db, account: string): Promise<string | null> {
  const [row] = await db.select().from(gelatoSandboxWebhooks).where(eq(gelatoSandboxWebhooks.account, account));
  return row?.url ?? null;
}

/** Sets the account's webhook URL, or forgets it (null). */
export async function setSandboxWebhookUrl(db: Db, account: string, url: string | null): Promise<void> {
  if (!url) {
    await db.delete(gelatoSandboxWebhooks).where(eq(gelatoSandboxWebhooks.account, account));
    return;
  }
  await db
    .insert(gelatoSandboxWebhooks)
    .values({ account, url })
    .onConflictDoUpdate({ target: gelatoSandboxWebhooks.account, set: { url } });
}
