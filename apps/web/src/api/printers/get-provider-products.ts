import type { TFulfilmentNetwork, TProviderProduct, TProviderProducts } from '@podforge/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/providers/:provider/products?search=`: a printer's catalogue in the one shape every printer shares. */
export const providerProductsQueryOptions = (provider: TFulfilmentNetwork, search: string) =>
  queryOptions({
    queryKey: ['providers', provider, 'products', search.trim()],
    queryFn: ({ signal }) => {
      const query = search.trim() ? `?${new URLSearchParams({ search: search.trim() })}` : '';
      return api.get<TProviderProducts>(`/api/providers/${provider}/products${query}`, signal);
    },
  });
export const useProviderProducts = (provider: TFulfilmentNetwork, search: string, enabled: boolean) =>
  useQuery({ ...providerProductsQueryOptions(provider, search), enabled, placeholderData: keepPreviousData });

/** `GET /api/providers/:provider/products/:id`: variants with base costs, placements with pixel size and DPI. */
export const providerProductQueryOptions = (provider: TFulfilmentNetwork, id: string) =>
  queryOptions({
    queryKey: ['providers', provider, 'product', id],
    queryFn: ({ signal }) => api.get<TProviderProduct>(`/api/providers/${provider}/products/${id}`, signal),
  });
export const useProviderProduct = (provider: TFulfilmentNetwork, id: string | null) =>
  useQuery({ ...providerProductQueryOptions(provider, id ?? ''), enabled: id !== null });
