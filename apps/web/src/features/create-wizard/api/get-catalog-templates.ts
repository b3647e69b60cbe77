import type { TCatalogTemplate } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/catalog/shopify/products?categoryId=`: the catalogue products of a category, as templates. */
export const catalogTemplatesQueryOptions = (categoryId: number) =>
  queryOptions({
    queryKey: ['catalog', 'templates', { categoryId }],
    queryFn: ({ signal }) =>
      api.get<TCatalogTemplate[]>(`/api/catalog/shopify/products?categoryId=${categoryId}`, signal),
  });

export const useCatalogTemplates = (categoryId: number | null) =>
  useQuery({ ...catalogTemplatesQueryOptions(categoryId ?? 0), enabled: categoryId !== null });
