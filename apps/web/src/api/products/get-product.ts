import type { TProduct, TProductDetail } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['products', 'detail', id],
    queryFn: ({ signal }) => api.get<TProductDetail>(`/api/products/${encodeURIComponent(id)}`, signal),
  });

/**
 * `GET /api/products/:id`: the product with its print files. `placeholder` (the list's copy, which has no print
 * files) shows until the fresh one arrives.
 */
export const useProduct = (id: string, placeholder?: TProduct) =>
  useQuery({
    ...productQueryOptions(id),
    placeholderData: placeholder ? { ...placeholder, printFiles: [] } : undefined,
  });
