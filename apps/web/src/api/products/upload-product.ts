import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';

export type UploadPlatform = 'shopify' | 'etsy';

export const UPLOAD_PLATFORM_LABELS: Record<UploadPlatform, string> = { shopify: 'Shopify', etsy: 'Etsy' };

/** The contract has no schema for this answer yet; `success` is the one field the spec names (section 7). */
export type TUploadResult = { success: boolean } & Record<string, unknown>;

/** The answer said 200 but `success: false`. */
export class UploadRejectedError extends Error {
  constructor(readonly result: TUploadResult) {
    super(typeof result.error === 'string' ? result.error : 'The store did not accept the product.');
    this.name = 'UploadRejectedError';
  }
}

/** `POST /api/upload/{platform}/{productId}` with an empty JSON body (the My Products buttons, spec section 7). */
export async function uploadProduct({
  platform,
  productId,
}: {
  platform: UploadPlatform;
  productId: string;
}): Promise<TUploadResult> {
  const result = await api.post<TUploadResult>(`/api/upload/${platform}/${encodeURIComponent(productId)}`, {});
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
