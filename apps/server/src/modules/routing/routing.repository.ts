import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products, productVariants, workspaceSettings } from '../../db/schema';

/** The workspace's routing rule as stored (`workspace_settings`); null when it never set one. */
export async function routingRow(db: Db, workspaceId: string) {
  const [row] = await db
    .select({ mode: workspaceSettings.printerRouting, provider: workspaceSettings.printerRoutingProvider })
    .from(workspaceSettings)
    .where(eq(workspaceSettings.workspaceId, workspaceId));
  return row ?? null;
}

export async function saveRouting(
  db: Db,
  workspaceId: string,
  values: Pick<typeof workspaceSettings.$inferInsert, 'printerRouting' | 'printerRoutingProvider' | 'updatedAt'>,
): Promise<void> {
  await db
    .insert(workspaceSettings)
    .values({ workspaceId, ...values })
    .onConflictDoUpdate({ target: workspaceSettings.workspaceId, set: values });
}

/** The workspace's product with its variants in order; null when it has none by this id. */
export async function productWithVariants(db: Db, workspaceId: string, productId: string) {
  const [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.workspaceId, workspaceId)));
  if (!product) return null;
  const variants = await db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, product.id))
    .orderBy(asc(productVariants.position));
  return { product, variants };
}
