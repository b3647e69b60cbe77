import type { StorePlatforms } from './store-platform';

/** Every store adapter, by platform: push, update, remove, orders and tracking go through the StorePlatform port. */
export type StoresDeps = { stores: StorePlatforms };
