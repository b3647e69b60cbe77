import type { TSandboxOrderInput } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type SandboxPlatform = 'shopify' | 'woocommerce' | 'etsy' | 'amazon';

/**
 * `POST /api/{shopify|woocommerce|etsy}/sandbox/orders`: a paid test order in a sandbox store, which reaches the app
 * as that platform sends orders (Shopify's `orders/paid`, WooCommerce's `order.created`, an Etsy receipt the shop's
 * reader takes at once).
 */
export const placeSandboxOrder = (platform: SandboxPlatform, input: TSandboxOrderInput) =>
  api.post<{ remoteOrderId: string; name: string; total: string; currency: string }>(
    `/api/${platform}/sandbox/orders`,
    input,
  );

export function usePlaceSandboxOrder(platform: SandboxPlatform) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TSandboxOrderInput) => placeSandboxOrder(platform, input),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
      await queryClient.invalidateQueries({ queryKey: ['amazon', 'sandbox-orders'] });
    },
  });
}
