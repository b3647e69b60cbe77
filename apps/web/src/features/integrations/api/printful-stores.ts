import type { TPrintfulStatus, TPrintfulStore } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { printfulStatusQueryOptions } from './get-printful-status';

/** `GET /api/printful/stores`: the account's stores while the seller chooses the one orders go to. */
export const printfulStoresQueryOptions = () =>
  queryOptions({
    queryKey: ['printful', 'stores'],
    queryFn: ({ signal }) => api.get<TPrintfulStore[]>('/api/printful/stores', signal),
  });

export const usePrintfulStores = (enabled: boolean) => useQuery({ ...printfulStoresQueryOptions(), enabled });

/** `POST /api/printful/store { storeId }`: connects that store. */
export const choosePrintfulStore = (storeId: number) => api.post<TPrintfulStatus>('/api/printful/store', { storeId });

export function useChoosePrintfulStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: choosePrintfulStore,
    onSuccess: (status) => {
      queryClient.setQueryData(printfulStatusQueryOptions().queryKey, status);
      return queryClient.invalidateQueries({ queryKey: ['printful', 'products'] });
    },
  });
}
