import { and, asc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { productVariants, publications } from '../../db/schema';

/**
 * Amazon's own SQL: the listing families a notification names, and each family's state as Amazon holds it (kept on
 * its publication). Its connections are `store-connections.repository.ts` rows like any store's.
 */

/** The store's published listing families holding a SKU: listed under it, or a product with a variant of that SKU. */
export async function publishedFamiliesOfSku(
  db: Db,
  store: { id: string; workspaceId: string },
  sku: string,
): Promise<{ id: string }[]> {
  return db
    .select({ id: publications.id })
    .from(publications)
    .where(
      and(
        eq(publications.workspaceId, store.workspaceId),
        eq(publications.integrationId, store.id),
        eq(publications.status, 'published'),
        or(
          eq(publications.remoteProductId, sku),
          inArray(
            publications.productId,
            db
              .select({ id: productVariants.productId })
              .from(productVariants)
              .where(and(eq(productVariants.workspaceId, store.workspaceId), eq(productVariants.sku, sku))),
          ),
        ),
      ),
    );
}

/**
 * Stores a family's listing state on its publication, only when it changed (a read that finds nothing new writes
 * nothing and moves no open screen).
 */
export async function saveListingState(
  db: Db,
  pub: { id: string; workspaceId: string },
  state: NonNullable<(typeof publications.$inferInsert)['listingState']>,
  issues: string[],
): Promise<void> {
  await db
    .update(publications)
    .set({ listingState: state, listingIssues: issues })
    .where(
      and(
        eq(publications.id, pub.id),
        eq(publications.workspaceId, pub.workspaceId),
        or(
          sql`${publications.listingState} IS DISTINCT FROM ${state}`,
          sql`${publications.listingIssues} IS DISTINCT FROM ${sql.param(issues, publications.listingIssues)}`,
        ),
      ),
    );
}

/** A batch of the store's published families by publication id after `after` (or just the one named). */
export async function publishedFamilies(
  db: Db,
  store: { id: string; workspaceId: string },
  options: { after: string | null; limit: number; publicationId?: string | undefined },
): Promise<{ id: string; remoteProductId: string | null }[]> {
  return db
    .select({ id: publications.id, remoteProductId: publications.remoteProductId })
    .from(publications)
    .where(
      and(
        eq(publications.workspaceId, store.workspaceId),
        eq(publications.integrationId, store.id),
        eq(publications.status, 'published'),
        options.after ? gt(publications.id, options.after) : undefined,
        options.publicationId ? eq(publications.id, options.publicationId) : undefined,
      ),
    )
    .orderBy(asc(publications.id))
    .limit(options.limit);
}
