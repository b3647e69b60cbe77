import type { TDashboardStats, TRecentUpload } from '@podforge/contract';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatBytes, formatMoney } from './format';

function Row({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="flex items-center justify-between py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

/** The workspace's stored files against its quota: uploads that would pass it are refused. */
function StorageUse({ storage }: { storage: TDashboardStats['storage'] }) {
  const text = `${formatBytes(storage.usedBytes)} of ${formatBytes(storage.quotaBytes)}`;
  return (
    <div className="border-t border-slate-100 pt-3" data-testid="storage-use">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="text-slate-500">Storage</span>
        <span className="font-semibold">{text}</span>
      </div>
      <meter
        className="mt-2 block h-2 w-full"
        aria-label="Storage used"
        aria-valuetext={text}
        min={0}
        max={storage.quotaBytes}
        high={storage.quotaBytes * 0.9}
        value={Math.min(storage.usedBytes, storage.quotaBytes)}
      />
    </div>
  );
}

/**
 * Sales figures come only from orders that connected stores report; until then the panel says so. While the figures
 * load it shows placeholders, never a zero or 'no store data' that may not be true.
 */
export function PerformanceSnapshot({
  stats,
  isLoading,
  recent,
}: {
  stats: TDashboardStats | undefined;
  isLoading: boolean;
  recent: TRecentUpload[];
}) {
  const store = stats?.store ?? null;
  // A failed call shows the spec's zeros (as the stat cards do); only a call still under way shows placeholders.
  const figure = (value: number | undefined) => (isLoading ? '…' : (value ?? 0));
  return (
    <Card aria-label="Performance snapshot" aria-busy={isLoading} className="min-w-0 self-start">
      <CardHeader>
        <CardTitle>Performance Snapshot</CardTitle>
        <CardDescription>{stats?.month ?? 'This month'}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {isLoading ? (
          <p className="text-sm text-slate-500" role="status">
            Loading figures…
          </p>
        ) : store ? (
          <dl>
            <Row label="Sales" value={formatMoney(store.sales)} />
            <Row label="Profit" value={store.profit ? formatMoney(store.profit) : '— (costs in another currency)'} />
            <Row label="Conversion" value={store.conversionRate === null ? 'No data' : `${store.conversionRate}%`} />
            <Row label="Avg Order Value" value={formatMoney(store.aov)} />
          </dl>
        ) : (
          <div className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600" data-testid="no-store-data">
            <p className="font-medium text-slate-700">No store data yet</p>
            <p className="mt-0.5">
              Sales, profit, conversion and average order value appear once a connected store reports orders.
            </p>
          </div>
        )}
        <dl className="border-t border-slate-100 pt-3">
          <Row label="Total Products" value={figure(stats?.totalProducts)} />
          <Row label="Pending Uploads" value={figure(stats?.pendingUploads)} />
          <Row label="This Week" value={figure(stats?.thisWeek)} />
        </dl>
        {stats?.storage && !isLoading && <StorageUse storage={stats.storage} />}
        {recent.length > 0 && (
          <div className="border-t border-slate-100 pt-3">
            <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Recent Uploads</p>
            <ul className="space-y-2">
              {recent.slice(0, 3).map((upload) => (
                <li key={upload.id} className="flex items-center justify-between gap-2 text-sm">
                  <span className="min-w-0 truncate">{upload.title}</span>
                  <StatusBadge status={upload.status} />
                </li>
              ))}
            </ul>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
