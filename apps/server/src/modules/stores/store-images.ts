/**
 * A product picture a store downloads itself (WooCommerce by URL, Amazon's image locators): served signed, without a
 * session, by `GET /api/store-images/:file` (woocommerce.routes.ts).
 */
export const storeImagePath = (mockupId: string) => `/api/store-images/${mockupId}.png`;
