import type { TFulfilmentNetwork } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';

/** A printer network a workspace connects one account of (its own, or the built-in sandbox). */
export type PrinterPlatform = TFulfilmentNetwork;
export type PrinterConnectionRow = typeof integrations.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const ofWorkspace = (workspaceId: string, platform: PrinterPlatform) =>
  and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, platform));

/** The workspace's connection to this printer (only a connected one with `connectedOnly`), or null. */
export async function printerConnection(
  db: Db,
  workspaceId: string,
  platform: PrinterPlatform,
  options: { connectedOnly?: boolean } = {},
): Promise<PrinterConnectionRow | null> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        ofWorkspace(workspaceId, platform),
        eq(integrations.kind, 'fulfillment'),
        options.connectedOnly ? eq(integrations.status, 'connected') : undefined,
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Replaces the workspace's connection to this printer (one per workspace: reconnecting replaces the old one) in one
 * transaction, with what `also` writes beside it; answers the new row's id.
 */
export async function replacePrinterConnection(
  db: Db,
  workspaceId: string,
  platform: PrinterPlatform,
  values: Omit<typeof integrations.$inferInsert, 'workspaceId' | 'kind' | 'platform'>,
  also?: (tx: Tx, id: string) => Promise<void>,
): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.delete(integrations).where(ofWorkspace(workspaceId, platform));
    const [row] = await tx
      .insert(integrations)
      .values({ ...values, workspaceId, kind: 'fulfillment', platform })
      .returning({ id: integrations.id });
    const id = (row as { id: string }).id;
    await also?.(tx, id);
    return id;
  });
}

export async function deletePrinterConnection(db: Db, workspaceId: string, platform: PrinterPlatform): Promise<void> {
  await db.delete(integrations).where(ofWorkspace(workspaceId, platform));
}

/** Changes a connection row of this workspace (the shop chosen, tokens refreshed, marked broken). */
export async function updatePrinterConnection(
  db: Db,
  row: Pick<PrinterConnectionRow, 'id' | 'workspaceId'>,
  set: Partial<typeof integrations.$inferInsert>,
): Promise<void> {
  await db
    .update(integrations)
    .set(set)
    .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, row.workspaceId)));
}
