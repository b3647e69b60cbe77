import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/db';
import { printFiles, products } from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/** The print files' SQL: one stored file per product and placement, kept under its fingerprint. */

export type PrintFileRow = typeof printFiles.$inferSelect;

export async function findPrintFile(
  db: DbOrTx,
  productId: string,
  placement: string,
): Promise<PrintFileRow | undefined> {
  const [row] = await db
    .select()
    .from(printFiles)
    .where(and(eq(printFiles.productId, productId), eq(printFiles.placement, placement)));
  return row;
}

/** Records the placement's file (a redraw replaces the row of the same product and placement). */
export async function upsertPrintFile(
  db: DbOrTx,
  values: Omit<typeof printFiles.$inferInsert, 'id' | 'createdAt'>,
  now: Date,
): Promise<void> {
  const { fingerprint, storageKey, width, height, dpi } = values;
  await db
    .insert(printFiles)
    .values(values)
    .onConflictDoUpdate({
      target: [printFiles.productId, printFiles.placement],
      set: { fingerprint, storageKey, width, height, dpi, createdAt: now },
    });
}

export async function printFileKeysOf(db: DbOrTx, workspaceId: string, productId: string): Promise<string[]> {
  const rows = await db
    .select({ storageKey: printFiles.storageKey })
    .from(printFiles)
    .where(and(eq(printFiles.productId, productId), eq(printFiles.workspaceId, workspaceId)));
  return rows.map((r) => r.storageKey);
}

/**
 * The product a signed print-file URL names (a printer fetching it carries no session, the signature is the
 * authority, so no workspace scopes it); unknown is "Product not found".
 */
export async function findSignedProduct(db: DbOrTx, id: string): Promise<typeof products.$inferSelect> {
  return findInWorkspace('Product', id, async () => {
    const [row] = await db.select().from(products).where(eq(products.id, id));
    return row;
  });
}
