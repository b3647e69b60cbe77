import type { TDashboardStats, TRecentUpload, TStoreFee, TTrend } from '@podforge/contract';
import { saleEconomics } from '@podforge/contract/plain';
import { and, count, desc, eq, gte, inArray, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, products, publications, workspaces } from '../../db/schema';
import { storageUsedQuery } from '../../storage/usage';
import { aiCreditsFrom, aiCreditsUsedQuery, startOfMonthUtc } from '../ai/ai-credits';
import { productCountQuery } from '../products/products.repository';
import { productThumbnailUrl } from '../products/products.service';
import { getSettings } from '../settings/settings.routes';

const DAY_MS = 24 * 3600 * 1000;

export function trend(current: number, previous: number, hasPreviousData: boolean): TTrend | null {
  if (!hasPreviousData) return null;
  return {
    delta: current - previous,
    percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10,
  };
}

const toNumber = (value: unknown) => Number(value ?? 0);
const money = (value: number, currency: string) => ({ amount: value.toFixed(2), currency });

/** The newest products with their thumbnails, in one statement (the main mockup's id read beside each row). */
export async function listRecentUploads(db: Db, workspaceId: string, limit: number): Promise<TRecentUpload[]> {
  const rows = await db
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
  return rows.map(({ designId, mainMockupId, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    thumbnailUrl: productThumbnailUrl(mainMockupId, designId),
  }));
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

type SaleJson = { revenue: string; cost: string | null; costCurrency: string | null; platform: string | null };

type SalesRow = {
  currency: string;
  orders: number;
  total: string | number | null;
  sales: SaleJson[] | null;
};

function storeSales(top: SalesRow | null, fees: Record<string, TStoreFee>) {
  if (!top) return null;
  const total = toNumber(top.total);
  let profitCents = 0;
  let comparable = true;
  for (const sale of top.sales ?? []) {
    // An order without the printer's charge yet adds sales, no profit.
    if (sale.cost === null) continue;
    const fee = fees[sale.platform ?? ''] ?? { percent: 0, fixed: 0 };
    const { profit } = saleEconomics(
      {
        revenue: Number(sale.revenue),
        cost: Number(sale.cost),
        currency: top.currency,
        costCurrency: sale.costCurrency,
      },
      fee,
    );
    if (profit === null) comparable = false;
    else profitCents += Math.round(profit * 100);
  }
  return {
    orders: Number(top.orders),
    sales: money(total, top.currency),
    profit: comparable ? money(profitCents / 100, top.currency) : null,
    conversionRate: null,
    aov: money(top.orders ? total / Number(top.orders) : 0, top.currency),
  };
}

/**
 * Every figure comes from the workspace's rows (see shared/design.md 'Dashboard figures'), read in one statement
 * (each figure a subquery, on the workspace's one row) beside the recent uploads: two round trips at once instead of
 * ten. Products at the month's start are today's products less those made since, which reads this month's index
 * entries rather than every older product's.
 */
export async function getDashboardStats(
  db: Db,
  workspaceId: string,
  options: { now: Date; aiMonthlyCredits: number; storageQuotaBytes: number },
): Promise<TDashboardStats> {
  const { now, aiMonthlyCredits, storageQuotaBytes } = options;
  const monthStart = startOfMonthUtc(now);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const twoWeeksAgo = new Date(now.getTime() - 14 * DAY_MS);
  const madeSinceMonthStart = db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.workspaceId, workspaceId), gte(products.createdAt, monthStart)));
  const figuresQuery = db
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
  const [[figures], recent, settings] = await Promise.all([
    figuresQuery,
    listRecentUploads(db, workspaceId, 3),
    getSettings(db, workspaceId),
  ]);
  const totalProducts = toNumber(figures?.totalProducts);
  const productsAtMonthStart = totalProducts - toNumber(figures?.madeSinceMonthStart);
  const thisWeek = toNumber(figures?.thisWeek);
  const lastWeek = toNumber(figures?.lastWeek);
  const pushesBefore = toNumber(figures?.pushesBefore);

  return {
    month: now.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    totalProducts,
    totalProductsTrend: trend(totalProducts, productsAtMonthStart, productsAtMonthStart > 0),
    pendingUploads: toNumber(figures?.pendingUploads),
    weeklyUploads: thisWeek,
    thisWeek,
    weeklyUploadsTrend: trend(thisWeek, lastWeek, pushesBefore > 0),
    aiCredits: aiCreditsFrom(toNumber(figures?.creditsUsed), { now, allowance: aiMonthlyCredits }),
    store: storeSales(figures?.store ?? null, settings.storeFees as Record<string, TStoreFee>),
    storage: { usedBytes: toNumber(figures?.storageUsed), quotaBytes: storageQuotaBytes },
    recentUploads: recent,
  };
}
