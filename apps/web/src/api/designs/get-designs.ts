import type { TDesign } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/designs`, newest first. Designs are shared by the upload, mockup and create-product features. */
export const designsQueryOptions = () =>
  queryOptions({
    queryKey: ['designs', 'list'],
    queryFn: ({ signal }) => api.get<TDesign[]>('/api/designs', signal),
  });

export const useDesigns = () => useQuery(designsQueryOptions());
