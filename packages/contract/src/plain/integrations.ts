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

/** Spec section 5: lowercase letters, digits and hyphens, then .myshopify.com. */
export const SHOPIFY_DOMAIN_PATTERN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;
export const SHOPIFY_DOMAIN_EXAMPLE = 'your-store.myshopify.com';
export const shopifyDomainMessage = (host = SHOPIFY_DOMAIN_EXAMPLE) =>
  `Please enter a valid Shopify store domain (e.g., ${host}).`;

/** How often the server reads each connected Etsy shop's orders (Etsy sends no webhook an app can subscribe to). */
export const ETSY_ORDER_READ_MINUTES = 5;
