import type { TProductQuotes } from '@podforge/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/products/:id/quotes?country=`: every connected printer's own quote for the product's blank. */
export const useProductQuotes = (productId: string, country: string | null) =>
  useQuery({
    queryKey: ['products', 'quotes', productId, country],
    queryFn: ({ signal }) =>
      api.get<TProductQuotes>(
        `/api/products/${encodeURIComponent(productId)}/quotes?country=${encodeURIComponent(country ?? '')}`,
        signal,
      ),
    enabled: country !== null,
    staleTime: 60_000,
  });
