import type { TDesign } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/designs/:id`: one design, e.g. the one handed over by 'Process Design'. */
export const designQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['designs', 'detail', id],
    queryFn: ({ signal }) => api.get<TDesign>(`/api/designs/${encodeURIComponent(id)}`, signal),
  });

export const useDesign = (id: string | null) => useQuery({ ...designQueryOptions(id ?? ''), enabled: Boolean(id) });
