import type {
  TSandboxProducts,
  TShopifyConnectOptions,
  TShopifySyncResult,
  TShopifyValidateDomainResult,
} from '@podforge/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { integrationsQueryOptions } from '@/api/integrations/get-integrations';
import { productListsKey } from '@/api/products/get-products';
import { api } from '@/lib/api-client';

/** `GET /api/shopify/validate-domain?shop=` (spec section 7): on success the browser goes to /auth/shopify/start. */
export const validateShopifyDomain = (shop: string) =>
  api.get<TShopifyValidateDomainResult>(`/api/shopify/validate-domain?shop=${encodeURIComponent(shop)}`);

/** `GET /api/shopify/connect-options`: whether stores connect by typed domain or from the App Store listing. */
export const useShopifyConnectOptions = () =>
  useQuery({
    queryKey: ['shopify', 'connect-options'],
    queryFn: ({ signal }) => api.get<TShopifyConnectOptions>('/api/shopify/connect-options', signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** `GET /api/shopify/sync?shop=<integration id>`: reads the store's recent orders. */
export const syncShopify = (integrationId: string) =>
  api.get<TShopifySyncResult>(`/api/shopify/sync?shop=${encodeURIComponent(integrationId)}`);

export function useSyncShopify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncShopify,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      // Sync marks products deleted, archived or edited in the store.
      await queryClient.invalidateQueries({ queryKey: productListsKey });
    },
  });
}

export const disconnectShopify = (integrationId: string) =>
  api.post<{ success: true }>(`/api/shopify/disconnect/${encodeURIComponent(integrationId)}`);

export function useDisconnectShopify() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectShopify,
    onSettled: () => queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey }),
  });
}

/** `GET /api/shopify/sandbox/products`: what was pushed to this workspace's sandbox stores. */
export const sandboxProductsQueryOptions = () =>
  queryOptions({
    queryKey: ['shopify', 'sandbox-products'],
    queryFn: ({ signal }) => api.get<TSandboxProducts>('/api/shopify/sandbox/products', signal),
  });

export const useSandboxProducts = () => useQuery(sandboxProductsQueryOptions());
