import type { CoreDeps } from '../../lib/core-deps';
import type { ShopifyService } from './shopify.service';
import type { ShopifyWebhookRegistry } from './shopify-webhooks';

/** What the Shopify module uses: its service (a StorePlatform adapter), the webhook topics' registry, the job queue. */
export type ShopifyDeps = Pick<CoreDeps, 'config' | 'db' | 'jobs' | 'cipher' | 'now'> & {
  shopify: ShopifyService;
  shopifyWebhooks: ShopifyWebhookRegistry;
};
