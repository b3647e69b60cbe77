import { and, count, desc, eq, gte, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/db';
import { orders, products, publications, workspaces } from '../../db/schema';
import { storageUsedQuery } from '../../storage/stored-files.repository';
import { aiCreditsUsedQuery } from '../ai/ai.repository';
import { productCountQuery } from '../products/products.repository';

/** The dashboard's read queries: every figure from the workspace's own rows. */

/** The newest products, each with its main mockup's id, in one statement. */
export async function recentProductRows(db: Db, workspaceId: string, limit: number) {
  return db
    .select({
      id: products.id,
      title: products.title,
      status: products.status,
      createdAt: products.createdAt,
      designId: products.designId,
      mainMockupId: sql<string | null>`(SELECT pm.mockup_id FROM product_mockups pm
        WHERE pm.product_id = ${sql.raw('"products"."id"')} ORDER BY pm.main DESC, pm.position LIMIT 1)`,
    })
    .from(products)
    .where(eq(products.workspaceId, workspaceId))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
}

/** Successful store pushes in [from, to): a push counts even if the listing was deleted in the store since. */
function pushesQuery(db: Db, workspaceId: string, from: Date | null, to: Date) {
  return db
    .select({ n: count() })
    .from(publications)
    .where(
      and(
        eq(publications.workspaceId, workspaceId),
        inArray(publications.status, ['published', 'removed']),
        from ? gte(publications.publishedAt, from) : undefined,
        lt(publications.publishedAt, to),
      ),
    );
}

/**
 * Sales, profit and order value this month from the store orders (modules/orders), in the workspace's most used
 * currency (figures per currency would need conversion): sales are what buyers paid; profit is the sum of each
 * order's profit by the one formula (`saleEconomics`: paid less the printer's charge less the store's fee), over the
 * orders whose charge is known. Cancelled orders count for nothing. When the printer charged one of those orders in
 * another currency (its billing currency) there is no profit to show: subtracting it would need an exchange rate.
 */
function storeSalesQuery(db: Db, workspaceId: string, monthStart: Date) {
  return db
    .select({
      currency: orders.currency,
      orders: sql<number>`count(*)`.as('orders'),
      total: sql<string | null>`sum(${orders.revenue})`.as('total'),
      // Each order's figures, for the one profit formula (in the contract, not here in SQL).
      sales: sql<SaleJson[]>`json_agg(json_build_object(
        'revenue', ${orders.revenue}::text, 'cost', ${orders.cost}::text, 'costCurrency', ${orders.costCurrency},
        'platform', (SELECT i.platform FROM integrations i WHERE i.id = ${orders.integrationId})
      ))`.as('sales'),
    })
    .from(orders)
    .where(
      and(
        eq(orders.workspaceId, workspaceId),
        gte(orders.orderedAt, monthStart),
        notInArray(orders.status, ['cancelled']),
      ),
    )
    .groupBy(orders.currency)
    .orderBy(desc(count()))
    .limit(1);
}

export type SaleJson = { revenue: string; cost: string | null; costCurrency: string | null; platform: string | null };

export type SalesRow = {
  currency: string;
  orders: number;
  total: string | number | null;
  sales: SaleJson[] | null;
};

/**
 * Every figure of the dashboard in one statement (each figure a subquery, on the workspace's one row). Products at
 * the month's start are today's products less those made since, which reads this month's index entries rather than
 * every older product's.
 */
export async function dashboardFigures(
  db: Db,
  workspaceId: string,
  { now, monthStart, weekAgo, twoWeeksAgo }: { now: Date; monthStart: Date; weekAgo: Date; twoWeeksAgo: Date },
) {
  const madeSinceMonthStart = db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.workspaceId, workspaceId), gte(products.createdAt, monthStart)));
  const [figures] = await db
    .select({
      totalProducts: sql<string | null>`(${productCountQuery(db, workspaceId, {})})`,
      madeSinceMonthStart: sql<string>`(${madeSinceMonthStart})`,
      pendingUploads: sql<string | null>`(${productCountQuery(db, workspaceId, { status: ['draft', 'ready'] })})`,
      thisWeek: sql<string>`(${pushesQuery(db, workspaceId, weekAgo, now)})`,
      lastWeek: sql<string>`(${pushesQuery(db, workspaceId, twoWeeksAgo, weekAgo)})`,
      pushesBefore: sql<string>`(${pushesQuery(db, workspaceId, null, weekAgo)})`,
      creditsUsed: sql<string | null>`(${aiCreditsUsedQuery(db, workspaceId, now)})`,
      storageUsed: sql<string | null>`(${storageUsedQuery(db, workspaceId)})`,
      store: sql<SalesRow | null>`(SELECT row_to_json(s) FROM (${storeSalesQuery(db, workspaceId, monthStart)}) s)`,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return figures;
}
