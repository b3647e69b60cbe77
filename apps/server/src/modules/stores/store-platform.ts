import type { IncomingOrder } from './incoming-order';
import type { IntegrationRow, StoreListing, StorePlatformId, StorePublisher, Tracking } from './store-publisher';

/**
 * The `StorePlatform` port: what Podforge asks of any store system (Shopify, Etsy, WooCommerce, Amazon). Each
 * adapter is a module's service over its `integrations/<system>/` client, registered here by its `platform`, as
 * medusa registers fulfilment providers by a static identifier; push and order code asks the registry and never
 * names a platform. `test/store-platform.contract.test.ts` is the suite every adapter passes, against its fake.
 */
export interface StorePlatform extends StorePublisher {
  /** The connection still works (an authenticated read); throws the store's refusal otherwise (map with toAppError). */
  verify(store: IntegrationRow): Promise<void>;
  /**
   * Drift: the listings as the store holds them now, in the order asked, null for one deleted in the store; what
   * the seller changed there (hidden, retitled, repriced) is read against the product.
   */
  listings(store: IntegrationRow, remoteProductIds: string[]): Promise<(StoreListing | null)[]>;
  /**
   * Orders read from the store (Sync, a poll): those paid, or cancelled, that changed at or after `since`, in the one
   * shape the order intake stores once. (A store that pushes orders by webhook maps the same payload the same way.)
   */
  readOrders(store: IntegrationRow, since: Date): Promise<IncomingOrder[]>;
  /**
   * A shipped order's tracking to the store, which tells the buyer; done once (a retry after a lost answer finds
   * what the first call made). Answers the store's id for it, kept on the order. A refusal no retry can mend is an
   * AppError 4xx with the store's reason.
   */
  sendTracking(store: IntegrationRow, remoteOrderId: string, tracking: Tracking): Promise<string>;
}

/** Every store adapter of the app, by platform id. */
export class StorePlatforms {
  private readonly byId = new Map<string, StorePlatform>();

  constructor(adapters: StorePlatform[]) {
    for (const adapter of adapters) {
      if (this.byId.has(adapter.platform)) throw new Error(`Two store adapters for ${adapter.platform}`);
      this.byId.set(adapter.platform, adapter);
    }
  }

  /** The adapter of a store's platform, or null when Podforge has none. */
  get(platform: string): StorePlatform | null {
    return this.byId.get(platform) ?? null;
  }

  /** Every adapter, in registration order (the contract suite runs over them). */
  all(): StorePlatform[] {
    return [...this.byId.values()];
  }

  ids(): StorePlatformId[] {
    return this.all().map((a) => a.platform);
  }
}
