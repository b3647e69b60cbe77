import { ErrorCode, platformLabel } from '@podforge/contract';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  type integrations,
  mockups,
  productMockups,
  type products,
  productVariants,
  publications,
} from '../../db/schema';
import { AppError, conflict } from '../../lib/errors';
import type { Storage } from '../../storage/storage';
import { afterListingRemoved, claimForPush, settlePush } from '../products/product-status';

/**
 * One store platform's side of a push: publish (create, or finish what an earlier attempt began), update the same
 * remote product, remove it. The push path (modules/products `pushToStore`, the push job, Update in store) calls a
 * platform through this interface, so adding a platform adds a publisher, not a branch in every caller.
 *
 * `runPublish` / `runUpdate` / `runRemove` keep the bookkeeping every platform shares: the product's status
 * (processing while a push is in flight, live after, the previous status back on failure) and its `publications`
 * row (remote id recorded as soon as the store gives one, the error kept on failure).
 */

export type IntegrationRow = typeof integrations.$inferSelect;
type ProductRow = typeof products.$inferSelect;

/** What a store is sent: the listing, every variant with colour, size, SKU and price, the pictures main first. */
export type PushProduct = {
  id: string;
  title: string;
  description: string;
  tags: string[];
  productType: string;
  variants: { sku: string; color: string | null; size: string | null; option: string; price: string }[];
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
  /** What the push is doing now, e.g. 'Uploading pictures (1 of 2)', for a push job to show; optional. */
  progress?: (text: string) => void;
};

export type PublishOutcome = { remoteProductId: string; remoteUrl: string };

export interface StorePublisher {
  readonly platform: 'etsy' | 'woocommerce';
  /** What stops this product going to this store, in the seller's words; checked before anything is sent. */
  problems(store: IntegrationRow, product: PushProduct): Promise<string[]>;
  publish(ctx: PublishContext): Promise<PublishOutcome>;
  update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome>;
  remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void>;
  /** A store error as the seller should read it (an AppError), or the error unchanged. */
  toAppError(error: unknown): unknown;
}

type Deps = { db: Db; storage: Storage; now: () => Date };

/** The product as stores are sent it. */
export async function loadPushProduct(deps: Deps, workspaceId: string, row: ProductRow): Promise<PushProduct> {
  const variants = await deps.db
    .select()
    .from(productVariants)
    .where(and(eq(productVariants.productId, row.id), eq(productVariants.workspaceId, workspaceId)))
    .orderBy(asc(productVariants.position));
  if (variants.length === 0) throw conflict(`"${row.title}" has no variants to sell`);
  const pictures = await deps.db
    .select({
      mockupId: productMockups.mockupId,
      color: productMockups.color,
      main: productMockups.main,
      storageKey: mockups.storageKey,
    })
    .from(productMockups)
    .innerJoin(mockups, eq(mockups.id, productMockups.mockupId))
    .where(and(eq(productMockups.productId, row.id), eq(productMockups.workspaceId, workspaceId)))
    .orderBy(desc(productMockups.main), asc(productMockups.position));
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    tags: row.tags,
    productType: row.productType,
    variants: variants.map((v) => ({
      sku: v.sku ?? `PF-${row.id.slice(0, 8)}-${v.position}`,
      color: v.color,
      size: v.size,
      option: v.option,
      price: v.price,
    })),
    images: pictures.map((p) => ({
      mockupId: p.mockupId,
      color: p.color,
      main: p.main,
      read: () => deps.storage.read(p.storageKey),
    })),
  };
}

/** The store must be connected and verified; its platform's own setup is the publisher's concern. */
export function assertConnected(store: IntegrationRow) {
  if (store.status !== 'connected' || store.verifiedAt === null) {
    throw conflict(
      `${store.storeName ?? platformLabel(store.platform)} is not connected. Connect it in Integrations first.`,
    );
  }
}

const publicationOf = (workspaceId: string, productId: string, integrationId: string) =>
  and(
    eq(publications.productId, productId),
    eq(publications.integrationId, integrationId),
    eq(publications.workspaceId, workspaceId),
  );

async function contextFor(
  deps: Deps,
  workspaceId: string,
  store: IntegrationRow,
  product: PushProduct,
): Promise<PublishContext> {
  const where = publicationOf(workspaceId, product.id, store.id);
  const [pub] = await deps.db.select().from(publications).where(where);
  return {
    workspaceId,
    store,
    product,
    remoteProductId: pub?.remoteProductId ?? null,
    startedAt: deps.now(),
    saveRemoteId: async (remoteProductId) => {
      await deps.db.update(publications).set({ remoteProductId, updatedAt: deps.now() }).where(where);
    },
  };
}

function refusalOf(publisher: StorePublisher, error: unknown): AppError {
  const mapped = publisher.toAppError(error);
  if (mapped instanceof AppError) return mapped;
  return new AppError(502, ErrorCode.Upstream, `${platformLabel(publisher.platform)}: the push failed unexpectedly`);
}

/**
 * A push to one store: the product goes to processing and its publication with it, the publisher creates the
 * remote product (or finishes the one an earlier attempt recorded), then published and live. A failure puts the
 * previous status back, keeps the error on the publication and throws it as the seller should read it.
 */
export async function runPublish(
  deps: Deps,
  publisher: StorePublisher,
  workspaceId: string,
  row: ProductRow,
  previousStatus: 'draft' | 'ready' | 'live',
  store: IntegrationRow,
): Promise<{ remoteProductId: string; remoteUrl: string }> {
  assertConnected(store);
  const product = await loadPushProduct(deps, workspaceId, row);
  const problems = await publisher.problems(store, product);
  if (problems.length > 0) {
    throw new AppError(422, ErrorCode.Unprocessable, `${platformLabel(publisher.platform)}: ${problems.join(' ')}`);
  }
  const { db, now } = deps;
  if (!(await claimForPush(db, row, now()))) throw conflict(`"${row.title}" is being pushed to a store already`);
  await db
    .insert(publications)
    .values({ workspaceId, productId: row.id, integrationId: store.id, status: 'processing' })
    .onConflictDoUpdate({
      target: [publications.productId, publications.integrationId],
      set: { status: 'processing', error: null, updatedAt: now() },
    });
  const where = publicationOf(workspaceId, row.id, store.id);
  try {
    const ctx = await contextFor(deps, workspaceId, store, product);
    const outcome = await publisher.publish(ctx);
    const at = now();
    await db.transaction(async (tx) => {
      await tx
        .update(publications)
        .set({
          status: 'published',
          remoteProductId: outcome.remoteProductId,
          remoteUrl: outcome.remoteUrl,
          error: null,
          publishedAt: at,
          updatedAt: at,
        })
        .where(where);
      await settlePush(tx, row, previousStatus, at);
    });
    return outcome;
  } catch (error) {
    const refusal = refusalOf(publisher, error);
    await db.transaction(async (tx) => {
      await tx.update(publications).set({ status: 'failed', error: refusal.message, updatedAt: now() }).where(where);
      await settlePush(tx, row, previousStatus, now());
    });
    throw refusal;
  }
}

/** 'Update in store': the same remote product gets the product as it is now; its published time moves on. */
export async function runUpdate(
  deps: Deps,
  publisher: StorePublisher,
  workspaceId: string,
  row: ProductRow,
  store: IntegrationRow,
): Promise<{ remoteProductId: string; remoteUrl: string }> {
  assertConnected(store);
  const product = await loadPushProduct(deps, workspaceId, row);
  const ctx = await contextFor(deps, workspaceId, store, product);
  const remoteProductId = ctx.remoteProductId;
  if (!remoteProductId) throw conflict(`"${row.title}" is not in ${store.storeName ?? store.externalId} yet`);
  const problems = await publisher.problems(store, product);
  if (problems.length > 0) {
    throw new AppError(422, ErrorCode.Unprocessable, `${platformLabel(publisher.platform)}: ${problems.join(' ')}`);
  }
  try {
    const outcome = await publisher.update({ ...ctx, remoteProductId });
    const at = deps.now();
    await deps.db
      .update(publications)
      .set({ status: 'published', remoteUrl: outcome.remoteUrl, error: null, publishedAt: at, updatedAt: at })
      .where(publicationOf(workspaceId, row.id, store.id));
    return outcome;
  } catch (error) {
    throw refusalOf(publisher, error);
  }
}

/** Removes (or archives) the remote product; the publication row goes, so the product may be pushed again later. */
export async function runRemove(
  deps: Deps,
  publisher: StorePublisher,
  workspaceId: string,
  row: ProductRow,
  store: IntegrationRow,
  mode: 'delete' | 'archive',
): Promise<void> {
  assertConnected(store);
  const product = await loadPushProduct(deps, workspaceId, row);
  const ctx = await contextFor(deps, workspaceId, store, product);
  const remoteProductId = ctx.remoteProductId;
  if (remoteProductId) {
    try {
      await publisher.remove({ ...ctx, remoteProductId }, mode);
    } catch (error) {
      throw refusalOf(publisher, error);
    }
  }
  await deps.db.delete(publications).where(publicationOf(workspaceId, row.id, store.id));
  await afterListingRemoved(
    deps.db,
    row,
    {
      designId: row.designId,
      hasMockup: product.images.length > 0,
      title: row.title,
      description: row.description,
      variants: product.variants.map((v) => ({ price: Number(v.price) })),
    },
    deps.now(),
  );
}
