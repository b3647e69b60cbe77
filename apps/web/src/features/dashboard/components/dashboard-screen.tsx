import { useDashboardStats } from '@/api/dashboard/get-dashboard-stats';
import { useRecentUploads } from '../api/get-recent-uploads';
import { AiShortcuts } from './ai-shortcuts';
import { PerformanceSnapshot } from './performance-snapshot';
import { QuickActions, type QuickActionTarget } from './quick-actions';
import { RecentUploads } from './recent-uploads';
import { StatCards } from './stat-cards';

/** The dashboard tab and the overview at `/`: stat cards, quick actions, recent uploads, snapshot and AI shortcuts. */
export function DashboardScreen({ onNavigate }: { onNavigate: (target: QuickActionTarget) => void }) {
  const stats = useDashboardStats();
  const recent = useRecentUploads();
  // A failed call shows zeros or the empty-list text, never an error (spec section 7).
  const recentUploads = recent.isError ? [] : recent.data;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Dashboard</h1>
        <p className="text-slate-500">Your print-on-demand business at a glance.</p>
      </div>
      <StatCards stats={stats.isError ? undefined : stats.data} isLoading={stats.isLoading} />
      {/* grid-cols-1 and min-w-0: a grid's implicit column (and its items) grow to a long title's unwrapped width, which
          made the page 804 px wide at 390 (truncate needs a box that may shrink). */}
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-3">
        <div className="min-w-0 space-y-6 xl:col-span-2">
          <QuickActions onSelect={onNavigate} />
          <RecentUploads
            uploads={recentUploads}
            isLoading={recent.isLoading}
            onViewAll={() => onNavigate('my-products')}
          />
          <AiShortcuts />
        </div>
        <PerformanceSnapshot
          stats={stats.isError ? undefined : stats.data}
          isLoading={stats.isLoading}
          recent={recentUploads ?? []}
        />
      </div>
    </div>
  );
}
