import type { TFulfilmentNetwork, TPrinterQuote } from '@podforge/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** One catalogue variant of a printer network: what the price editor asks shipping for. */
export type QuotedBlank = { network: TFulfilmentNetwork; catalogProductId: number; catalogVariantId: number };

/**
 * `GET /api/quotes/blank`: one unit of a catalogue variant quoted by the printer its orders would go to (the
 * network's own account, else its sandbox), to a buyer's country. Works before the product is saved.
 */
export const useBlankQuote = (blank: QuotedBlank | null, country: string) =>
  useQuery({
    queryKey: ['printers', 'blank-quote', blank, country],
    queryFn: ({ signal }) => {
      const q = blank as QuotedBlank;
      const query = new URLSearchParams({
        network: q.network,
        catalogProductId: String(q.catalogProductId),
        catalogVariantId: String(q.catalogVariantId),
        country,
      });
      return api.get<TPrinterQuote>(`/api/quotes/blank?${query}`, signal);
    },
    enabled: blank !== null && /^[A-Z]{2}$/.test(country),
    staleTime: 5 * 60_000,
  });
