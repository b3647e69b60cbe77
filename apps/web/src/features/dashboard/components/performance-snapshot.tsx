import type { TDashboardStats, TRecentUpload } from '@podforge/contract';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { StatusBadge } from '@/components/ui/status-badge';
import { formatMoney } from './format';

function Row({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="flex items-center justify-between py-1.5 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-semibold">{value}</dd>
    </div>
  );
}

/** Sales figures come only from orders that connected stores report; until then the panel says so. */
export function PerformanceSnapshot({
  stats,
  recent,
}: {
  stats: TDashboardStats | undefined;
  recent: TRecentUpload[];
}) {
  const store = stats?.store ?? null;
  return (
    <Card aria-label="Performance snapshot" className="self-start">
      <CardHeader>
        <CardTitle>Performance Snapshot</CardTitle>
        <CardDescription>{stats?.month ?? 'This month'}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {store ? (
          <dl>
            <Row label="Sales" value={formatMoney(store.sales)} />
            <Row label="Profit" value={formatMoney(store.profit)} />
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
          <Row label="Total Products" value={stats?.totalProducts ?? 0} />
          <Row label="Pending Uploads" value={stats?.pendingUploads ?? 0} />
          <Row label="This Week" value={stats?.thisWeek ?? 0} />
        </dl>
        {recent.length > 0 && (
          <div className="border-t border-slate-100 pt-3">
            <p className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Recent Uploads</p>
            <ul className="space-y-2">
              {recent.slice(0, 3).map((upload) => (
                <li key={upload.id} className="flex items-center justify-between gap-2 text-sm">
                  <span className="truncate">{upload.title}</span>
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
