import type {
  TAmazonSandboxListings,
  TAmazonSandboxOrders,
  TAmazonSettings,
  TAmazonSettingsBody,
  TConnectResult,
  TEtsySandboxListings,
  TEtsySetup,
  TEtsySetupBody,
  TWooConnectBody,
  TWooSandboxProducts,
} from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationsQueryOptions } from '@/api/integrations/get-integrations';
import { toast } from '@/components/ui/use-toast';
import { api } from '@/lib/api-client';

/** `GET /api/etsy/:id/setup`: the shop's shipping and processing profiles and production partners, and the choice. */
export const etsySetupQueryOptions = (integrationId: string) =>
  queryOptions({
    queryKey: ['etsy', 'setup', integrationId],
    queryFn: ({ signal }) => api.get<TEtsySetup>(`/api/etsy/${encodeURIComponent(integrationId)}/setup`, signal),
  });
export const useEtsySetup = (integrationId: string) => useQuery(etsySetupQueryOptions(integrationId));

export function useSaveEtsySetup(integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TEtsySetupBody) =>
      api.post<TEtsySetup>(`/api/etsy/${encodeURIComponent(integrationId)}/setup`, body),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['etsy', 'setup', integrationId] });
    },
  });
}

/** `POST /api/{etsy|woocommerce|amazon}/disconnect/:id`: forgets the tokens or keys. */
export function useDisconnectStore(platform: 'etsy' | 'woocommerce' | 'amazon') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integrationId: string) =>
      api.post<{ success: true }>(`/api/${platform}/disconnect/${encodeURIComponent(integrationId)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey }),
  });
}

/** `POST /api/woocommerce/connect`: a store's address and REST keys (checked by the server first), or the sandbox. */
export function useConnectWooCommerce() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TWooConnectBody) => api.post<TConnectResult>('/api/woocommerce/connect', body),
    // Said here, not by the form: the form goes once the store shows connected, which the workspace's events may
    // show before this answer arrives (a callback given to `mutate` would then never run).
    onSuccess: (_result, body) =>
      toast({
        title: 'WooCommerce Connected',
        description: 'sandbox' in body ? 'The sandbox store is ready for uploads.' : 'Your store is ready for uploads.',
        variant: 'success',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey }),
  });
}

/** `GET /api/etsy/sandbox/listings`: what this workspace pushed to the Etsy sandbox shop. */
export const etsySandboxQueryOptions = () =>
  queryOptions({
    queryKey: ['etsy', 'sandbox-listings'],
    queryFn: ({ signal }) => api.get<TEtsySandboxListings>('/api/etsy/sandbox/listings', signal),
  });
export const useEtsySandbox = () => useQuery(etsySandboxQueryOptions());

/** `GET /api/woocommerce/sandbox/products`: what this workspace pushed to its WooCommerce sandbox store. */
export const wooSandboxQueryOptions = () =>
  queryOptions({
    queryKey: ['woocommerce', 'sandbox-products'],
    queryFn: ({ signal }) => api.get<TWooSandboxProducts>('/api/woocommerce/sandbox/products', signal),
  });
export const useWooSandbox = () => useQuery(wooSandboxQueryOptions());

/** `GET /api/amazon/:id/settings`: the seller's marketplace and listing settings, and what is missing. */
export const amazonSettingsQueryOptions = (integrationId: string) =>
  queryOptions({
    queryKey: ['amazon', 'settings', integrationId],
    queryFn: ({ signal }) =>
      api.get<TAmazonSettings>(`/api/amazon/${encodeURIComponent(integrationId)}/settings`, signal),
  });
export const useAmazonSettings = (integrationId: string) => useQuery(amazonSettingsQueryOptions(integrationId));

export function useSaveAmazonSettings(integrationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TAmazonSettingsBody) =>
      api.post<TAmazonSettings>(`/api/amazon/${encodeURIComponent(integrationId)}/settings`, body),
    onSuccess: (data) => queryClient.setQueryData(amazonSettingsQueryOptions(integrationId).queryKey, data),
  });
}

/** `GET /api/amazon/sandbox/listings` and `/orders`: every SKU and order of this workspace's sandbox sellers. */
export const useAmazonSandbox = () =>
  useQuery({
    queryKey: ['amazon', 'sandbox-listings'],
    queryFn: ({ signal }) => api.get<TAmazonSandboxListings>('/api/amazon/sandbox/listings', signal),
    // Amazon processes accepted listings a few seconds later: the page shows it happen.
    refetchInterval: 5000,
  });
export const useAmazonSandboxOrders = () =>
  useQuery({
    queryKey: ['amazon', 'sandbox-orders'],
    queryFn: ({ signal }) => api.get<TAmazonSandboxOrders>('/api/amazon/sandbox/orders', signal),
    refetchInterval: 5000,
  });
