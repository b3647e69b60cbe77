import type { TDashboardStats } from '@podforge/contract';
import { Clock, Package, Sparkles, TrendingUp } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatTrend } from './format';

type Props = { stats: TDashboardStats | undefined; isLoading: boolean };

function StatCard({
  title,
  value,
  note,
  icon: Icon,
}: {
  title: string;
  value: string | number;
  note: string;
  icon: typeof Package;
}) {
  return (
    <Card className="p-5" data-testid="stat-card">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-slate-500">{title}</p>
        <Icon className="h-4 w-4 text-slate-400" aria-hidden="true" />
      </div>
      <p className="mt-2 text-3xl font-bold">{value}</p>
      <p className="mt-1 text-xs text-slate-500">{note}</p>
    </Card>
  );
}

/** A failed stats call shows zeros (spec section 7); trends appear only when there is a previous period to compare. */
export function StatCards({ stats, isLoading }: Props) {
  if (isLoading) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-busy="true">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-[118px] rounded-xl" />
        ))}
      </div>
    );
  }
  const credits = stats?.aiCredits;
  return (
    <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <StatCard
        title="Total Products"
        value={stats?.totalProducts ?? 0}
        note={formatTrend(stats?.totalProductsTrend, 'percent', 'last month') ?? 'In your workspace'}
        icon={Package}
      />
      <StatCard title="Pending Uploads" value={stats?.pendingUploads ?? 0} note="Ready to publish" icon={Clock} />
      <StatCard
        title="This Week"
        value={stats?.weeklyUploads ?? 0}
        note={formatTrend(stats?.weeklyUploadsTrend, 'count', 'last week') ?? 'Store uploads in the last 7 days'}
        icon={TrendingUp}
      />
      <StatCard
        title="AI Credits"
        value={credits?.remaining ?? 0}
        note={credits ? `of ${credits.allowance} · Resets monthly` : 'Resets monthly'}
        icon={Sparkles}
      />
    </div>
  );
}
