import type { TStoreUploadPending, TStoreUploadResult } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';
import { waitForPushes } from './push-progress';

/**
 * `POST /api/products/:id/update-in-store`: brings the store's listing of a live product up to date with its
 * edits (the same remote product; a live product is never uploaded twice).
 */
export async function updateInStore({
  productId,
  integrationId,
}: {
  productId: string;
  integrationId: string;
}): Promise<TStoreUploadResult> {
  const result = await api.post<TStoreUploadResult | TStoreUploadPending>(
    `/api/products/${encodeURIComponent(productId)}/update-in-store`,
    { integrationId },
  );
  if (result.success) return result;
  // 202: the update job is still at work; follow it until it is done.
  const [done] = await waitForPushes(productId, [integrationId]);
  if (done?.state === 'published' && done.error === null && done.remoteProductId) {
    return {
      success: true,
      platform: result.platform,
      integrationId,
      remoteProductId: done.remoteProductId,
      remoteUrl: done.remoteUrl ?? '',
    };
  }
  // Deferred until the store's spent request limit is back: not done yet, and it says until when.
  if (done?.state === 'waiting' && done.progress) throw new Error(done.progress);
  throw new Error(done?.error ?? 'The store is still working on it; check again in a moment.');
}

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
