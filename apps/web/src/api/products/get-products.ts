import type { TProductListQuery, TProductPage } from '@podforge/contract';
import { PRODUCTS_PAGE_SIZE } from '@podforge/contract/plain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type ProductsParams = Pick<TProductListQuery, 'search' | 'status' | 'type' | 'page'>;

/** The query string of `GET /api/products`: an empty search and the 'all' filters are left out (the API's default). */
export function productsUrl(params: ProductsParams): string {
  const query = new URLSearchParams();
  const search = params.search?.trim();
  if (search) query.set('search', search);
  if (params.status && params.status !== 'all') query.set('status', params.status);
  if (params.type && params.type !== 'all') query.set('type', params.type);
  query.set('page', String(params.page ?? 1));
  query.set('pageSize', String(PRODUCTS_PAGE_SIZE));
  return `/api/products?${query.toString()}`;
}

/** Every products list, whatever its filters: what mutations invalidate. */
export const productListsKey = ['products', 'list'] as const;

export const productsQueryOptions = (params: ProductsParams) =>
  queryOptions({
    queryKey: [...productListsKey, params],
    queryFn: ({ signal }) => api.get<TProductPage>(productsUrl(params), signal),
  });

/** Keeps the previous page on screen while the next one loads, so paging and filtering do not flash a skeleton. */
export const useProducts = (params: ProductsParams) =>
  useQuery({ ...productsQueryOptions(params), placeholderData: keepPreviousData });
