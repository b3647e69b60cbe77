import type { TRecentUpload } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const RECENT_UPLOADS_SHOWN = 3;

export const recentUploadsQueryOptions = () =>
  queryOptions({
    queryKey: ['dashboard', 'recent-uploads', { limit: RECENT_UPLOADS_SHOWN }],
    queryFn: ({ signal }) =>
      api.get<TRecentUpload[]>(`/api/dashboard/recent-uploads?limit=${RECENT_UPLOADS_SHOWN}`, signal),
  });

export const useRecentUploads = () => useQuery(recentUploadsQueryOptions());
