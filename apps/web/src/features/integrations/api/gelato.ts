import type { TGelatoConnect, TGelatoSandboxOrder, TGelatoStatus, TRoutingRule } from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fulfilmentProvidersQueryOptions } from '@/api/printers/get-fulfilment-providers';
import { api } from '@/lib/api-client';

export const gelatoStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['gelato', 'status'],
    queryFn: ({ signal }) => api.get<TGelatoStatus>('/api/gelato/status', signal),
  });

export const useGelatoStatus = () => useQuery(gelatoStatusQueryOptions());

function useSetsStatus(fn: () => Promise<TGelatoStatus>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (status) => {
      queryClient.setQueryData(gelatoStatusQueryOptions().queryKey, status);
      // The printers list (product creation, the other cards) says whether Gelato is connected too.
      void queryClient.invalidateQueries({ queryKey: fulfilmentProvidersQueryOptions().queryKey });
    },
  });
}

/** `POST /api/gelato/connect`: an account API key (checked with Gelato first), or the built-in sandbox. */
export function useConnectGelato() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TGelatoConnect) => api.post<TGelatoStatus>('/api/gelato/connect', input),
    onSuccess: (status) => {
      queryClient.setQueryData(gelatoStatusQueryOptions().queryKey, status);
      // The printers list (product creation, the other cards) says whether Gelato is connected too.
      void queryClient.invalidateQueries({ queryKey: fulfilmentProvidersQueryOptions().queryKey });
    },
  });
}

export const useDisconnectGelato = () => useSetsStatus(() => api.post<TGelatoStatus>('/api/gelato/disconnect'));

/** `GET /api/gelato/sandbox/orders`: what the built-in Gelato sandbox received for this workspace. */
export const useGelatoSandboxOrders = () =>
  useQuery({
    queryKey: ['gelato', 'sandbox', 'orders'],
    queryFn: ({ signal }) => api.get<{ orders: TGelatoSandboxOrder[] }>('/api/gelato/sandbox/orders', signal),
    refetchInterval: 5000,
  });

const routingKey = ['routing'] as const;

export const useRoutingRule = () =>
  useQuery({ queryKey: routingKey, queryFn: ({ signal }) => api.get<TRoutingRule>('/api/routing', signal) });

export function useSetRoutingRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rule: TRoutingRule) => api.put<TRoutingRule>('/api/routing', rule),
    onSuccess: (rule) => queryClient.setQueryData(routingKey, rule),
  });
}
