import type { TPrintifyConnect, TPrintifySandboxOrder, TPrintifyStatus } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const printifyStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['printify', 'status'],
    queryFn: ({ signal }) => api.get<TPrintifyStatus>('/api/printify/status', signal),
  });
export const usePrintifyStatus = () => useQuery(printifyStatusQueryOptions());

export const printifySandboxOrdersQueryOptions = () =>
  queryOptions({
    queryKey: ['printify', 'sandbox', 'orders'],
    queryFn: ({ signal }) => api.get<{ orders: TPrintifySandboxOrder[] }>('/api/printify/sandbox/orders', signal),
  });
export const usePrintifySandboxOrders = () => useQuery(printifySandboxOrdersQueryOptions());

/** Connect (token), choose a shop, use the sandbox, disconnect: each answers the status; the printers list follows. */
function usePrintifyCall<I>(call: (input: I) => Promise<TPrintifyStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async (status) => {
      queryClient.setQueryData(printifyStatusQueryOptions().queryKey, status);
      await queryClient.invalidateQueries({ queryKey: ['printers'] });
      await queryClient.invalidateQueries({ queryKey: ['providers'] });
    },
  });
}

export const useConnectPrintify = () =>
  usePrintifyCall((input: TPrintifyConnect) => api.post<TPrintifyStatus>('/api/printify/connect', input));
export const useChoosePrintifyShop = () =>
  usePrintifyCall((shopId: string) => api.post<TPrintifyStatus>('/api/printify/shop', { shopId }));
export const useUsePrintifySandbox = () =>
  usePrintifyCall(() => api.post<TPrintifyStatus>('/api/printify/sandbox', {}));
export const useDisconnectPrintify = () =>
  usePrintifyCall(() => api.post<TPrintifyStatus>('/api/printify/disconnect', {}));
