import type { TSchedule } from '@podforge/contract';

/** Today on the seller's own calendar, as the date input's `min` (spec: the date minimum is today). */
export function todayInputValue(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * How often a list of schedules is read again while one of them is still to happen (the general rule is no
 * interval refetch; the issue asks the list to follow a pending or running upload to its end): every 3 s while one
 * runs or is due within 2 minutes, every 30 s while one waits longer, never once all have finished.
 */
export function scheduleRefreshInterval(schedules: readonly TSchedule[] | undefined, now: Date = new Date()) {
  const open = (schedules ?? []).filter((s) => s.status === 'pending' || s.status === 'running');
  if (open.length === 0) return false;
  const soon = open.some((s) => s.status === 'running' || new Date(s.runAt).getTime() - now.getTime() < 120_000);
  return soon ? 3_000 : 30_000;
}
