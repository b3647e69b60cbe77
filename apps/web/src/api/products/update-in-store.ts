import type { TStoreUploadResult } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';

/**
 * `POST /api/products/:id/update-in-store`: brings the store's listing of a live product up to date with its
 * edits (the same remote product; a live product is never uploaded twice).
 */
export const updateInStore = ({ productId, integrationId }: { productId: string; integrationId: string }) =>
  api.post<TStoreUploadResult>(`/api/products/${encodeURIComponent(productId)}/update-in-store`, { integrationId });

export function useUpdateInStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateInStore,
    onSettled: async (_result, _error, { productId }) => {
      await queryClient.invalidateQueries({ queryKey: productQueryOptions(productId).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
    },
  });
}
