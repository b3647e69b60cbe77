import type { TCatalogProductDetail, TFulfilmentNetwork } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * One catalogue product with its colour x size variants and placements: Printful's (`GET /api/printful/products/:id`)
 * or another printer's in the same shape (`GET /api/providers/:provider/catalog/:id`).
 */
export const catalogProductQueryOptions = (id: number, provider: TFulfilmentNetwork = 'printful') =>
  queryOptions({
    queryKey: provider === 'printful' ? ['catalog', 'products', 'detail', id] : ['catalog', provider, 'detail', id],
    queryFn: ({ signal }) =>
      api.get<TCatalogProductDetail>(
        provider === 'printful' ? `/api/printful/products/${id}` : `/api/providers/${provider}/catalog/${id}`,
        signal,
      ),
  });

export const useCatalogProduct = (id: number | null | undefined, provider: TFulfilmentNetwork = 'printful') =>
  useQuery({ ...catalogProductQueryOptions(id ?? 0, provider), enabled: typeof id === 'number' && id > 0 });
