import type { TDesign } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { designsQueryOptions } from './get-designs';

/** `POST /api/designs/upload`: one file in the multipart field `file`. */
export function uploadDesign(file: File): Promise<TDesign> {
  const body = new FormData();
  body.append('file', file);
  return api.post<TDesign>('/api/designs/upload', body);
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
