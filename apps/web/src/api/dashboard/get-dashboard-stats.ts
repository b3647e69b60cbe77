import type { TDashboardStats } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const dashboardStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard', 'stats'],
    queryFn: ({ signal }) => api.get<TDashboardStats>('/api/dashboard/stats', signal),
  });

export const useDashboardStats = () => useQuery(dashboardStatsQueryOptions());
