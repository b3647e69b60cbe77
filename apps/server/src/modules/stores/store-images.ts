/**
 * A product picture a store downloads itself (a store that takes pictures by URL): served signed, without a
 * session, by `GET /api/store-images/:file` (registered by the adapter whose store asks for them).
 */
export const storeImagePath = (mockupId: string) => `/api/store-images/${mockupId}.png`;
