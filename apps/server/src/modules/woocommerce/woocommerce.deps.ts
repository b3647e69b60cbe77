import type { WooCommerceService } from './woocommerce.service';

export type WooCommerceDeps = { woocommerce: WooCommerceService };
