import type { TIntegration } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productListsKey } from './get-products';
import { uploadProduct } from './upload-product';

export type StoreUploadResult = { platform: string; integrationId: string; ok: boolean; error: string | null };

/**
 * Spec section 7: one upload call per selected store, in sequence, so each push changes the product's status in
 * turn; a store that refuses does not stop the others.
 */
export async function uploadToStores(productId: string, stores: TIntegration[]): Promise<StoreUploadResult[]> {
  const results: StoreUploadResult[] = [];
  for (const store of stores) {
    try {
      await uploadProduct({ platform: store.platform, productId, integrationId: store.id });
      results.push({ platform: store.platform, integrationId: store.id, ok: true, error: null });
    } catch (error) {
      results.push({
        platform: store.platform,
        integrationId: store.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return results;
}

export function useUploadToStores(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (stores: TIntegration[]) => uploadToStores(productId, stores),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
