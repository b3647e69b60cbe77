import type { TIntegration, TPublishResult } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productListsKey } from './get-products';

export type StoreUploadResult = { platform: string; integrationId: string; ok: boolean; error: string | null };

/**
 * Pushes the product to every selected store with one call: the server pushes store by store (the one publish
 * operation every caller uses), and a store that refuses does not stop the others.
 */
export async function uploadToStores(productId: string, stores: TIntegration[]): Promise<StoreUploadResult[]> {
  if (stores.length === 0) return [];
  const { results } = await api.post<TPublishResult>(`/api/products/${encodeURIComponent(productId)}/publish`, {
    integrationIds: stores.map((s) => s.id),
  });
  return results.map((r) => ({ platform: r.platform, integrationId: r.integrationId, ok: r.ok, error: r.error }));
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
