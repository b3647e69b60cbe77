import type { TOrderStatus } from '@podforge/contract';

/** Money as the store sold it: '$74.00', 'EUR 12.50' for currencies the browser names otherwise. */
export function formatMoney(amount: string, currency: string): string {
  const value = Number(amount);
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    return `${currency} ${value.toFixed(2)}`;
  }
}

export const STATUS_STYLES: Record<TOrderStatus, string> = {
  received: 'bg-slate-100 text-slate-700',
  waiting_approval: 'bg-amber-100 text-amber-800',
  sent: 'bg-sky-100 text-sky-800',
  in_production: 'bg-indigo-100 text-indigo-800',
  on_hold: 'bg-orange-100 text-orange-800',
  shipped: 'bg-blue-100 text-blue-800',
  delivered: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  cancelled: 'bg-slate-200 text-slate-600',
  external: 'bg-slate-100 text-slate-500',
};
