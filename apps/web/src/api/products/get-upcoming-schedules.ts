import type { TSchedule } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { scheduleRefreshInterval } from '@/lib/schedules';

/** `GET /api/schedules`: the workspace's uploads still to run (pending or running), soonest first. */
export const upcomingSchedulesQueryOptions = () =>
  queryOptions({
    queryKey: ['schedules', 'upcoming'],
    queryFn: ({ signal }) => api.get<TSchedule[]>('/api/schedules', signal),
    refetchInterval: (query) => scheduleRefreshInterval(query.state.data),
  });

/** A product's next scheduled upload, or null. */
export const useNextSchedule = (productId: string) =>
  useQuery({
    ...upcomingSchedulesQueryOptions(),
    select: (schedules) => schedules.find((s) => s.productId === productId) ?? null,
  });
