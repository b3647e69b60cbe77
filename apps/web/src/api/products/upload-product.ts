import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';
import { waitForPushes } from './push-progress';

export type UploadPlatform = 'shopify' | 'etsy' | 'amazon';

/** The contract has no schema for this answer yet; `success` is the one field the spec names (section 7). */
export type TUploadResult = { success: boolean } & Record<string, unknown>;

/** The answer said 200 but `success: false`. */
export class UploadRejectedError extends Error {
  constructor(readonly result: TUploadResult) {
    super(typeof result.error === 'string' ? result.error : 'The store did not accept the product.');
    this.name = 'UploadRejectedError';
  }
}

/**
 * `POST /api/upload/{platform}/{productId}` (spec section 7): an empty JSON body from the My Products buttons, or the
 * chosen store's `integrationId` from the create flow's Upload to Stores.
 */
export async function uploadProduct({
  platform,
  productId,
  integrationId,
}: {
  platform: string;
  productId: string;
  integrationId?: string;
}): Promise<TUploadResult> {
  const result = await api.post<TUploadResult>(
    `/api/upload/${encodeURIComponent(platform)}/${encodeURIComponent(productId)}`,
    integrationId ? { integrationId } : {},
  );
  if (result?.state === 'running' && typeof result.integrationId === 'string') {
    // 202: the push job is still at work; follow it (GET /api/products/:id/pushes) until it is done.
    const [done] = await waitForPushes(productId, [result.integrationId]);
    if (done?.state === 'published' && done.error === null) return { ...done, success: true };
    throw new UploadRejectedError({ success: false, error: done?.error ?? 'The store is still working on it' });
  }
  if (!result?.success) throw new UploadRejectedError(result ?? { success: false });
  return result;
}

export function useUploadProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadProduct,
    // A push changes the product's status (processing, live), also when it failed half way.
    onSettled: async (_data, _error, { productId }) => {
      await queryClient.invalidateQueries({ queryKey: productQueryOptions(productId).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
