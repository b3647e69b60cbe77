import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';
import { waitForPushes } from './push-progress';

export type UploadPlatform = 'shopify' | 'etsy' | 'amazon';

/**
 * The contract has no schema for this answer yet; `success` is the one field the spec names (section 7). `waiting`:
 * not uploaded yet and not failed: the push waits for the store's spent request limit, in the seller's words.
 */
export type TUploadResult = { success: boolean; waiting?: string } & Record<string, unknown>;

const waitingText = (progress: unknown) =>
  typeof progress === 'string' && progress ? progress : 'Waiting for the store; it resumes by itself';

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
  // 202 'waiting': the store's request limit is spent for a while; the push resumes by itself (not a failure).
  if (result?.state === 'waiting') return { ...result, success: false, waiting: waitingText(result.progress) };
  if (result?.state === 'running' && typeof result.integrationId === 'string') {
    // 202: the push job is still at work; follow it (GET /api/products/:id/pushes) until it is done.
    const [done] = await waitForPushes(productId, [result.integrationId]);
    if (done?.state === 'published' && done.error === null) return { ...done, success: true };
    if (done?.state === 'waiting') return { ...done, success: false, waiting: waitingText(done.progress) };
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
