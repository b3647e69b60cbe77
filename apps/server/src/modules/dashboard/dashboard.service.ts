import type { TDashboardStats, TRecentUpload, TTrend } from '@podforge/contract';
import { and, count, desc, eq, gte, inArray, lt, notInArray, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orders, products, publications } from '../../db/schema';
import { aiCredits, startOfMonthUtc } from '../ai/ai-credits';
import { countProducts, mockupLinksOf } from '../products/products.repository';
import { productThumbnailUrl } from '../products/products.service';

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

export async function listRecentUploads(db: Db, workspaceId: string, limit: number): Promise<TRecentUpload[]> {
  const rows = await db
    .select({
      id: products.id,
      title: products.title,
      status: products.status,
      createdAt: products.createdAt,
      designId: products.designId,
    })
    .from(products)
    .where(eq(products.workspaceId, workspaceId))
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(limit);
  const links = await mockupLinksOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map(({ designId, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    thumbnailUrl: productThumbnailUrl(links.get(r.id)?.[0]?.mockupId ?? null, designId),
  }));
}

async function countProductsBefore(db: Db, workspaceId: string, createdBefore: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(and(eq(products.workspaceId, workspaceId), lt(products.createdAt, createdBefore)));
  return row?.n ?? 0;
}

async function countPushes(db: Db, workspaceId: string, from: Date | null, to: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(publications)
    .where(
      and(
        eq(publications.workspaceId, workspaceId),
        // A push that succeeded counts even if the listing was deleted in the store since.
        inArray(publications.status, ['published', 'removed']),
        from ? gte(publications.publishedAt, from) : undefined,
        lt(publications.publishedAt, to),
      ),
    );
  return row?.n ?? 0;
}

/**
 * Sales, profit and order value this month from the store orders (modules/orders): what buyers paid, less what the
 * printer charged where it is known. Cancelled orders count for nothing.
 */
async function storeSales(db: Db, workspaceId: string, monthStart: Date) {
  // Figures per currency would need conversion; the dashboard reports the workspace's most used currency.
  const rows = await db
    .select({
      currency: orders.currency,
      orders: count(),
      total: sum(orders.revenue),
      cost: sum(orders.cost),
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
    .orderBy(desc(count()));
  const top = rows[0];
  if (!top) return null;
  const total = toNumber(top.total);
  const cost = toNumber(top.cost);
  return {
    orders: top.orders,
    sales: money(total, top.currency),
    profit: money(total - cost, top.currency),
    conversionRate: null,
    aov: money(top.orders ? total / top.orders : 0, top.currency),
  };
}

/** Every figure comes from the workspace's rows (see shared/design.md 'Dashboard figures'). */
export async function getDashboardStats(
  db: Db,
  workspaceId: string,
  options: { now: Date; aiMonthlyCredits: number },
): Promise<TDashboardStats> {
  const { now, aiMonthlyCredits } = options;
  const monthStart = startOfMonthUtc(now);
  const weekAgo = new Date(now.getTime() - 7 * DAY_MS);
  const twoWeeksAgo = new Date(now.getTime() - 14 * DAY_MS);

  const [
    totalProducts,
    productsAtMonthStart,
    pendingUploads,
    thisWeek,
    lastWeek,
    pushesBefore,
    credits,
    store,
    recent,
  ] = await Promise.all([
    countProducts(db, workspaceId),
    countProductsBefore(db, workspaceId, monthStart),
    countProducts(db, workspaceId, { status: ['draft', 'ready'] }),
    countPushes(db, workspaceId, weekAgo, now),
    countPushes(db, workspaceId, twoWeeksAgo, weekAgo),
    countPushes(db, workspaceId, null, weekAgo),
    aiCredits(db, workspaceId, { now, allowance: aiMonthlyCredits }),
    storeSales(db, workspaceId, monthStart),
    listRecentUploads(db, workspaceId, 3),
  ]);

  return {
    month: now.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    totalProducts,
    totalProductsTrend: trend(totalProducts, productsAtMonthStart, productsAtMonthStart > 0),
    pendingUploads,
    weeklyUploads: thisWeek,
    thisWeek,
    weeklyUploadsTrend: trend(thisWeek, lastWeek, pushesBefore > 0),
    aiCredits: credits,
    store,
    recentUploads: recent,
  };
}
