import type { TIntegration } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type StoreUploadResult = { platform: string; integrationId: string; ok: boolean; error: string | null };

/**
 * Spec section 7: one `POST /api/upload/{platform}/{productId}` per selected store, in sequence, so a store's
 * rate limits and our product's status change one push at a time.
 */
export async function uploadToStores(productId: string, stores: TIntegration[]): Promise<StoreUploadResult[]> {
  const results: StoreUploadResult[] = [];
  for (const store of stores) {
    try {
      const answer = await api.post<{ success?: boolean }>(
        `/api/upload/${encodeURIComponent(store.platform)}/${encodeURIComponent(productId)}`,
        { integrationId: store.id },
      );
      results.push({ platform: store.platform, integrationId: store.id, ok: answer?.success !== false, error: null });
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
      await queryClient.invalidateQueries({ queryKey: ['products'] });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
