import type { TUploadFilesResponse } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { designsQueryOptions } from '@/api/designs/get-designs';
import { api } from '@/lib/api-client';

/** `POST /api/upload/files`: every file in a multipart field `files`; each answers a design or its own error. */
export function uploadFiles(files: File[]): Promise<TUploadFilesResponse> {
  const body = new FormData();
  for (const file of files) body.append('files', file);
  return api.post<TUploadFilesResponse>('/api/upload/files', body);
}

export function useUploadFiles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadFiles,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: designsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
