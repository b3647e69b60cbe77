import type { TProduct, TUpdateProduct } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productQueryOptions } from './get-product';
import { productListsKey } from './get-products';

/** `PATCH /api/products/:id` with only the fields to change. */
export function updateProduct({ id, data }: { id: string; data: TUpdateProduct }): Promise<TProduct> {
  return api.patch<TProduct>(`/api/products/${encodeURIComponent(id)}`, data);
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProduct,
    onSuccess: async (product) => {
      // The detail also holds print files, which the answer does not: read it again.
      await queryClient.invalidateQueries({ queryKey: productQueryOptions(product.id).queryKey });
      await queryClient.invalidateQueries({ queryKey: productListsKey });
    },
  });
}
