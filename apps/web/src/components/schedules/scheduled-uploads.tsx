import type { TSchedule } from '@podforge/contract';
import { platformLabel } from '@podforge/contract/plain';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Loader2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useCancelSchedule } from '@/api/products/cancel-schedule';
import { useProductSchedules } from '@/api/products/get-product-schedules';
import { productListsKey } from '@/api/products/get-products';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { failureDescription } from '@/lib/failure-notice';
import { cn } from '@/lib/utils';

const STATUS_STYLES: Record<string, { label: string; className: string }> = {
  pending: { label: 'Pending', className: 'bg-amber-100 text-amber-800' },
  running: { label: 'Uploading', className: 'bg-blue-100 text-blue-800' },
  completed: { label: 'Completed', className: 'bg-emerald-100 text-emerald-800' },
  failed: { label: 'Failed', className: 'bg-red-100 text-red-800' },
};

/** When the push runs, on the seller's own clock (the schedule keeps the zone it was made in). */
function formatRunAt(schedule: TSchedule) {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(schedule.runAt),
  );
}

/** The product's scheduled uploads (spec section 4: pending on creation; Cancel, pending only, removes one). */
export function ScheduledUploads({ productId }: { productId: string }) {
  const schedules = useProductSchedules(productId);
  const cancel = useCancelSchedule();
  const queryClient = useQueryClient();
  const items = schedules.data ?? [];

  // A run that finished changed the product (live, or its status back): lists and the product are read again.
  const open = useRef(new Set<string>());
  useEffect(() => {
    const nowOpen = new Set(items.filter((s) => s.status === 'pending' || s.status === 'running').map((s) => s.id));
    const finished = [...open.current].some(
      (id) => !nowOpen.has(id) && items.some((s) => s.id === id && s.status !== 'cancelled'),
    );
    open.current = nowOpen;
    if (finished) {
      void queryClient.invalidateQueries({ queryKey: productListsKey });
      void queryClient.invalidateQueries({ queryKey: ['products', 'detail', productId], exact: true });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    }
  }, [items, productId, queryClient]);

  if (schedules.isPending || items.length === 0) return null;

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <CalendarClock className="h-4 w-4" aria-hidden /> Scheduled uploads
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-slate-100" aria-label="Scheduled uploads">
          {items.map((schedule) => {
            const style = STATUS_STYLES[schedule.status] ?? { label: schedule.status, className: 'bg-slate-100' };
            return (
              <li key={schedule.id} className="flex flex-wrap items-center gap-3 py-3 text-sm" data-testid="schedule">
                <span className="font-medium">{platformLabel(schedule.platform)}</span>
                <time dateTime={schedule.runAt} className="text-slate-600">
                  {formatRunAt(schedule)}
                </time>
                <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-medium', style.className)}>
                  {style.label}
                </span>
                {schedule.error && <span className="text-red-700">{schedule.error}</span>}
                {schedule.status === 'pending' && (
                  <Button
                    size="sm"
                    variant="outline"
                    className="ml-auto"
                    disabled={cancel.isPending}
                    onClick={() =>
                      cancel.mutate(schedule, {
                        onSuccess: () =>
                          toast({
                            title: 'Schedule Cancelled',
                            description: `The upload to ${platformLabel(schedule.platform)} will not run.`,
                          }),
                        onError: (error) =>
                          toast({
                            title: 'Cancellation Failed',
                            description: failureDescription('Failed to cancel schedule. Please try again.', error),
                            variant: 'destructive',
                          }),
                      })
                    }
                  >
                    {cancel.isPending && cancel.variables?.id === schedule.id && <Loader2 className="animate-spin" />}
                    Cancel
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
