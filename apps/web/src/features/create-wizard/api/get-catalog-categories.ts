import type { TCatalogCategory } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/catalog/shopify/categories`: every category of the catalogue, each with its parent's id. */
export const catalogCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['catalog', 'categories', 'all'],
    queryFn: ({ signal }) => api.get<TCatalogCategory[]>('/api/catalog/shopify/categories', signal),
  });

export const useCatalogCategories = (enabled = true) => useQuery({ ...catalogCategoriesQueryOptions(), enabled });

/** `GET /api/printful/categories?parent_id=`: the direct subcategories of one category. */
export const subcategoriesQueryOptions = (parentId: number) =>
  queryOptions({
    queryKey: ['catalog', 'categories', { parentId }],
    queryFn: ({ signal }) => api.get<TCatalogCategory[]>(`/api/printful/categories?parent_id=${parentId}`, signal),
  });

export const useSubcategories = (parentId: number | null) =>
  useQuery({ ...subcategoriesQueryOptions(parentId ?? 0), enabled: parentId !== null });
