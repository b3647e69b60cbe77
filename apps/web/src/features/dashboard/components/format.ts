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
