import type { TProduct } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['products', 'detail', id],
    queryFn: ({ signal }) => api.get<TProduct>(`/api/products/${encodeURIComponent(id)}`, signal),
  });

/** `GET /api/products/:id`. `placeholder` (the list's copy) shows until the fresh one arrives. */
export const useProduct = (id: string, placeholder?: TProduct) =>
  useQuery({ ...productQueryOptions(id), placeholderData: placeholder });
