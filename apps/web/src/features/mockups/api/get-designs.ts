import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The fields of a design the mockup editor needs (the designs feature owns the full shape). */
export type MockupDesign = { id: string; name: string; width: number; height: number; url: string };

export const designsForMockupsQueryOptions = () =>
  queryOptions({
    queryKey: ['designs', 'list'],
    queryFn: async ({ signal }) => {
      const body = await api.get<MockupDesign[] | { items: MockupDesign[] }>('/api/designs', signal);
      return Array.isArray(body) ? body : (body.items ?? []);
    },
  });

export const useDesignsForMockups = () => useQuery(designsForMockupsQueryOptions());
