import { missingForReady, type TProductStatus } from '@podforge/contract';
import type { publications } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { type DbOrTx, isPublishedSomewhere, moveStatus, type ProductRow } from './products.repository';

/**
 * The product status machine (design.md 'Product status'), in one place:
 *   draft <-> ready      the seller's choice (ready needs what `missingForReady` lists)
 *   draft|ready|live -> processing   a store push claims the product
 *   processing -> live  a push succeeded (the product is in at least one store)
 *   processing -> the status it had  a push failed
 *   live -> ready|draft  its last store listing is gone (deleted or archived in the store)
 * Every change is a conditional update on the status it expects, so two instances never both move a product.
 */

export type PushableStatus = Exclude<TProductStatus, 'processing'>;

/** The seller may set draft or ready, never on a product a push holds or one whose status follows its listings. */
export function assertSellerMayEdit(row: ProductRow, statusChange: boolean): void {
  if (row.status === 'processing') {
    throw conflict(`"${row.title}" is being pushed to a store; try again when it is done`);
  }
  if (statusChange && row.status === 'live') {
    throw conflict(`"${row.title}" is live in a store; its status follows its store listings`);
  }
}

/** Claims the product for a push: processing, if it still has the status read. False when someone else moved it. */
export async function claimForPush(db: DbOrTx, row: ProductRow, now: Date): Promise<boolean> {
  return moveStatus(db, row, row.status, 'processing', now);
}

/** A push ended: live when the product is published in any store, else back to the status it had. */
export async function settlePush(
  db: DbOrTx,
  row: Pick<ProductRow, 'id' | 'workspaceId'>,
  previous: PushableStatus,
  now: Date,
): Promise<TProductStatus> {
  const status = (await isPublishedSomewhere(db, row)) ? 'live' : previous;
  await moveStatus(db, row, 'processing', status, now);
  return status;
}

/**
 * A store listing of a live product is gone (deleted or archived in the store): with no listing left the product
 * goes back to ready (draft when it no longer meets the ready rule), so it can be pushed again.
 */
export async function afterListingRemoved(
  db: DbOrTx,
  row: ProductRow,
  ready: Parameters<typeof missingForReady>[0],
  now: Date,
): Promise<TProductStatus> {
  if (row.status !== 'live' || (await isPublishedSomewhere(db, row))) return row.status;
  const status = missingForReady(ready).length === 0 ? 'ready' : 'draft';
  await moveStatus(db, row, 'live', status, now);
  return status;
}

/** The product's line in My Products for what the stores did: 'Deleted in store', 'Price changed in store'. */
export function storeNoticeOf(
  pubs: Pick<
    typeof publications.$inferSelect,
    'status' | 'remoteState' | 'remoteChanges' | 'remoteCheckedAt' | 'publishedAt'
  >[],
): string | null {
  const removed = pubs.filter((p) => p.status === 'removed');
  if (!pubs.some((p) => p.status === 'published') && removed.length > 0) {
    return removed.some((p) => p.remoteState === 'deleted') ? 'Deleted in store' : 'Archived in store';
  }
  const changes = new Set(
    pubs
      .filter(
        (p) =>
          p.status === 'published' &&
          p.remoteCheckedAt &&
          p.publishedAt &&
          p.remoteCheckedAt.getTime() >= p.publishedAt.getTime(),
      )
      .flatMap((p) => p.remoteChanges ?? []),
  );
  if (changes.has('title') && changes.has('price')) return 'Title and price changed in store';
  if (changes.has('price')) return 'Price changed in store';
  if (changes.has('title')) return 'Title changed in store';
  return null;
}
