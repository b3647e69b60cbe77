import { cn } from '@/lib/utils';

/** Spec section 4: ready green, processing yellow, live blue; any other value grey with the raw text. */
const styles: Record<string, { label: string; className: string }> = {
  ready: { label: 'Ready', className: 'bg-emerald-100 text-emerald-800' },
  processing: { label: 'Processing', className: 'bg-yellow-100 text-yellow-800' },
  live: { label: 'Live', className: 'bg-blue-100 text-blue-800' },
};

export function StatusBadge({ status }: { status: string }) {
  const style = styles[status] ?? { label: status, className: 'bg-slate-100 text-slate-700' };
  return (
    <span className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium', style.className)}>
      {style.label}
    </span>
  );
}
