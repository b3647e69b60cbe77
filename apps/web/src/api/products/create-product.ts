import type { TCreateProduct, TProduct } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { productListsKey } from './get-products';

/**
 * `POST /api/products`. The simple flow has already uploaded the design (the mockups are rendered from it), so it
 * sends the design's id as JSON rather than the file again.
 */
export const createProduct = (input: TCreateProduct) => api.post<TProduct>('/api/products', input);

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: productListsKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
