import type { TDeleteProductStore } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';

/**
 * `DELETE /api/products/:id` (204). A live product needs `store`: archive or delete its store listings too, or
 * keep them.
 */
export function deleteProduct({ id, store }: { id: string; store?: TDeleteProductStore }): Promise<void> {
  const query = store ? `?store=${store}` : '';
  return api.delete<void>(`/api/products/${encodeURIComponent(id)}${query}`);
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async (_, { id }) => {
      queryClient.removeQueries({ queryKey: productQueryOptions(id).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      // The dashboard counts products.
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
