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
  /** A store of the built-in Shopify sandbox (the server has no SHOPIFY_API_KEY), not a real shop. */
  sandbox: z.boolean(),
  /** What the seller must do for this store to work fully (e.g. reconnect Etsy for a scope orders need); null when nothing. */
  problem: z.string().nullable(),
});
export type TIntegration = z.infer<typeof ZIntegration>;

/** `GET /api/shopify/validate-domain?shop=` and `/auth/shopify/start?shop=`. */
export const ZShopifyShopQuery = z.object({ shop: z.string().trim().toLowerCase().max(255).optional() });
export const ZShopifyValidateDomainResult = z.object({
  valid: z.literal(true),
  shop: z.string(),
  sandbox: z.boolean(),
});
export type TShopifyValidateDomainResult = z.infer<typeof ZShopifyValidateDomainResult>;

/**
 * `GET /api/shopify/connect-options`: how a Shopify store is connected here. With `appStoreUrl` (a public app listed
 * in the Shopify App Store) the merchant installs it from the listing and Shopify sends them back with their shop:
 * no domain is typed (Shopify's App Store rules forbid asking for it).
 */
export const ZShopifyConnectOptions = z.object({ sandbox: z.boolean(), appStoreUrl: z.string().nullable() });
export type TShopifyConnectOptions = z.infer<typeof ZShopifyConnectOptions>;

/** `GET /api/shopify/sync?shop=<integration id>` (spec section 7). */
export const ZShopifySyncQuery = z.object({ shop: z.string().max(100) });
export const ZShopifySyncResult = z.object({
  success: z.literal(true),
  integrationId: z.string(),
  ordersRead: z.number(),
  ordersNew: z.number(),
  /** Pushed listings read back from the store, of which deleted or archived there, and edited there. */
  listingsChecked: z.number(),
  listingsRemoved: z.number(),
  listingsChanged: z.number(),
  lastSyncAt: z.string(),
});
export type TShopifySyncResult = z.infer<typeof ZShopifySyncResult>;

export const ZIntegrationIdParams = z.object({ id: z.string().max(100) });

/** `GET /api/shopify/sandbox/products`: what was pushed to this workspace's sandbox stores. */
export const ZSandboxProduct = z.object({
  id: z.string(),
  title: z.string(),
  handle: z.string(),
  status: z.string(),
  productType: z.string(),
  tags: z.array(z.string()),
  updatedAt: z.string().nullable(),
  /** ACTIVE and published to the Online Store: what buyers can see. */
  onlineStore: z.boolean(),
  /** Option names, e.g. ['Color', 'Size']. */
  options: z.array(z.string()),
  variants: z.array(
    z.object({
      title: z.string(),
      price: z.string(),
      sku: z.string().nullable(),
      availableForSale: z.boolean(),
      /** The variant's own picture once Shopify processed it. */
      image: z.string().nullable(),
    }),
  ),
  /** How many processed pictures the product has, and their URLs (the main one first). */
  images: z.number(),
  imageUrls: z.array(z.string()),
  /** Pictures Shopify could not process, with its reason. */
  failedImages: z.array(z.object({ alt: z.string(), message: z.string() })),
});
export const ZSandboxStore = z.object({
  integrationId: z.string(),
  shop: z.string(),
  name: z.string(),
  products: z.array(ZSandboxProduct),
});
export type TSandboxStore = z.infer<typeof ZSandboxStore>;
export const ZSandboxProducts = z.object({ sandbox: z.boolean(), stores: z.array(ZSandboxStore) });
export type TSandboxProducts = z.infer<typeof ZSandboxProducts>;
