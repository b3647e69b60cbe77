import type { TSchedule } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productSchedulesQueryOptions } from './get-product-schedules';
import { upcomingSchedulesQueryOptions } from './get-upcoming-schedules';

export type ScheduleUploadInput = {
  productId: string;
  platform: string;
  integrationId: string;
  scheduledDate: string;
  scheduledTime: string;
};

/** `POST /api/schedule-upload` (spec section 7), with the browser's time zone so the server knows the instant. */
export const scheduleUpload = (input: ScheduleUploadInput) =>
  api.post<TSchedule>('/api/schedule-upload', {
    ...input,
    status: 'pending',
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  });

export function useScheduleUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: scheduleUpload,
    onSuccess: (_schedule, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: productSchedulesQueryOptions(input.productId).queryKey }),
        queryClient.invalidateQueries({ queryKey: upcomingSchedulesQueryOptions().queryKey }),
      ]),
  });
}
