import type { StorePublisher } from './store-publisher';
import type { StoresDeps } from './stores.deps';

/**
 * The publisher of a platform that has one (Etsy, WooCommerce); Shopify's push is its own job
 * (modules/products/store-push.ts), Amazon has none. Upload, Update in store and delete with the store choose by it.
 */
export function publisherFor(deps: StoresDeps, platform: string): StorePublisher | null {
  if (platform === 'etsy') return deps.etsy;
  if (platform === 'woocommerce') return deps.woocommerce;
  return null;
}
