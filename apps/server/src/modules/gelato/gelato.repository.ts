import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fulfillmentWebhooks, gelatoCatalogIds, storeSettings } from '../../db/schema';
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
