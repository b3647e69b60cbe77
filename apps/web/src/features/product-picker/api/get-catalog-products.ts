import type { TCatalogProductPage } from '@podforge/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type CatalogProductsParams = {
  search: string;
  category: string;
  minPrice: number | undefined;
  maxPrice: number | undefined;
  page: number;
};

export function catalogProductsUrl(params: CatalogProductsParams): string {
  const query = new URLSearchParams();
  if (params.search.trim()) query.set('search', params.search.trim());
  if (params.category && params.category !== 'All Categories') query.set('category', params.category);
  if (params.minPrice !== undefined) query.set('minPrice', String(params.minPrice));
  if (params.maxPrice !== undefined) query.set('maxPrice', String(params.maxPrice));
  query.set('page', String(params.page));
  return `/api/printful/products?${query.toString()}`;
}

export const catalogProductsQueryOptions = (params: CatalogProductsParams) =>
  queryOptions({
    queryKey: ['printful', 'products', 'list', params],
    queryFn: ({ signal }) => api.get<TCatalogProductPage>(catalogProductsUrl(params), signal),
  });

/** Keeps the previous page on screen while the next one loads, so the pager does not flash a skeleton. */
export const useCatalogProducts = (params: CatalogProductsParams) =>
  useQuery({ ...catalogProductsQueryOptions(params), placeholderData: keepPreviousData });
