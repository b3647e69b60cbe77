import type { TRemoveFromStoreBody } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';
import { waitForPushes } from './push-progress';

/**
 * `POST /api/products/:id/remove-from-store`: the product's listing in one store is archived or deleted there; the
 * product stays here and in its other stores. 202: the removal job is still at work; follow it until it is done.
 */
export async function removeFromStore(input: { productId: string } & TRemoveFromStoreBody): Promise<void> {
  const { productId, ...body } = input;
  const result = await api.post<{ state: 'running' } | undefined>(
    `/api/products/${encodeURIComponent(productId)}/remove-from-store`,
    body,
  );
  if (result?.state !== 'running') return;
  const [left] = await waitForPushes(productId, [body.integrationId]);
  if (left?.error) throw new Error(left.error);
}

export function useRemoveFromStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeFromStore,
    onSettled: async (_data, _error, { productId }) => {
      await queryClient.invalidateQueries({ queryKey: productQueryOptions(productId).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
