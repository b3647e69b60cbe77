import type { TRecentUpload } from '@podforge/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { StatusBadge } from '@/components/ui/status-badge';

type Props = {
  uploads: TRecentUpload[] | undefined;
  isLoading: boolean;
  onViewAll: () => void;
};

export function RecentUploads({ uploads, isLoading, onViewAll }: Props) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Recent Uploads</CardTitle>
        <button type="button" onClick={onViewAll} className="text-sm font-medium text-brand-600 hover:underline">
          View All
        </button>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <ul className="space-y-3" aria-busy="true">
            {[0, 1, 2].map((i) => (
              <li key={i}>
                <Skeleton className="h-14 w-full" />
              </li>
            ))}
          </ul>
        ) : !uploads?.length ? (
          <div className="py-8 text-center">
            <p className="font-medium text-slate-700">No recent uploads found.</p>
            <p className="mt-1 text-sm text-slate-500">Start by uploading your first design!</p>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {uploads.map((upload) => (
              <li key={upload.id}>
                <button
                  type="button"
                  onClick={onViewAll}
                  data-testid="recent-upload-row"
                  className="flex w-full items-center gap-3 rounded-lg px-2 py-3 text-left hover:bg-slate-50"
                >
                  {upload.thumbnailUrl ? (
                    <img
                      src={upload.thumbnailUrl}
                      alt=""
                      className="h-10 w-10 shrink-0 rounded-md bg-slate-100 object-cover"
                    />
                  ) : (
                    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md bg-slate-100 text-xs font-semibold text-slate-500">
                      IMG
                    </span>
                  )}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium">{upload.title}</span>
                    <span className="block text-xs text-slate-500">
                      {new Date(upload.createdAt).toLocaleDateString()}
                    </span>
                  </span>
                  <StatusBadge status={upload.status} />
                </button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
