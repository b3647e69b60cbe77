import type { TAmazonProductListings } from '@podforge/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * `GET /api/amazon/products/:productId/listings`: what Amazon made of the product's listings after accepting them
 * (processing, live, or not buyable with Amazon's issues). Read again every half minute while Amazon is processing.
 */
export const useAmazonProductListings = (productId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['amazon', 'product-listings', productId],
    queryFn: ({ signal }) =>
      api.get<TAmazonProductListings>(`/api/amazon/products/${encodeURIComponent(productId)}/listings`, signal),
    enabled,
    refetchInterval: (query) => (query.state.data?.listings.some((l) => l.state === 'processing') ? 30_000 : false),
  });
