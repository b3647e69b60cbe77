import type { TDashboardStats, TRecentUpload, TStoreFee, TTrend } from '@podforge/contract';
import { saleEconomics } from '@podforge/contract/plain';
import type { Db } from '../../db/db';
import { aiCreditsFrom, startOfMonthUtc } from '../ai/ai-credits';
import { productThumbnailUrl } from '../products/products.service';
import { getSettings } from '../settings/settings.routes';
import { dashboardFigures, recentProductRows, type SalesRow } from './dashboard.repository';

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
  const rows = await recentProductRows(db, workspaceId, limit);
  return rows.map(({ designId, mainMockupId, ...r }) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    thumbnailUrl: productThumbnailUrl(mainMockupId, designId),
  }));
}

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
  const [figures, recent, settings] = await Promise.all([
    dashboardFigures(db, workspaceId, { now, monthStart, weekAgo, twoWeeksAgo }),
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
