import type { TMockupTemplates } from '@podforge/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const mockupTemplatesQueryOptions = (productType: string) =>
  queryOptions({
    queryKey: ['mockups', 'templates', { productType }],
    queryFn: ({ signal }) =>
      api.get<TMockupTemplates>(`/api/mockups/templates?productType=${encodeURIComponent(productType)}`, signal),
  });

export const useMockupTemplates = (productType: string) => useQuery(mockupTemplatesQueryOptions(productType));
