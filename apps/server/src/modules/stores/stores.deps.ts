import type { EtsyService } from '../etsy/etsy.service';
import type { WooCommerceService } from '../woocommerce/woocommerce.service';

/** The stores that publish through a StorePublisher. */
export type StoresDeps = { etsy: EtsyService; woocommerce: WooCommerceService };
