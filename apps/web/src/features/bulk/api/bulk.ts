import type { TBulkJob, TCatalogProductPage, TStartBulk } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** How often a running bulk job is asked where it is. */
export const BULK_POLL_MS = 1000;

/** `GET /api/printful/products`: the blanks a bulk run can print on (the first 100 of the catalogue). */
export const useBlanks = () =>
  useQuery({
    queryKey: ['catalog', 'products', 'bulk-blanks'],
    queryFn: ({ signal }) => api.get<TCatalogProductPage>('/api/printful/products?pageSize=100', signal),
  });

export const bulkJobQueryOptions = (jobId: string) =>
  queryOptions({
    queryKey: ['bulk', jobId],
    queryFn: ({ signal }) => api.get<TBulkJob>(`/api/bulk/${encodeURIComponent(jobId)}`, signal),
    // Asked again while the job runs, and not once it is done or failed.
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'running' ? false : BULK_POLL_MS),
    staleTime: 0,
  });

/** `GET /api/bulk/:jobId`, polled while it runs. */
export const useBulkJob = (jobId: string | null) =>
  useQuery({ ...bulkJobQueryOptions(jobId ?? ''), enabled: Boolean(jobId) });

/** `POST /api/bulk`. */
export function useStartBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TStartBulk) => api.post<TBulkJob>('/api/bulk', body),
    onSuccess: (job) => queryClient.setQueryData(bulkJobQueryOptions(job.jobId).queryKey, job),
  });
}

/** `POST /api/bulk/:jobId/retry`: the failed products made and the failed pushes pushed again. */
export function useRetryBulk() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (jobId: string) => api.post<TBulkJob>(`/api/bulk/${encodeURIComponent(jobId)}/retry`),
    onSuccess: (job) => queryClient.setQueryData(bulkJobQueryOptions(job.jobId).queryKey, job),
  });
}
