import type { TDesign } from '@podforge/contract';
import { UPLOAD_ID_HEADER } from '@podforge/contract/plain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { designsQueryOptions } from './get-designs';

/**
 * `POST /api/designs/upload`: one file in the multipart field `file`. `uploadId` (a random UUID) names the upload,
 * so its place in the server's decode queue can be read meanwhile (`useUploadQueue`).
 */
export function uploadDesign({ file, uploadId }: { file: File; uploadId?: string }): Promise<TDesign> {
  const body = new FormData();
  body.append('file', file);
  return apiRequest<TDesign>('/api/designs/upload', {
    method: 'POST',
    body,
    ...(uploadId ? { headers: { [UPLOAD_ID_HEADER]: uploadId } } : {}),
  });
}

/** Spec section 7: after a successful upload the dashboard stats are refreshed. */
export function useUploadDesign() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadDesign,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      await queryClient.invalidateQueries({ queryKey: designsQueryOptions().queryKey });
    },
  });
}
