import { and, asc, count, desc, eq, inArray, type SQL, sql, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  integrations,
  mockups,
  productCounts,
  productMockups,
  products,
  productVariants,
  publications,
} from '../../db/schema';
import { notFound } from '../../lib/errors';

/**
 * The product aggregate's SQL: the product, its variants, its mockup links and its publications. Every query is
 * scoped by workspace; a row of another workspace is "not found".
 */

export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type MockupRow = typeof mockups.$inferSelect;
export type MockupLinkRow = typeof productMockups.$inferSelect & { mockup: MockupRow };
/** A publication with its store's platform (for 'Live on Etsy'). */
export type PublicationRow = typeof publications.$inferSelect & { platform: string };

export type NewVariant = Omit<typeof productVariants.$inferInsert, 'workspaceId' | 'productId' | 'position'>;
export type NewMockupLink = { mockupId: string; color: string | null; main: boolean };

/** The one 'find in workspace or 404'. */
export async function findProduct(db: DbOrTx, workspaceId: string, id: string): Promise<ProductRow> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
  if (!row) throw notFound('Product');
  return row;
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
    .select({ publication: publications, platform: integrations.platform })
    .from(publications)
    .innerJoin(integrations, eq(integrations.id, publications.integrationId))
    .where(inArray(publications.productId, productIds))
    .orderBy(asc(publications.publishedAt));
  for (const row of rows)
    byProduct.get(row.publication.productId)?.push({ ...row.publication, platform: row.platform });
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
export async function countProducts(
  db: Db,
  workspaceId: string,
  filter: { status?: string | string[] | undefined; type?: string | undefined } = {},
): Promise<number> {
  const statuses = filter.status === undefined || filter.status === 'all' ? [] : [filter.status].flat();
  const [row] = await db
    .select({ n: sum(productCounts.n).mapWith(Number) })
    .from(productCounts)
    .where(
      and(
        eq(productCounts.workspaceId, workspaceId),
        statuses.length ? inArray(productCounts.status, statuses) : undefined,
        filter.type && filter.type !== 'all' ? eq(productCounts.productType, filter.type) : undefined,
      ),
    );
  return row?.n ?? 0;
}

export async function listProductRows(
  db: Db,
  workspaceId: string,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ProductRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(products.workspaceId, workspaceId)];
  // `search_text` is title, description and tags one per line, trigram-indexed per workspace (see the schema).
  if (filter.search) conditions.push(sql`${products.searchText} ILIKE ${likePattern(filter.search)}`);
  if (filter.status && filter.status !== 'all') {
    conditions.push(eq(products.status, filter.status as ProductRow['status']));
  }
  if (filter.type && filter.type !== 'all') conditions.push(eq(products.productType, filter.type));
  const where = and(...conditions);
  const newestFirst = [desc(products.createdAt), desc(products.id)];
  // Page N skips its offset over ids only (an index in list order per filter), then reads the page's rows.
  const pageIds = db
    .select({ id: products.id })
    .from(products)
    .where(where)
    .orderBy(...newestFirst)
    .limit(page.limit)
    .offset(page.offset);
  const [total, rows] = await Promise.all([
    filter.search
      ? db
          .select({ n: count() })
          .from(products)
          .where(where)
          .then(([row]) => row?.n ?? 0)
      : countProducts(db, workspaceId, filter),
    db
      .select()
      .from(products)
      .where(inArray(products.id, pageIds))
      .orderBy(...newestFirst),
  ]);
  return { rows, total };
}
