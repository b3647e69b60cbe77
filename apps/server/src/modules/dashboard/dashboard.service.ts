import type { TDashboardStats, TRecentUpload, TTrend } from '@podforge/contract';
import { and, count, desc, eq, gte, inArray, lt, sum } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { products, publications, storeOrders } from '../../db/schema';
import { aiCredits, startOfMonthUtc } from '../ai/ai-credits';
import { mockupLinksOf } from '../products/products.repository';
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

async function countProducts(db: Db, workspaceId: string, createdBefore?: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(products)
    .where(
      and(eq(products.workspaceId, workspaceId), createdBefore ? lt(products.createdAt, createdBefore) : undefined),
    );
  return row?.n ?? 0;
}

async function countPushes(db: Db, workspaceId: string, from: Date | null, to: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(publications)
    .where(
      and(
        eq(publications.workspaceId, workspaceId),
        eq(publications.status, 'published'),
        from ? gte(publications.publishedAt, from) : undefined,
        lt(publications.publishedAt, to),
      ),
    );
  return row?.n ?? 0;
}

async function storeSales(db: Db, workspaceId: string, monthStart: Date) {
  // Figures per currency would need conversion; the dashboard reports the workspace's most used currency.
  const rows = await db
    .select({
      currency: storeOrders.currency,
      orders: count(),
      total: sum(storeOrders.total),
      cost: sum(storeOrders.cost),
    })
    .from(storeOrders)
    .where(and(eq(storeOrders.workspaceId, workspaceId), gte(storeOrders.orderedAt, monthStart)))
    .groupBy(storeOrders.currency)
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

  const [totalProducts, productsAtMonthStart, pendingRow, thisWeek, lastWeek, pushesBefore, credits, store, recent] =
    await Promise.all([
      countProducts(db, workspaceId),
      countProducts(db, workspaceId, monthStart),
      db
        .select({ n: count() })
        .from(products)
        .where(and(eq(products.workspaceId, workspaceId), inArray(products.status, ['draft', 'ready']))),
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
    pendingUploads: pendingRow[0]?.n ?? 0,
    weeklyUploads: thisWeek,
    thisWeek,
    weeklyUploadsTrend: trend(thisWeek, lastWeek, pushesBefore > 0),
    aiCredits: credits,
    store,
    recentUploads: recent,
  };
}
