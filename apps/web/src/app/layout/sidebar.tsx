import { Lightbulb } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';
import { TABS, type TabId, tabPath } from '../tabs';

export function Sidebar({ active }: { active: TabId | null }) {
  return (
    <aside className="flex w-full flex-col gap-4 md:w-64 md:shrink-0">
      {/* p-1: room for the focus outline, which the scrolling row would otherwise clip. */}
      <nav aria-label="Main" className="flex flex-row gap-1 overflow-x-auto p-1 md:flex-col">
        {TABS.map(({ id, label, icon: Icon }) => (
          <Link
            key={id}
            to={tabPath(id)}
            data-tab={id}
            aria-current={active === id ? 'page' : undefined}
            className={cn(
              'flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
              // The active tab's own colour is the brand's: its focus outline is offset and darker, so it shows.
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700',
              active === id ? 'bg-brand-600 text-white shadow-sm' : 'text-slate-700 hover:bg-slate-100',
            )}
          >
            <Icon className="h-4 w-4" aria-hidden="true" />
            {label}
          </Link>
        ))}
      </nav>
      <div className="hidden rounded-xl border border-brand-100 bg-brand-50 p-4 md:block">
        <p className="flex items-center gap-2 text-sm font-semibold text-brand-700">
          <Lightbulb className="h-4 w-4" aria-hidden="true" /> Pro Tip
        </p>
        <p className="mt-1 text-sm text-slate-600">
          Use trending keywords in your titles to boost discoverability on Shopify, Etsy and Amazon.
        </p>
      </div>
    </aside>
  );
}
