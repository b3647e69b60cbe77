/** Platforms a seller can connect today; Amazon stays 'Coming Soon' (its pushes answer 501 naming it). */
export const CONNECTABLE_STORE_PLATFORMS = ['shopify', 'etsy', 'woocommerce'] as const;
export const isConnectableStorePlatform = (platform: string) =>
  (CONNECTABLE_STORE_PLATFORMS as readonly string[]).includes(platform);
