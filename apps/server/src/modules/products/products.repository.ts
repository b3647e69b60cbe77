import { and, asc, count, desc, eq, getTableColumns, gt, inArray, ne, type SQL, sql, sum } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/db';
import {
  integrations,
  mockups,
  productCounts,
  productMockups,
  products,
  productVariants,
  publications,
} from '../../db/schema';
import { findInWorkspace } from '../../lib/find-in-workspace';

/**
 * The product aggregate's SQL: the product, its variants, its mockup links and its publications. Every query is
 * scoped by workspace; a row of another workspace is "not found".
 */

export type { DbOrTx, Tx };
export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type MockupRow = typeof mockups.$inferSelect;
export type MockupLinkRow = typeof productMockups.$inferSelect & { mockup: MockupRow };
/** A publication with its store's platform (for 'Live on <platform>'). */
export type PublicationRow = typeof publications.$inferSelect & { platform: string; storeName: string | null };

export type NewVariant = Omit<typeof productVariants.$inferInsert, 'workspaceId' | 'productId' | 'position'>;
export type NewMockupLink = { mockupId: string; color: string | null; main: boolean };

/** The product of the workspace, or 404 (lib/find-in-workspace.ts). */
export async function findProduct(db: DbOrTx, workspaceId: string, id: string): Promise<ProductRow> {
  return findInWorkspace('Product', id, async () => {
    const [row] = await db
      .select()
      .from(products)
      .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
    return row;
  });
}

export async function findMockups(db: DbOrTx, workspaceId: string, ids: string[]): Promise<MockupRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(mockups)
    .where(and(inArray(mockups.id, ids), eq(mockups.workspaceId, workspaceId)));
}

export async function variantsOf(db: DbOrTx, productIds: string[]): Promise<Map<string, VariantRow[]>> {
  const byProduct = new Map<string, VariantRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position));
  for (const row of rows) byProduct.get(row.productId)?.push(row);
  return byProduct;
}

/** Each product's mockup links with their mockups, the main one first, then in position order. */
export async function mockupLinksOf(db: DbOrTx, productIds: string[]): Promise<Map<string, MockupLinkRow[]>> {
  const byProduct = new Map<string, MockupLinkRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({ link: productMockups, mockup: mockups })
    .from(productMockups)
    .innerJoin(mockups, eq(mockups.id, productMockups.mockupId))
    .where(inArray(productMockups.productId, productIds))
    .orderBy(asc(productMockups.productId), desc(productMockups.main), asc(productMockups.position));
  for (const row of rows) byProduct.get(row.link.productId)?.push({ ...row.link, mockup: row.mockup });
  return byProduct;
}

export async function publicationsOf(db: DbOrTx, productIds: string[]): Promise<Map<string, PublicationRow[]>> {
  const byProduct = new Map<string, PublicationRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select({ publication: publications, platform: integrations.platform, storeName: integrations.storeName })
    .from(publications)
    .innerJoin(integrations, eq(integrations.id, publications.integrationId))
    .where(inArray(publications.productId, productIds))
    .orderBy(asc(publications.publishedAt));
  for (const row of rows)
    byProduct
      .get(row.publication.productId)
      ?.push({ ...row.publication, platform: row.platform, storeName: row.storeName });
  return byProduct;
}

/** Replaces a product's variants; positions follow the given order. */
export async function replaceVariants(
  tx: Tx,
  workspaceId: string,
  productId: string,
  variants: NewVariant[],
): Promise<void> {
  await tx.delete(productVariants).where(eq(productVariants.productId, productId));
  if (variants.length === 0) return;
  await tx.insert(productVariants).values(variants.map((v, position) => ({ ...v, workspaceId, productId, position })));
}

/** Replaces a product's mockup links; exactly one is main when there are any. */
export async function replaceMockupLinks(
  tx: Tx,
  workspaceId: string,
  productId: string,
  links: NewMockupLink[],
): Promise<void> {
  await tx.delete(productMockups).where(eq(productMockups.productId, productId));
  if (links.length === 0) return;
  await tx.insert(productMockups).values(links.map((l, position) => ({ ...l, workspaceId, productId, position })));
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export type ListFilter = { search?: string | undefined; status?: string | undefined; type?: string | undefined };

/**
 * How many products a workspace has, of some statuses and a type: a sum over `product_counts` (kept by triggers),
 * which stays a few rows however many products there are.
 */
export function productCountQuery(
  db: Db,
  workspaceId: string,
  filter: { status?: string | string[] | undefined; type?: string | undefined },
) {
  const statuses = filter.status === undefined || filter.status === 'all' ? [] : [filter.status].flat();
  return db
    .select({ n: sum(productCounts.n).mapWith(Number) })
    .from(productCounts)
    .where(
      and(
        eq(productCounts.workspaceId, workspaceId),
        statuses.length ? inArray(productCounts.status, statuses) : undefined,
        filter.type && filter.type !== 'all' ? eq(productCounts.productType, filter.type) : undefined,
      ),
    );
}

export async function countProducts(
  db: Db,
  workspaceId: string,
  filter: { status?: string | string[] | undefined; type?: string | undefined } = {},
): Promise<number> {
  const [row] = await productCountQuery(db, workspaceId, filter);
  return row?.n ?? 0;
}

/** What a list shows of a product's variants, mockup links and publications (the fields `toProduct` reads). */
export type ListedVariant = Pick<
  VariantRow,
  'id' | 'catalogVariantId' | 'option' | 'color' | 'colorHex' | 'size' | 'baseCost' | 'price' | 'sku'
>;
export type ListedLink = Pick<MockupLinkRow, 'mockupId' | 'color' | 'main'>;
export type ListedPublication = Pick<
  PublicationRow,
  | 'integrationId'
  | 'storeName'
  | 'error'
  | 'status'
  | 'publishedAt'
  | 'remoteUrl'
  | 'platform'
  | 'remoteState'
  | 'remoteChanges'
  | 'remoteCheckedAt'
  | 'listingState'
  | 'listingIssues'
  | 'progress'
  | 'errorDetails'
>;
export type ListedProduct = {
  row: Omit<ProductRow, 'searchText'>;
  variants: ListedVariant[];
  links: ListedLink[];
  pubs: ListedPublication[];
};

// Each product's variants, mockup links (main first) and publications (by push time) as JSON arrays, read in the
// page's own statement: one round trip for a page, whatever its size. Drizzle writes a one-table select's columns
// without their table, which inside these subqueries would name the subquery's own `id`: hence the qualified name.
const productId = sql.raw('"products"."id"');
const variantsJson = sql<ListedVariant[]>`(SELECT coalesce(json_agg(json_build_object(
    'id', v.id, 'catalogVariantId', v.catalog_variant_id, 'option', v.option, 'color', v.color,
    'colorHex', v.color_hex, 'size', v.size, 'baseCost', v.base_cost::text, 'price', v.price::text, 'sku', v.sku
  ) ORDER BY v.position), '[]'::json) FROM product_variants v WHERE v.product_id = ${productId})`;
const linksJson = sql<ListedLink[]>`(SELECT coalesce(json_agg(json_build_object(
    'mockupId', pm.mockup_id, 'color', pm.color, 'main', pm.main
  ) ORDER BY pm.main DESC, pm.position), '[]'::json) FROM product_mockups pm WHERE pm.product_id = ${productId})`;
const publicationsJson = sql<
  (Omit<ListedPublication, 'publishedAt' | 'remoteCheckedAt'> & {
    publishedAt: string | null;
    remoteCheckedAt: string | null;
  })[]
>`(SELECT coalesce(json_agg(json_build_object(
    'integrationId', pb.integration_id, 'storeName', i.store_name, 'error', pb.error,
    'status', pb.status, 'publishedAt', pb.published_at, 'remoteUrl', pb.remote_url, 'platform', i.platform,
    'remoteState', pb.remote_state, 'remoteChanges', pb.remote_changes, 'remoteCheckedAt', pb.remote_checked_at,
    'listingState', pb.listing_state, 'listingIssues', pb.listing_issues, 'progress', pb.progress,
    'errorDetails', pb.error_details
  ) ORDER BY pb.published_at), '[]'::json)
  FROM publications pb JOIN integrations i ON i.id = pb.integration_id WHERE pb.product_id = ${productId})`;

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

/**
 * One page of a list with its total, in one statement: the page's ids from the filter's index (in list order, so
 * page N skips its offset over index entries only), then those rows with their variants, mockup links and
 * publications as JSON, and the total (a sum over `product_counts`, or a count of the search's matches) computed
 * once for the statement. A page past the end has no row to carry the total: it is counted on its own.
 */
export async function listProductPage(
  db: Db,
  workspaceId: string,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<{ items: ListedProduct[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(products.workspaceId, workspaceId)];
  // `search_text` is title, description and tags one per line in lower case, trigram-indexed per workspace (see
  // the schema); LIKE on a lower-cased pattern matches what ILIKE would, at a third of its cost per row.
  if (filter.search) conditions.push(sql`${products.searchText} LIKE lower(${likePattern(filter.search)})`);
  if (filter.status && filter.status !== 'all') {
    conditions.push(eq(products.status, filter.status as ProductRow['status']));
  }
  if (filter.type && filter.type !== 'all') conditions.push(eq(products.productType, filter.type));
  const where = and(...conditions);
  const newestFirst = [desc(products.createdAt), desc(products.id)];
  const pageIds = db
    .select({ id: products.id })
    .from(products)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(page.offset);
  const totalQuery = filter.search
    ? db.select({ n: count() }).from(products).where(where)
    : productCountQuery(db, workspaceId, filter);
  const { searchText: _searchText, ...columns } = getTableColumns(products);
  const rows = await db
    .select({
      product: columns,
      variants: variantsJson,
      links: linksJson,
      pubs: publicationsJson,
      total: sql<string>`(${totalQuery})`,
    })
    .from(products)
    .where(inArray(products.id, pageIds))
    .orderBy(...newestFirst);
  const total = rows[0] ? Number(rows[0].total ?? 0) : await totalQuery.then(([row]) => Number(row?.n ?? 0));
  return {
    total,
    items: rows.map((r) => ({
      row: r.product,
      variants: r.variants,
      links: r.links,
      pubs: r.pubs.map((p) => ({
        ...p,
        publishedAt: dateOrNull(p.publishedAt),
        remoteCheckedAt: dateOrNull(p.remoteCheckedAt),
      })),
    })),
  };
}

/**
 * Moves the product from the status it is expected to have to another (a conditional update, so two instances never
 * both move it). False when it no longer had that status.
 */
export async function moveStatus(
  db: DbOrTx,
  row: Pick<ProductRow, 'id' | 'workspaceId'>,
  from: ProductRow['status'],
  to: ProductRow['status'],
  now: Date,
): Promise<boolean> {
  const [moved] = await db
    .update(products)
    .set({ status: to, updatedAt: now })
    .where(and(eq(products.id, row.id), eq(products.workspaceId, row.workspaceId), eq(products.status, from)))
    .returning({ id: products.id });
  return Boolean(moved);
}

/** Whether the product is published in any store. */
export async function isPublishedSomewhere(db: DbOrTx, row: Pick<ProductRow, 'id' | 'workspaceId'>): Promise<boolean> {
  const [published] = await db
    .select({ id: publications.id })
    .from(publications)
    .where(
      and(
        eq(publications.productId, row.id),
        eq(publications.workspaceId, row.workspaceId),
        inArray(publications.status, ['published']),
      ),
    )
    .limit(1);
  return Boolean(published);
}

export type NewProduct = typeof products.$inferInsert;

export async function insertProductRow(db: DbOrTx, values: NewProduct): Promise<ProductRow> {
  const [inserted] = await db.insert(products).values(values).returning();
  if (!inserted) throw new Error('product insert returned no row');
  return inserted;
}

export async function updateProductRow(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  set: Partial<Omit<NewProduct, 'id' | 'workspaceId'>>,
): Promise<void> {
  await db
    .update(products)
    .set(set)
    .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
}

export async function productExists(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
  return rows.length > 0;
}

/** Deletes the product; its variants, links, print file rows, publications and schedules go with it (cascade). */
export async function deleteProductRow(db: DbOrTx, workspaceId: string, id: string): Promise<void> {
  await db.delete(products).where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
}

/** Whether any of the product's publications moved since `since` (a push of it is still at work). */
export async function publicationMovedSince(
  db: DbOrTx,
  row: Pick<ProductRow, 'id' | 'workspaceId'>,
  since: Date,
): Promise<boolean> {
  const [recent] = await db
    .select({ id: publications.id })
    .from(publications)
    .where(
      and(
        eq(publications.productId, row.id),
        eq(publications.workspaceId, row.workspaceId),
        gt(publications.updatedAt, since),
      ),
    )
    .limit(1);
  return Boolean(recent);
}

// Publications: one product in one store, written by its store push.

export type PublicationKey = { workspaceId: string; productId: string; integrationId: string };
type PublicationSet = Partial<
  Omit<typeof publications.$inferInsert, 'id' | 'workspaceId' | 'productId' | 'integrationId'>
>;

const publicationWhere = ({ workspaceId, productId, integrationId }: PublicationKey) =>
  and(
    eq(publications.workspaceId, workspaceId),
    eq(publications.productId, productId),
    eq(publications.integrationId, integrationId),
  );

export async function findPublication(
  db: DbOrTx,
  key: PublicationKey,
): Promise<typeof publications.$inferSelect | null> {
  const [row] = await db.select().from(publications).where(publicationWhere(key));
  return row ?? null;
}

/** Marks the product's publication in the store queued (a new row, or the existing one with its error cleared). */
export async function queuePublication(db: DbOrTx, key: PublicationKey, queued: PublicationSet): Promise<void> {
  await db
    .insert(publications)
    .values({ ...key, ...queued })
    .onConflictDoUpdate({
      target: [publications.productId, publications.integrationId],
      set: { ...queued, error: null, errorStatus: null, errorCode: null, errorDetails: null },
    });
}

/** Changes the publication if it is still the given job's (its progress, the listing id it recorded). */
export async function updatePublicationOfJob(
  db: DbOrTx,
  id: string,
  jobId: string,
  set: PublicationSet,
): Promise<void> {
  await db
    .update(publications)
    .set(set)
    .where(and(eq(publications.id, id), eq(publications.jobId, jobId)));
}

/** Locks the product's row for the rest of the transaction (pushes of one product settling at once take turns). */
export async function lockProduct(tx: Tx, workspaceId: string, productId: string): Promise<void> {
  await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.id, productId), eq(products.workspaceId, workspaceId)))
    .for('update');
}

/**
 * Writes a push's end on its publication (`set`, or the row deleted when the listing was removed) if the row is
 * still that job's and processing. False when it was not (another job took it over).
 */
export async function settlePublication(
  db: DbOrTx,
  key: PublicationKey,
  jobId: string,
  change: PublicationSet | 'delete',
): Promise<boolean> {
  const where = and(publicationWhere(key), eq(publications.jobId, jobId), eq(publications.status, 'processing'));
  const moved =
    change === 'delete'
      ? await db.delete(publications).where(where).returning({ id: publications.id })
      : await db.update(publications).set(change).where(where).returning({ id: publications.id });
  return moved.length > 0;
}

/** The statuses of the product's other publications that are processing or published. */
export async function otherActivePublications(db: DbOrTx, key: PublicationKey): Promise<{ status: string }[]> {
  return db
    .select({ status: publications.status })
    .from(publications)
    .where(
      and(
        eq(publications.productId, key.productId),
        eq(publications.workspaceId, key.workspaceId),
        ne(publications.integrationId, key.integrationId),
        inArray(publications.status, ['processing', 'published']),
      ),
    );
}

// Drift: what a store says of a published listing.

export type PublicationOnly = typeof publications.$inferSelect;

/** The product a publication is of (in the publication's workspace), if it is still there. */
export async function productOfPublication(
  db: DbOrTx,
  pub: Pick<PublicationOnly, 'productId' | 'workspaceId'>,
): Promise<ProductRow | undefined> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, pub.productId), eq(products.workspaceId, pub.workspaceId)));
  return row;
}

/** A published listing gone from the store (deleted or archived there); false when it was not published any more. */
export async function markPublicationRemoved(
  db: DbOrTx,
  id: string,
  remoteState: NonNullable<PublicationOnly['remoteState']>,
  now: Date,
): Promise<boolean> {
  const [moved] = await db
    .update(publications)
    .set({ status: 'removed', remoteState, remoteCheckedAt: now, updatedAt: now })
    .where(and(eq(publications.id, id), eq(publications.status, 'published')))
    .returning({ id: publications.id });
  return Boolean(moved);
}

/** What the store changed of a published listing (none: it matches what was pushed). */
export async function recordRemoteChanges(
  db: DbOrTx,
  id: string,
  remoteChanges: NonNullable<PublicationOnly['remoteChanges']>,
  now: Date,
): Promise<void> {
  await db
    .update(publications)
    .set({ remoteChanges, remoteCheckedAt: now })
    .where(and(eq(publications.id, id), eq(publications.status, 'published')));
}

/** Published listings of these stores with this remote product id. */
export async function publishedWithRemoteId(
  db: DbOrTx,
  storeIds: string[],
  remoteProductId: string,
): Promise<PublicationOnly[]> {
  if (storeIds.length === 0) return [];
  return db
    .select()
    .from(publications)
    .where(
      and(
        inArray(publications.integrationId, storeIds),
        eq(publications.remoteProductId, remoteProductId),
        eq(publications.status, 'published'),
      ),
    );
}

/** The published listings of one store. */
export async function publishedInStore(db: DbOrTx, storeId: string): Promise<PublicationOnly[]> {
  return db
    .select()
    .from(publications)
    .where(and(eq(publications.integrationId, storeId), eq(publications.status, 'published')));
}
