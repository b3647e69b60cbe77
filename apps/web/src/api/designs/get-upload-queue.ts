import type { TUploadQueueStatus } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** How often a waiting upload asks for its place. */
export const UPLOAD_QUEUE_POLL_MS = 1000;

/** `GET /api/designs/queue/:uploadId`: where an upload is in the server's decode queue. */
export function getUploadQueue(uploadId: string, signal?: AbortSignal): Promise<TUploadQueueStatus> {
  return api.get<TUploadQueueStatus>(`/api/designs/queue/${encodeURIComponent(uploadId)}`, signal);
}

export const uploadQueueQueryOptions = (uploadId: string) =>
  queryOptions({
    queryKey: ['designs', 'upload-queue', uploadId],
    queryFn: ({ signal }) => getUploadQueue(uploadId, signal),
    // The place changes while the upload waits: asked again every second, and only while the upload runs.
    refetchInterval: UPLOAD_QUEUE_POLL_MS,
    staleTime: 0,
    gcTime: 0,
  });

/** The upload's place while `active` (its request is in flight); nothing once it is done. */
export function useUploadQueue(uploadId: string, active: boolean) {
  return useQuery({ ...uploadQueueQueryOptions(uploadId), enabled: active });
}
