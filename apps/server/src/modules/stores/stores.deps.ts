import type { StorePublisher } from './store-publisher';

/** The stores that publish through a StorePublisher (EtsyService and WooCommerceService are ones). */
export type StoresDeps = { etsy: StorePublisher; woocommerce: StorePublisher };
