import type { TAiGeneration } from '@podforge/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAiGenerations } from '../api/get-ai-generations';

const KIND_LABELS: Record<TAiGeneration['kind'], string> = {
  content: 'Listing',
  analysis: 'Image analysis',
  design: 'Designs',
  title: 'Title',
  description: 'Description',
  tags: 'Tags',
};

/** 'Recent Generations': the workspace's latest AI calls, from the server's ai_generations rows. */
export function RecentGenerations() {
  const generations = useAiGenerations();
  const rows = generations.data?.generations ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Recent Generations</CardTitle>
      </CardHeader>
      <CardContent>
        {generations.isPending ? (
          <div className="space-y-2">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : rows.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No recent generations yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {rows.map((g) => (
              <li key={g.id} className="flex items-start gap-3 py-2 text-sm" data-testid="recent-generation">
                <span className="mt-0.5 rounded bg-brand-50 px-1.5 py-0.5 text-xs font-medium text-brand-700">
                  {KIND_LABELS[g.kind]}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate" title={g.summary}>
                    {g.summary}
                  </span>
                  <span className="text-xs text-slate-500">
                    {new Date(g.createdAt).toLocaleString()} · {g.credits} credit{g.credits === 1 ? '' : 's'} ·{' '}
                    {g.provider}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
