import type { Db } from '../../db/db';
import type { RemoteListing } from '../../integrations/shopify/client';
import { afterListingRemoved } from '../products/product-status';
import {
  markPublicationRemoved,
  mockupLinksOf,
  type PublicationOnly,
  productOfPublication,
  publishedInStore,
  publishedWithRemoteId,
  recordRemoteChanges,
  variantsOf,
} from '../products/products.repository';
import { storesOfExternalId } from '../stores/store-connections.repository';

/**
 * What happened to a pushed product in the store (issue #10 point 6), from a webhook (products/delete,
 * products/update) or from Sync reading the listings back:
 * - deleted or archived there: the publication becomes `removed` with `remote_state`, and the product returns to
 *   ready (afterListingRemoved) when no other store lists it, so it can be pushed again;
 * - title or prices edited there: `remote_changes` lists them, shown on the product as 'Price changed in store'.
 *   Only while the product is unchanged in Podforge since the push (otherwise it shows 'Changes not in store').
 */

type Deps = { db: Db; now: () => Date };
type PublicationRow = PublicationOnly;

export type ListingChange = 'title' | 'price';
export type ListingState = { removed: 'deleted' | 'archived' } | { changes: ListingChange[] };

/** A listing as a products/update webhook carries it (the REST product resource). */
export type RestProduct = {
  id?: number;
  admin_graphql_api_id?: string;
  title?: string;
  status?: string;
  variants?: { price?: string; sku?: string | null }[];
};

export const productGid = (id: number | string) => `gid://shopify/Product/${id}`;

/** The shop's store rows (every workspace that connected it, in this mode: sandbox or real). */
export function storesOfShop(db: Db, shop: string, sandbox: boolean) {
  return storesOfExternalId(db, 'shopify', shop, sandbox);
}

/** Compares a listing with the product as pushed: which of title and prices the store changed. */
async function changesOf(
  db: Db,
  pub: PublicationRow,
  listing: { title: string; variants: { price: string; sku: string | null }[] },
): Promise<ListingChange[] | null> {
  const product = await productOfPublication(db, pub);
  if (!product) return null;
  // Edited in Podforge since the push: the store is expected to differ until 'Update in store'.
  if (!pub.publishedAt || product.contentUpdatedAt.getTime() > pub.publishedAt.getTime()) return null;
  const changes: ListingChange[] = [];
  if (listing.title.trim() !== product.title.trim()) changes.push('title');
  const prices = new Map(((await variantsOf(db, [product.id])).get(product.id) ?? []).map((v) => [v.sku, v.price]));
  const priceChanged = listing.variants.some((v) => {
    const ours = v.sku ? prices.get(v.sku) : undefined;
    return ours !== undefined && Number(ours).toFixed(2) !== Number(v.price).toFixed(2);
  });
  if (priceChanged) changes.push('price');
  return changes;
}

/** Applies what the store says of one published listing. */
export async function applyListingState(
  deps: Deps,
  pub: PublicationRow,
  state: ListingState,
): Promise<'removed' | 'changed' | 'same'> {
  const { db, now } = deps;
  if ('removed' in state) {
    if (!(await markPublicationRemoved(db, pub.id, state.removed, now()))) return 'same';
    const product = await productOfPublication(db, pub);
    if (product) {
      const [variants, links] = await Promise.all([variantsOf(db, [product.id]), mockupLinksOf(db, [product.id])]);
      await afterListingRemoved(
        db,
        product,
        {
          designId: product.designId,
          hasMockup: (links.get(product.id) ?? []).length > 0,
          title: product.title,
          description: product.description,
          variants: (variants.get(product.id) ?? []).map((v) => ({ price: Number(v.price) })),
        },
        now(),
      );
    }
    return 'removed';
  }
  await recordRemoteChanges(db, pub.id, state.changes, now());
  return state.changes.length > 0 ? 'changed' : 'same';
}

/** products/delete: `{ id }`. */
export async function onProductDeleted(deps: Deps, shop: string, sandbox: boolean, payload: unknown) {
  const id = (payload as RestProduct | null)?.id;
  if (id === undefined) return;
  const stores = await storesOfShop(deps.db, shop, sandbox);
  for (const pub of await publishedWithRemoteId(
    deps.db,
    stores.map((s) => s.id),
    productGid(id),
  )) {
    await applyListingState(deps, pub, { removed: 'deleted' });
  }
}

/** products/update: archived there, or title and prices compared with what was pushed. */
export async function onProductUpdated(deps: Deps, shop: string, sandbox: boolean, payload: unknown) {
  const product = payload as RestProduct | null;
  const gid = product?.admin_graphql_api_id ?? (product?.id !== undefined ? productGid(product.id) : undefined);
  if (!product || !gid) return;
  const stores = await storesOfShop(deps.db, shop, sandbox);
  for (const pub of await publishedWithRemoteId(
    deps.db,
    stores.map((s) => s.id),
    gid,
  )) {
    if (product.status?.toLowerCase() === 'archived') {
      await applyListingState(deps, pub, { removed: 'archived' });
      continue;
    }
    const changes = await changesOf(deps.db, pub, {
      title: product.title ?? '',
      variants: (product.variants ?? []).map((v) => ({ price: String(v.price ?? ''), sku: v.sku ?? null })),
    });
    if (changes) await applyListingState(deps, pub, { changes });
  }
}

/** Sync: each published listing of the store read back; what the store changed is recorded. */
export async function checkListings(
  deps: Deps,
  storeId: string,
  read: (ids: string[]) => Promise<(RemoteListing | null)[]>,
) {
  const pubs = (await publishedInStore(deps.db, storeId)).filter((p) => p.remoteProductId);
  const listings = pubs.length ? await read(pubs.map((p) => p.remoteProductId as string)) : [];
  const counts = { listingsChecked: pubs.length, listingsRemoved: 0, listingsChanged: 0 };
  for (const [i, pub] of pubs.entries()) {
    const listing = listings[i] ?? null;
    let outcome: 'removed' | 'changed' | 'same' = 'same';
    if (!listing) outcome = await applyListingState(deps, pub, { removed: 'deleted' });
    else if (listing.status === 'ARCHIVED') outcome = await applyListingState(deps, pub, { removed: 'archived' });
    else {
      const changes = await changesOf(deps.db, pub, { title: listing.title, variants: listing.variants.nodes });
      if (changes) outcome = await applyListingState(deps, pub, { changes });
    }
    if (outcome === 'removed') counts.listingsRemoved += 1;
    if (outcome === 'changed') counts.listingsChanged += 1;
  }
  return counts;
}
