import type { TIntegration, TPublishResult } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productListsKey } from './get-products';
import { waitForPushes } from './push-progress';

/** `waiting`: not failed, deferred until the store's spent request limit is back (in the seller's words). */
export type StoreUploadResult = {
  platform: string;
  integrationId: string;
  ok: boolean;
  error: string | null;
  waiting?: string;
};

const waitingText = (progress: string | null | undefined) => progress || 'Waiting for the store; it resumes by itself';

/**
 * Pushes the product to every selected store with one call: the server pushes store by store (the one publish
 * operation every caller uses, a job per store), and a store that refuses does not stop the others.
 */
export async function uploadToStores(productId: string, stores: TIntegration[]): Promise<StoreUploadResult[]> {
  if (stores.length === 0) return [];
  const { results } = await api.post<TPublishResult>(`/api/products/${encodeURIComponent(productId)}/publish`, {
    integrationIds: stores.map((s) => s.id),
  });
  // A store whose push job was still at work when the answer went out: follow it until it is done.
  const running = results.filter((r) => r.state === 'running').map((r) => r.integrationId);
  const settled = running.length ? await waitForPushes(productId, running) : [];
  return results.map((r) => {
    const base = { platform: r.platform, integrationId: r.integrationId };
    if (r.state === 'waiting') return { ...base, ok: false, error: null, waiting: waitingText(r.progress) };
    const done = settled.find((p) => p.integrationId === r.integrationId);
    if (done?.state === 'waiting') return { ...base, ok: false, error: null, waiting: waitingText(done.progress) };
    if (!done) return { ...base, ok: r.ok, error: r.error };
    const ok = done.state === 'published' && done.error === null;
    const error = ok ? null : (done.error ?? 'The store is still working on it; check My Products in a moment');
    return { platform: r.platform, integrationId: r.integrationId, ok, error };
  });
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
