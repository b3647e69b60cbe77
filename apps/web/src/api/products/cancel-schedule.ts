import type { TSchedule } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productSchedulesQueryOptions } from './get-product-schedules';
import { upcomingSchedulesQueryOptions } from './get-upcoming-schedules';

/** `DELETE /api/schedule-upload/:id`: only a pending upload can be cancelled. */
export const cancelSchedule = (schedule: TSchedule) =>
  api.delete<TSchedule>(`/api/schedule-upload/${encodeURIComponent(schedule.id)}`);

export function useCancelSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelSchedule,
    // Also on failure: a schedule that already ran shows its real status.
    onSettled: (_cancelled, _error, schedule) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: productSchedulesQueryOptions(schedule.productId).queryKey }),
        queryClient.invalidateQueries({ queryKey: upcomingSchedulesQueryOptions().queryKey }),
      ]),
  });
}
