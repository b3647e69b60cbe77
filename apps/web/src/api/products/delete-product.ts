import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';

/** `DELETE /api/products/:id` (204). */
export function deleteProduct(id: string): Promise<void> {
  return api.delete<void>(`/api/products/${encodeURIComponent(id)}`);
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: async (_, id) => {
      queryClient.removeQueries({ queryKey: productQueryOptions(id).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      // The dashboard counts products.
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
