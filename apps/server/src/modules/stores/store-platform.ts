import type { IncomingOrder } from './incoming-order';
import type { IntegrationRow, StoreListing, StorePlatformId, StorePublisher, Tracking } from './store-publisher';

/**
 * The `StorePlatform` port: what Podforge asks of any store system (the registry in deps.ts lists them). Each
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
  /**
   * Where this adapter hands the orders its store tells of, whichever way they come (a webhook it received, a periodic
   * read, the seller's Sync), each mapped by the adapter to an IncomingOrder: the orders module's one intake, which
   * names no platform. Set once when the app is built (`StorePlatforms.onOrders`).
   */
  onOrders(intake: StoreOrderIntake): void;
}

/** Orders a store told of, to be taken once. */
export type StoreOrders = {
  store: IntegrationRow;
  orders: IncomingOrder[];
  /**
   * 'delivered' (a webhook, a periodic read): a paid order of a connected store is taken, a cancelled one cancels the
   * order held (if any). 'sync' (the seller asked to read the store): every order read is stored once, a cancelled one
   * that was never held as cancelled, whatever the store's status.
   */
  via: 'delivered' | 'sync';
};

/** What a store may ask of the buyers' data Podforge holds (a privacy request): their addresses erased. */
export type BuyerErasure = { customerId: string | null; remoteOrderIds: string[] } | 'all';

/** The orders module's side of the port: what adapters hand orders to. */
export interface StoreOrderIntake {
  /** Stores each order once (unique per store and remote order), sending new ones of ours to the printer; answers how many were new. */
  take(batch: StoreOrders): Promise<{ created: number }>;
  /** Erases the buyer data of these stores' orders: of one customer and these orders, or of every order. */
  erase(stores: IntegrationRow[], what: BuyerErasure): Promise<void>;
}

/**
 * What every store adapter has for orders, extended by each: the slot of the intake it hands them to (answers it, or
 * fails loudly when the app was built without one), and the readers told when a store may have orders now (an
 * adapter whose orders are read, not pushed (no webhook): its job's module registers one).
 */
export abstract class StoreOrderSource {
  private orderIntake: StoreOrderIntake | null = null;
  private readonly orderReaders: ((row: IntegrationRow) => Promise<void>)[] = [];

  /** Where the store's orders, whichever way they come, are handed: the order intake (set once, at build). */
  onOrders(intake: StoreOrderIntake): void {
    this.orderIntake = intake;
  }

  intake(): StoreOrderIntake {
    if (!this.orderIntake) throw new Error('No order intake: the app registers one when it is built (deps.ts)');
    return this.orderIntake;
  }

  /** Adds a reader of the stores' orders, told when a store may have orders now (connected, reconnected). */
  onOrdersToRead(reader: (row: IntegrationRow) => Promise<void>) {
    this.orderReaders.push(reader);
  }

  protected async ordersToRead(row: IntegrationRow) {
    for (const reader of this.orderReaders) await reader(row);
  }
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

  /** Every adapter hands its stores' orders to this intake (the orders module's). */
  onOrders(intake: StoreOrderIntake): void {
    for (const adapter of this.all()) adapter.onOrders(intake);
  }

  ids(): StorePlatformId[] {
    return this.all().map((a) => a.platform);
  }
}
