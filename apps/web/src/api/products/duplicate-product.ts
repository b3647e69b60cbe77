import type { TProduct } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productListsKey } from './get-products';

/** `POST /api/products/:id/duplicate` (201): the copy. */
export function duplicateProduct(id: string): Promise<TProduct> {
  return api.post<TProduct>(`/api/products/${encodeURIComponent(id)}/duplicate`);
}

export function useDuplicateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: duplicateProduct,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
