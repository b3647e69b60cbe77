/** Platforms a seller can connect today (every store platform: Amazon joined with issue #30). */
export const CONNECTABLE_STORE_PLATFORMS = ['shopify', 'etsy', 'woocommerce', 'amazon'] as const;
export const isConnectableStorePlatform = (platform: string) =>
  (CONNECTABLE_STORE_PLATFORMS as readonly string[]).includes(platform);
