import { ErrorCode, platformLabel, type TStorePlatform } from '@podforge/contract';
import type { integrations } from '../../db/schema';
import { AppError, conflict } from '../../lib/errors';

/**
 * One store platform's side of a push: publish (create, or finish what an earlier attempt began), update the same
 * remote product, remove it. The push path (modules/products `pushToStore`, the push job, Update in store) calls a
 * platform through this interface, so adding a platform adds an adapter, not a branch in every caller.
 *
 * The bookkeeping every platform shares (the product's status, its `publications` row, the remote id recorded as soon
 * as the store gives one, the error kept on failure, the job that survives a restart) is the store-push job's
 * (modules/products/store-push.ts), the same for every platform.
 */

export type IntegrationRow = typeof integrations.$inferSelect;

/** What a store is sent: the listing, every variant with colour, size, SKU and price, the pictures main first. */
export type PushProduct = {
  id: string;
  title: string;
  description: string;
  tags: string[];
  productType: string;
  /** `id` is our variant's, so a publisher can record which remote variant is which (the store's order lines name them). */
  variants: { id: string; sku: string; color: string | null; size: string | null; option: string; price: string }[];
  /** Main picture first; `color` links a picture to that colour's variants. */
  images: { mockupId: string; color: string | null; main: boolean; read(): Promise<Buffer | null> }[];
};

export type PublishContext = {
  workspaceId: string;
  store: IntegrationRow;
  product: PushProduct;
  /** The remote product an earlier attempt recorded (null when none is known). */
  remoteProductId: string | null;
  /** When this push began (a lost create made after it may be ours). */
  startedAt: Date;
  /** Records the remote id on the publication at once, before anything else is sent to the store. */
  saveRemoteId(remoteProductId: string): Promise<void>;
  /** What the push is doing now, e.g. 'Uploading pictures (1 of 2)', shown while the push job runs. */
  progress?: (text: string) => Promise<void>;
};

/**
 * What the store made: its product id and URL, and (when the platform names them) its variant ids -> ours, which
 * the order intake matches a store order's lines by before SKUs.
 */
export type PublishOutcome = { remoteProductId: string; remoteUrl: string; remoteVariants?: Record<string, string> };

/** The platforms a store adapter exists for (the registry's keys). */
export type StorePlatformId = TStorePlatform;

/** The publishing half of the `StorePlatform` port (store-platform.ts). */
export interface StorePublisher {
  /** The registry's key: the `integrations.platform` of this adapter's stores. */
  readonly platform: StorePlatformId;
  /** What stops this product going to this store, in the seller's words; checked before anything is sent. */
  problems(store: IntegrationRow, product: PushProduct): Promise<string[]>;
  publish(ctx: PublishContext): Promise<PublishOutcome>;
  update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome>;
  remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void>;
  /** A store error as the seller should read it (an AppError), or the error unchanged. */
  toAppError(error: unknown): unknown;
  /**
   * Seconds between one product's push to this store and the next that keep a run of pushes within the store's
   * sustained limits (its calls per second, its cost bucket's refill); a spent day budget is the push's refusal with
   * `retryAfterSeconds`. A bulk run's scheduled pushes to a store are planned this far apart (modules/bulk).
   */
  pushPaceSeconds(store: IntegrationRow): number;
}

/** A pushed product as the store holds it now (what drift is found by): null in a list when it is gone. */
export type StoreListing = {
  remoteProductId: string;
  title: string;
  /** Buyers can see and buy it (in the store's own words: active, published...). */
  visible: boolean;
  variants: { sku: string | null; price: string }[];
};

/** A shipment as the printer reported it, for the store's buyer. */
export type Tracking = {
  carrier: string | null;
  number: string | null;
  url: string | null;
  /**
   * The order's lines this shipment carries (the store's line ids, with how many when not all): an adapter whose
   * store fulfils line by line fulfils these and nothing else. Absent: the order's lines that are
   * Podforge's, as the order intake matched them.
   */
  lines?: { remoteLineId: string; quantity?: number }[];
};

/** The store must be connected and verified; its platform's own setup is the publisher's concern. */
export function assertConnected(store: IntegrationRow) {
  if (store.status !== 'connected' || store.verifiedAt === null) {
    throw conflict(
      `${store.storeName ?? platformLabel(store.platform)} is not connected. Connect it in Integrations first.`,
    );
  }
}

/** A store error as the seller reads it: the publisher's own words, else a plain 502 naming the platform. */
export function refusalOf(publisher: StorePublisher, error: unknown): AppError {
  const mapped = publisher.toAppError(error);
  if (mapped instanceof AppError) return mapped;
  return new AppError(502, ErrorCode.Upstream, `${platformLabel(publisher.platform)}: the push failed unexpectedly`);
}
