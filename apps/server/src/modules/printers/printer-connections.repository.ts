import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { integrations } from '../../db/schema';

/**
 * Printer connections (`integrations` rows of kind 'fulfillment'): one per printer network and workspace. A
 * reconnect replaces the row; the printer's adapter keeps what else it needs beside it.
 */

export type PrinterConnectionRow = typeof integrations.$inferSelect;
export type PrinterConnectionValues = Omit<
  typeof integrations.$inferInsert,
  'id' | 'workspaceId' | 'kind' | 'platform' | 'createdAt'
>;

/** The workspace's connection to this printer (only a connected one with `connectedOnly`), or null. */
export async function printerConnection(
  db: Db,
  workspaceId: string,
  platform: string,
  options: { connectedOnly?: boolean } = {},
): Promise<PrinterConnectionRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.workspaceId, workspaceId),
        eq(integrations.platform, platform),
        eq(integrations.kind, 'fulfillment'),
        options.connectedOnly ? eq(integrations.status, 'connected') : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Replaces the workspace's connection to this printer with a new row, in one transaction. */
export async function replacePrinterConnection(
  db: Db,
  workspaceId: string,
  platform: string,
  values: PrinterConnectionValues,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .delete(integrations)
      .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, platform)));
    await tx.insert(integrations).values({ workspaceId, kind: 'fulfillment', platform, ...values });
  });
}

export async function deletePrinterConnection(db: Db, workspaceId: string, platform: string): Promise<void> {
  await db
    .delete(integrations)
    .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, platform)));
}

/** Changes the connection (its chosen shop, renewed tokens, an error), scoped by its workspace. */
export async function updatePrinterConnection(
  db: Db,
  row: Pick<PrinterConnectionRow, 'id' | 'workspaceId'>,
  set: Partial<PrinterConnectionValues>,
): Promise<void> {
  await db
    .update(integrations)
    .set(set)
    .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, row.workspaceId)));
}
