import type { OrdersDeps } from '../orders/orders.deps';
import type { ShopifyWebhookRegistry } from './shopify-webhooks';

/** What the Shopify module uses: its service, the webhook topics' registry, and orders for a sync. */
export type ShopifyDeps = OrdersDeps & { shopifyWebhooks: ShopifyWebhookRegistry };
