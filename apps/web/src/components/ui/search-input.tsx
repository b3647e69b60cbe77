import { Search } from 'lucide-react';
import type * as React from 'react';
import { cn } from '@/lib/utils';

type Props = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'type'> & { label: string };

/** A list's search box: a magnifier, a 40 px field and an accessible name from `label` (visually hidden). */
export function SearchInput({ label, className, ...props }: Props) {
  return (
    <label className={cn('relative flex-1', className)}>
      <span className="sr-only">{label}</span>
      <Search className="absolute left-3 top-3 h-4 w-4 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        className="h-10 w-full rounded-md border border-slate-300 bg-white px-3 pl-9 text-sm focus:outline-none focus:ring-2 focus:ring-brand-500"
        {...props}
      />
    </label>
  );
}
