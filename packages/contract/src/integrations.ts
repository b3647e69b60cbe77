import { z } from 'zod';

export const ZIntegrationStatus = z.enum(['connected', 'pending', 'error', 'disconnected']);

/** `GET /api/integrations` item (spec section 3 'Integration'). Tokens never leave the server. */
export const ZIntegration = z.object({
  id: z.string(),
  kind: z.enum(['store', 'fulfillment']),
  platform: z.string(),
  storeName: z.string().nullable(),
  name: z.string(),
  status: ZIntegrationStatus,
  verifiedAt: z.string().nullable(),
  lastSyncAt: z.string().nullable(),
  /** Usable for pushes and syncs: connected and verified (spec section 4). */
  isConnected: z.boolean(),
});
export type TIntegration = z.infer<typeof ZIntegration>;

/** Display names of platforms; an integration without a store name is called by its platform's. */
export const PLATFORM_LABELS: Record<string, string> = {
  shopify: 'Shopify',
  etsy: 'Etsy',
  amazon: 'Amazon',
  woocommerce: 'WooCommerce',
  printful: 'Printful',
  gelato: 'Gelato',
  printify: 'Printify',
};
export const platformLabel = (platform: string) => PLATFORM_LABELS[platform] ?? platform;
