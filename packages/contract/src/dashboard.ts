import { z } from 'zod';
import { ZProductStatus } from './common';

/** A comparison with the previous period; absent when there is no previous data to compare with. */
export const ZTrend = z.object({
  /** Value in the current period minus the value in the previous one. */
  delta: z.number(),
  /** Percentage change, null when the previous value is 0. */
  percent: z.number().nullable(),
});
export type TTrend = z.infer<typeof ZTrend>;

export const ZMoney = z.object({ amount: z.string(), currency: z.string() });

/** Figures read from orders reported by connected stores. Null until any store reports an order. */
export const ZStoreSales = z.object({
  orders: z.number().int(),
  sales: ZMoney,
  /** Sales less the printer's charges; null when the printer charged some of them in another currency. */
  profit: ZMoney.nullable(),
  /** Orders per store visit in percent; null when the stores report no visits. */
  conversionRate: z.number().nullable(),
  aov: ZMoney,
});

export const ZRecentUpload = z.object({
  id: z.string(),
  title: z.string(),
  status: z.union([ZProductStatus, z.string()]),
  createdAt: z.string(),
  /** The product's small picture (mockup preview or design thumbnail), when it has one. */
  thumbnailUrl: z.string().nullable().optional(),
});
export type TRecentUpload = z.infer<typeof ZRecentUpload>;

export const ZDashboardStats = z.object({
  /** Calendar month the figures belong to, e.g. "November 2026". */
  month: z.string(),
  totalProducts: z.number().int(),
  /** Products created this month against last month. */
  totalProductsTrend: ZTrend.nullable(),
  pendingUploads: z.number().int(),
  /** Successful store pushes in the last 7 days. */
  weeklyUploads: z.number().int(),
  thisWeek: z.number().int(),
  /** weeklyUploads against the 7 days before. */
  weeklyUploadsTrend: ZTrend.nullable(),
  aiCredits: z.object({
    allowance: z.number().int(),
    used: z.number().int(),
    remaining: z.number().int(),
    resetsAt: z.string(),
  }),
  store: ZStoreSales.nullable(),
  /** What the workspace's stored files (designs, mockups, print files) take, against its quota (STORAGE_QUOTA_MB). */
  storage: z.object({ usedBytes: z.number().int(), quotaBytes: z.number().int() }),
  recentUploads: z.array(ZRecentUpload),
});
export type TDashboardStats = z.infer<typeof ZDashboardStats>;

export const ZRecentUploads = z.array(ZRecentUpload);
