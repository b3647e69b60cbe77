import type { AppDeps } from '../../deps';
import type { StorePublisher } from './store-publisher';

/**
 * The publisher of a platform that has one (Etsy, WooCommerce); Shopify's push is its own job
 * (modules/products/store-push.ts), Amazon has none. Upload, Update in store and delete with the store choose by it.
 */
export function publisherFor(deps: AppDeps, platform: string): StorePublisher | null {
  if (platform === 'etsy') return deps.etsy;
  if (platform === 'woocommerce') return deps.woocommerce;
  return null;
}
