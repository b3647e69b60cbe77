import type { TTrend } from '@podforge/contract';

/** '+12% from last month' / '+5 from last week', or null when there is nothing to compare with. */
export function formatTrend(
  trend: TTrend | null | undefined,
  unit: 'percent' | 'count',
  period: string,
): string | null {
  if (!trend) return null;
  if (unit === 'percent') {
    if (trend.percent === null) return null;
    const sign = trend.percent > 0 ? '+' : '';
    return `${sign}${trend.percent}% from ${period}`;
  }
  const sign = trend.delta > 0 ? '+' : '';
  return `${sign}${trend.delta} from ${period}`;
}

export function formatMoney(money: { amount: string; currency: string }): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(Number(money.amount));
}

/** Bytes as the seller reads them: '0 MB', '12.3 MB', '1.5 GB' (1 MB = 1024 x 1024 bytes, as the quota is set). */
export function formatBytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  if (mb >= 1024) return `${(mb / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB`;
  return `${mb.toLocaleString('en-US', { maximumFractionDigits: mb > 0 && mb < 0.1 ? 2 : 1 })} MB`;
}
