import type { TDashboardStats } from '@podforge/contract';

export const startOfMonthUtc = (now: Date, offsetMonths = 0) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offsetMonths, 1));

/** The monthly allowance minus what was used (read with `aiCreditsUsedQuery`, ai.repository.ts); the AI routes enforce it. */
export function aiCreditsFrom(used: number, options: { now: Date; allowance: number }): TDashboardStats['aiCredits'] {
  return {
    allowance: options.allowance,
    used,
    remaining: Math.max(0, options.allowance - used),
    resetsAt: startOfMonthUtc(options.now, 1).toISOString(),
  };
}
