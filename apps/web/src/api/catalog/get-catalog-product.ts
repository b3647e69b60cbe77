import type { TCatalogProductDetail } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/printful/products/:id`: one catalogue product with its colour x size variants and placements. */
export const catalogProductQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['catalog', 'products', 'detail', id],
    queryFn: ({ signal }) => api.get<TCatalogProductDetail>(`/api/printful/products/${id}`, signal),
  });

export const useCatalogProduct = (id: number | null | undefined) =>
  useQuery({ ...catalogProductQueryOptions(id ?? 0), enabled: typeof id === 'number' && id > 0 });
