import { randomUUID } from 'node:crypto';
import {
  DEFAULT_ADJUSTMENTS,
  DEFAULT_CATALOG_PRODUCT,
  DEFAULT_FULFILMENT_NETWORK,
  missingForReady,
  PRODUCT_TITLE_MAX,
  platformLabel,
  STORE_PLATFORMS,
  skuFor,
  type TCatalogProductDetail,
  type TDeleteProductStore,
  type TProduct,
  type TProductDetail,
  type TProductPage,
  type TProductStatus,
  type TPublishResult,
  type TPushStates,
  type TStorePlatform,
  type TStoreUploadPending,
  type TStoreUploadResult,
  type TVariant,
  type TVariantChoice,
  type ZCreateProduct,
  type ZProductListQuery,
  type ZUpdateProduct,
} from '@podforge/contract';
import type { z } from 'zod';
import type { integrations } from '../../db/schema';
import { AppError, badRequest, conflict, notFound, notImplemented } from '../../lib/errors';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { ReadCache } from '../../lib/read-cache';
import { UUID } from '../../lib/uuid';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import { findDesign } from '../designs/designs.repository';
import { deletePrintFiles, printFilesOf } from '../print-files/print-files.service';
import { catalogueFor } from '../printers/printer-catalogue';
import { findStoreConnections, storesOfWorkspace } from '../stores/store-connections.repository';
import { assertSellerMayEdit, type PushableStatus, storeNoticeOf } from './product-status';
import {
  assertPrices,
  catalogColours,
  freeTextVariants,
  matchCatalogColour,
  repriceFromOne,
  variantsFromChoices,
  variantsFromLegacy,
} from './product-variants';
import type { ProductsDeps } from './products.deps';
import {
  type DbOrTx,
  deleteProductRow,
  findMockups,
  findProduct,
  insertProductRow,
  type ListedLink,
  type ListedProduct,
  type ListedPublication,
  type ListedVariant,
  listProductPage,
  type MockupRow,
  mockupLinksOf,
  type NewMockupLink,
  type NewVariant,
  type ProductRow,
  productExists,
  publicationMovedSince,
  publicationsOf,
  replaceMockupLinks,
  replaceVariants,
  updateProductRow,
  variantsOf,
} from './products.repository';
import { assertPushable } from './push-product';
import { deferredUntil, pushFailure, startPush, startRemovals, toPushState, waitForPush } from './store-push';

type CreateInput = z.output<typeof ZCreateProduct>;
type UpdateInput = z.output<typeof ZUpdateProduct>;

const mockupFileUrl = (id: string) => `/api/mockups/${id}/file`;
const mockupPreviewUrl = (id: string) => `/api/mockups/${id}/preview`;
const lowestPrice = (variants: { price: string }[]) =>
  variants.length ? Math.min(...variants.map((v) => Number(v.price))) : 0;

/** A small picture of the product for lists: its main mockup's 512 px preview, else its design's thumbnail. */
export function productThumbnailUrl(mainMockupId: string | null, designId: string | null): string | null {
  if (mainMockupId) return mockupPreviewUrl(mainMockupId);
  return designId ? `/api/designs/${designId}/file/thumbnail` : null;
}

/** The one mapper from rows to the API's product: URLs are built here from keys, never stored. */
export function toProduct(
  row: ListedProduct['row'],
  variants: ListedVariant[],
  links: ListedLink[],
  pubs: ListedPublication[],
): TProduct {
  const main = links.find((l) => l.main) ?? links[0];
  const published = pubs.filter((p) => p.status === 'published' && p.publishedAt);
  const newest = published.at(-1);
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: Number(row.price),
    tags: row.tags,
    productType: row.productType,
    catalogProductId: row.catalogProductId,
    provider: row.provider,
    placements: row.placements,
    variants: variants.map((v) => ({
      id: v.id,
      catalogVariantId: v.catalogVariantId,
      option: v.option,
      color: v.color,
      colorHex: v.colorHex,
      size: v.size,
      baseCost: v.baseCost === null ? null : Number(v.baseCost),
      price: Number(v.price),
      sku: v.sku,
    })),
    mockups: links.map((l) => ({
      id: l.mockupId,
      color: l.color,
      url: mockupFileUrl(l.mockupId),
      previewUrl: mockupPreviewUrl(l.mockupId),
      main: l === main,
    })),
    mockupUrl: main ? mockupFileUrl(main.mockupId) : null,
    status: row.status,
    designId: row.designId,
    designThumbnailUrl: row.designId ? `/api/designs/${row.designId}/file/thumbnail` : null,
    thumbnailUrl: productThumbnailUrl(main?.mockupId ?? null, row.designId),
    storeUrl: newest?.remoteUrl ?? null,
    liveOn: [...new Set(published.map((p) => p.platform))],
    changesNotInStore:
      row.status === 'live' &&
      published.some((p) => (p.publishedAt as Date).getTime() < row.contentUpdatedAt.getTime()),
    storeNotice: storeNoticeOf(pubs),
    storeCopies: pubs.map((p) => ({
      integrationId: p.integrationId,
      platform: p.platform,
      storeName: p.storeName ?? null,
      status: p.status,
      url: p.status === 'published' ? p.remoteUrl : null,
      error: p.error,
      waiting: deferredUntil(p) ? p.progress : null,
      resumesAt: deferredUntil(p)?.toISOString() ?? null,
      changesNotInStore:
        p.status === 'published' && p.publishedAt !== null && p.publishedAt.getTime() < row.contentUpdatedAt.getTime(),
      listing: p.listingState ? { state: p.listingState, issues: p.listingIssues ?? [] } : null,
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function loadProducts(db: DbOrTx, rows: ProductRow[]): Promise<TProduct[]> {
  const ids = rows.map((r) => r.id);
  const [variants, links, pubs] = await Promise.all([
    variantsOf(db, ids),
    mockupLinksOf(db, ids),
    publicationsOf(db, ids),
  ]);
  return rows.map((r) => toProduct(r, variants.get(r.id) ?? [], links.get(r.id) ?? [], pubs.get(r.id) ?? []));
}

export async function productById(deps: ProductsDeps, workspaceId: string, id: string): Promise<TProduct> {
  const [product] = await loadProducts(deps.db, [await findProduct(deps.db, workspaceId, id)]);
  if (!product) throw notFound('Product');
  return product;
}

/** `GET /api/products/:id`: the product and its print files (signed URLs on `origin`). */
export async function getProduct(
  deps: ProductsDeps,
  workspaceId: string,
  id: string,
  origin: string,
): Promise<TProductDetail> {
  const row = await findProduct(deps.db, workspaceId, id);
  const [product] = await loadProducts(deps.db, [row]);
  if (!product) throw notFound('Product');
  return { ...product, printFiles: await printFilesOf(deps, row, origin) };
}

/** List pages kept until the workspace's data next changes (`lib/read-cache.ts`), per database. */
const listPages = new WeakMap<ProductsDeps['database'], ReadCache<TProductPage>>();

export async function listProducts(
  deps: ProductsDeps,
  workspaceId: string,
  query: z.output<typeof ZProductListQuery>,
): Promise<TProductPage> {
  let cache = listPages.get(deps.database);
  if (!cache) {
    cache = new ReadCache<TProductPage>();
    listPages.set(deps.database, cache);
  }
  const version = await deps.database.readVersionOf(workspaceId);
  const key = JSON.stringify([workspaceId, query.search, query.status, query.type, query.page, query.pageSize]);
  return cache.read(key, version, async () => {
    const { items, total } = await listProductPage(deps.db, workspaceId, query, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    });
    return {
      items: items.map((p) => toProduct(p.row, p.variants, p.links, p.pubs)),
      page: query.page,
      pageSize: query.pageSize,
      total,
      totalPages: Math.ceil(total / query.pageSize),
    };
  });
}

async function assertDesign(deps: ProductsDeps, workspaceId: string, designId: string) {
  await findDesign(deps.db, workspaceId, designId);
}

/** The catalogue product a product is printed on: the one named, else its type's default; null for none. */
async function resolveCatalog(
  deps: ProductsDeps,
  workspaceId: string,
  productType: string,
  catalogProductId: number | null | undefined,
  provider: string = DEFAULT_FULFILMENT_NETWORK,
): Promise<TCatalogProductDetail | null> {
  // A type's default blank is the default network's; another network's product names its own.
  const defaultNetwork = provider === DEFAULT_FULFILMENT_NETWORK;
  const id = catalogProductId ?? (defaultNetwork ? DEFAULT_CATALOG_PRODUCT[productType] : undefined);
  if (id === undefined) {
    if (!defaultNetwork)
      throw badRequest(`catalogProductId: choose the ${platformLabel(provider)} product to print on`);
    return null;
  }
  return getCatalogProductDetail(await catalogueFor(deps, provider, workspaceId), id);
}

/** `/api/mockups/<id>/file` or `/preview`, relative or absolute: the id it names, else null. */
function mockupIdFromUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://podforge.local').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/mockups\/([^/]+)\/(file|preview)$/.exec(pathname);
  return match?.[1] && UUID.test(match[1]) ? match[1] : null;
}

/** The catalogue colour a mockup shows (its template colour matched by name, else by hex). */
function mockupColour(mockup: MockupRow, detail: TCatalogProductDetail | null): string | null {
  if (!detail || !mockup.color) return null;
  const set = TEMPLATE_SETS[mockup.productType as keyof typeof TEMPLATE_SETS];
  const colour = set?.colors.find((c) => c.id === mockup.color);
  return colour ? matchCatalogColour(colour, catalogColours(detail)) : null;
}

type MockupInput = { mockupId?: string | undefined; mockupIds?: string[] | undefined; mockupUrl?: string | undefined };

/**
 * The mockups a create or update names, as links: `mockupIds` (all of them) and `mockupId` (the main one), or the
 * spec's `mockupUrl`. Another workspace's or an unknown id is 404; a mockup of another design is 400. Undefined
 * when the input names none (an update then keeps the links it has).
 */
async function resolveMockupLinks(
  deps: ProductsDeps,
  workspaceId: string,
  input: MockupInput,
  designId: string | null,
  detail: TCatalogProductDetail | null,
): Promise<NewMockupLink[] | undefined> {
  let mainId = input.mockupId;
  if (!mainId && input.mockupUrl) {
    mainId = mockupIdFromUrl(input.mockupUrl) ?? undefined;
    const found = mainId ? await findMockups(deps.db, workspaceId, [mainId]) : [];
    if (!found.length) {
      throw badRequest('mockupUrl: is not the URL of a mockup of this workspace (/api/mockups/<id>/file)');
    }
  }
  const ids = [...new Set([...(mainId ? [mainId] : []), ...(input.mockupIds ?? [])])];
  if (ids.length === 0) return input.mockupIds ? [] : undefined;
  const rows = await findMockups(deps.db, workspaceId, ids);
  if (rows.length !== ids.length) throw notFound('Mockup');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = [...(input.mockupIds ?? []), ...(mainId && !input.mockupIds?.includes(mainId) ? [mainId] : [])];
  const main = mainId ?? ordered[0];
  return ordered.map((id) => {
    const row = byId.get(id) as MockupRow;
    if (row.designId !== designId) throw badRequest('mockup: shows another design than the product');
    return { mockupId: id, color: mockupColour(row, detail), main: id === main };
  });
}

function assertReady(p: {
  designId: string | null;
  hasMockup: boolean;
  title: string;
  description: string;
  variants: { price: string }[];
}) {
  const missing = missingForReady({ ...p, variants: p.variants.map((v) => ({ price: Number(v.price) })) });
  if (missing.length) throw badRequest(`status: a ready product needs ${missing.join(', ')}`);
}

const isChoices = (variants: TVariant[] | TVariantChoice[]): variants is TVariantChoice[] =>
  variants.length > 0 && 'catalogVariantId' in (variants[0] as object);

/** The variants of a product from what was sent, by the catalogue's rules (see product-variants.ts). */
function buildVariants(
  productId: string,
  detail: TCatalogProductDetail | null,
  sent: TVariant[] | TVariantChoice[],
  price: number | undefined,
  links: NewMockupLink[],
): NewVariant[] {
  if (isChoices(sent)) {
    if (!detail) throw badRequest('variants: catalogue variants need a catalogue product (catalogProductId)');
    return variantsFromChoices(productId, detail, sent);
  }
  const legacy = sent as TVariant[];
  if (!detail) {
    return freeTextVariants(
      legacy.length ? legacy : [{ option: 'Default', price: price && price > 0 ? price : 25, sku: undefined }],
    );
  }
  const colours = [...new Set(links.map((l) => l.color).filter((c): c is string => c !== null))];
  return variantsFromLegacy(productId, detail, legacy, price, colours);
}

/** The placement printed: the one chosen (400 when the catalogue product has no such placement), else its first. */
function placementsOf(detail: TCatalogProductDetail | null, chosen?: string | undefined) {
  const found = chosen ? detail?.placements.find((p) => p.placement === chosen) : detail?.placements[0];
  if (chosen && !found) {
    throw badRequest(`placement: ${detail?.name ?? 'this product'} has no placement '${chosen}'`);
  }
  return found ? [{ placement: found.placement, technique: found.technique }] : [];
}

export type PreparedCreate = {
  id: string;
  detail: TCatalogProductDetail | null;
  variants: NewVariant[];
  links: NewMockupLink[];
  placements: { placement: string; technique: string }[];
  adjustments: Record<string, number>;
};

/**
 * Checks a create against the workspace and the catalogue before anything is stored: the design (when given by
 * id), the catalogue product, the mockups, the variants and their prices, and the ready rule. `designId` null
 * means a file comes with the request, so no mockup can show it yet.
 */
export async function prepareCreate(
  deps: ProductsDeps,
  workspaceId: string,
  input: CreateInput,
  designId: string | null,
): Promise<PreparedCreate> {
  if (designId) await assertDesign(deps, workspaceId, designId);
  const detail = await resolveCatalog(deps, workspaceId, input.productType, input.catalogProductId, input.provider);
  const links = (await resolveMockupLinks(deps, workspaceId, input, designId, detail)) ?? [];
  const id = randomUUID();
  const variants = buildVariants(id, detail, input.variants, input.price, links);
  if (variants.length === 0) throw badRequest('variants: the product needs at least one variant');
  assertPrices(variants);
  if (input.status === 'ready') {
    assertReady({
      ...input,
      designId: designId ?? 'uploaded with this request',
      hasMockup: links.length > 0,
      variants,
    });
  }
  const placements = placementsOf(detail, input.placement);
  const mainId = links.find((l) => l.main)?.mockupId;
  const [main] = mainId ? await findMockups(deps.db, workspaceId, [mainId]) : [];
  return { id, detail, variants, links, placements, adjustments: main?.adjustments ?? { ...DEFAULT_ADJUSTMENTS } };
}

/** Writes the product, its variants and its mockup links in one transaction. */
export async function insertProduct(
  deps: ProductsDeps,
  workspaceId: string,
  input: CreateInput,
  prepared: PreparedCreate,
  designId: string,
): Promise<TProduct> {
  const row = await deps.db.transaction(async (tx) => {
    const now = deps.now();
    const inserted = await insertProductRow(tx, {
      id: prepared.id,
      workspaceId,
      title: input.title,
      description: input.description,
      price: lowestPrice(prepared.variants).toFixed(2),
      tags: input.tags,
      productType: input.productType,
      status: input.status,
      designId,
      catalogProductId: prepared.detail?.id ?? null,
      provider: input.provider,
      placements: prepared.placements,
      adjustments: prepared.adjustments,
      createdAt: now,
      updatedAt: now,
      contentUpdatedAt: now,
    });
    await replaceVariants(tx, workspaceId, inserted.id, prepared.variants);
    await replaceMockupLinks(tx, workspaceId, inserted.id, prepared.links);
    return inserted;
  });
  return productById(deps, workspaceId, row.id);
}

const CONTENT_FIELDS = [
  'title',
  'description',
  'price',
  'tags',
  'productType',
  'variants',
  'designId',
  'placement',
] as const;

/**
 * Changes what is sent and nothing else. `variants` sent are the whole set of enabled variants (SKUs stay, since
 * they follow the product and catalogue variant); `price` alone reprices every variant from the cheapest one;
 * `catalogProductId` changes the blank and needs its variants. A ready product must stay ready-worthy (400 naming
 * what would be missing). A live product may be edited: it then has changes not in the store.
 */
export async function updateProduct(
  deps: ProductsDeps,
  workspaceId: string,
  id: string,
  input: UpdateInput,
): Promise<TProduct> {
  const row = await findProduct(deps.db, workspaceId, id);
  assertSellerMayEdit(row, input.status !== undefined);
  const designId = input.designId ?? row.designId;
  const designChanged = input.designId !== undefined && input.designId !== row.designId;
  if (designChanged && input.designId) await assertDesign(deps, workspaceId, input.designId);
  const provider = input.provider ?? row.provider;
  const catalogChanged =
    (input.catalogProductId !== undefined && input.catalogProductId !== row.catalogProductId) ||
    provider !== row.provider;
  if (catalogChanged && !input.variants) {
    throw badRequest('variants: choose the variants of the new catalogue product');
  }
  const productType = input.productType ?? row.productType;
  const detail = await resolveCatalog(
    deps,
    workspaceId,
    productType,
    input.catalogProductId ?? (provider === row.provider ? row.catalogProductId : undefined),
    provider,
  );
  const currentLinks = (await mockupLinksOf(deps.db, [row.id])).get(row.id) ?? [];
  const sentLinks = await resolveMockupLinks(deps, workspaceId, input, designId, detail);
  if (!sentLinks && designChanged && currentLinks.length > 0) {
    throw badRequest('mockupId: the product has mockups of its old design; send mockups of the new design');
  }
  const links = sentLinks ?? currentLinks.map((l) => ({ mockupId: l.mockupId, color: l.color, main: l.main }));
  const current = (await variantsOf(deps.db, [row.id])).get(row.id) ?? [];
  let variants: NewVariant[] | undefined;
  if (input.variants) {
    variants = buildVariants(row.id, detail, input.variants, input.price, links);
    if (variants.length === 0) throw badRequest('variants: the product needs at least one variant');
  } else if (input.price !== undefined) {
    variants = repriceFromOne(current, input.price);
  }
  if (variants) assertPrices(variants);
  const status: TProductStatus = input.status ?? row.status;
  if (status === 'ready') {
    assertReady({
      designId,
      hasMockup: links.length > 0,
      title: input.title ?? row.title,
      description: input.description ?? row.description,
      variants: variants ?? current,
    });
  }
  const contentChanged = CONTENT_FIELDS.some((f) => input[f] !== undefined) || sentLinks !== undefined;
  const mainId = links.find((l) => l.main)?.mockupId;
  const [main] = sentLinks && mainId ? await findMockups(deps.db, workspaceId, [mainId]) : [];
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    await updateProductRow(tx, workspaceId, id, {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.tags !== undefined ? { tags: input.tags } : {}),
      ...(input.productType !== undefined ? { productType: input.productType } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      ...(variants ? { price: lowestPrice(variants).toFixed(2) } : {}),
      ...(catalogChanged ? { catalogProductId: detail?.id ?? null, provider } : {}),
      ...(catalogChanged || input.placement ? { placements: placementsOf(detail, input.placement) } : {}),
      ...(main ? { adjustments: main.adjustments } : {}),
      designId,
      updatedAt: now,
      ...(contentChanged ? { contentUpdatedAt: now } : {}),
    });
    if (variants) await replaceVariants(tx, workspaceId, id, variants);
    if (sentLinks) await replaceMockupLinks(tx, workspaceId, id, sentLinks);
  });
  return productById(deps, workspaceId, id);
}

/**
 * Deletes a product. A live product's store listings go with it as the seller chose: archived or deleted in each
 * store, or kept (`store`); without a choice a live product is refused (409), so nothing leaves a listing behind
 * unsaid. Each store's removal is a push job; the answer waits for them a while ('running' when they are still at
 * work: the last one deletes the product). A store that refuses stops the deletion: the product stays (live in
 * that store, the error on its publication), and the listings removed so far stay removed.
 */
export async function deleteProduct(
  deps: ProductsDeps,
  workspaceId: string,
  id: string,
  store?: TDeleteProductStore,
): Promise<'deleted' | 'running'> {
  const row = await findProduct(deps.db, workspaceId, id);
  assertSellerMayEdit(row, false);
  const listed = ((await publicationsOf(deps.db, [row.id])).get(row.id) ?? []).filter(
    (p) => p.status === 'published' && p.remoteProductId,
  );
  if (listed.length > 0 && !store) {
    throw conflict(
      `"${row.title}" is live in a store: choose whether to archive or delete it there too, or keep it there`,
    );
  }
  if ((store === 'archive' || store === 'delete') && listed.length > 0) {
    const stores = await storesByIds(
      deps,
      workspaceId,
      listed.map((p) => p.integrationId),
    );
    for (const target of stores) {
      if (target.status !== 'connected' || target.verifiedAt === null) {
        throw conflict(
          `${target.storeName ?? 'The store'} is not connected: connect it again, or keep the listing there`,
        );
      }
    }
    // Each store's removal is a push job (it survives a restart); the last one deletes the product.
    const started = await startRemovals(deps, row, stores, store);
    const settled: (Awaited<ReturnType<typeof waitForPush>> | null)[] = [];
    for (const { integrationId, jobId } of started) {
      const pub = await waitForPush(deps, { workspaceId, productId: id, integrationId }, jobId);
      // Still at work, or deferred until the store's spent limit is back (it resumes by itself).
      if (pub?.status === 'processing' && (pub.jobId === jobId || deferredUntil(pub))) return 'running';
      settled.push(pub);
    }
    const productLeft = () => productExists(deps.db, workspaceId, id);
    // Every listing removed (their rows gone): the last job is deleting the product (its print files first).
    if (settled.every((pub) => pub === null)) {
      const until = Date.now() + deps.config.storePushWaitSeconds * 1000;
      while ((await productLeft()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      return (await productLeft()) ? 'running' : 'deleted';
    }
    if (!(await productLeft())) return 'deleted';
    const pubs = (await publicationsOf(deps.db, [row.id])).get(row.id) ?? [];
    throw pushFailure(pubs.find((p) => p.error !== null) ?? null);
  }
  await deletePrintFiles(deps, id, workspaceId);
  // Variants, links, print file rows, publications and schedules go with it (cascade); mockups and the design stay
  // in the library.
  await deleteProductRow(deps.db, workspaceId, id);
  return 'deleted';
}

const COPY_SUFFIX = ' (Copy)';

/**
 * A new draft with the same design, catalogue product, listing, variants (their own SKUs) and every mockup link;
 * no store listings, no schedules.
 */
export async function duplicateProduct(deps: ProductsDeps, workspaceId: string, id: string): Promise<TProduct> {
  const row = await findProduct(deps.db, workspaceId, id);
  const variants = (await variantsOf(deps.db, [row.id])).get(row.id) ?? [];
  const links = (await mockupLinksOf(deps.db, [row.id])).get(row.id) ?? [];
  const copyId = randomUUID();
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    await insertProductRow(tx, {
      id: copyId,
      workspaceId,
      title: `${row.title.slice(0, PRODUCT_TITLE_MAX - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`,
      description: row.description,
      price: row.price,
      tags: row.tags,
      productType: row.productType,
      status: 'draft',
      designId: row.designId,
      catalogProductId: row.catalogProductId,
      provider: row.provider,
      placements: row.placements,
      adjustments: row.adjustments,
      platform: row.platform,
      createdAt: now,
      updatedAt: now,
      contentUpdatedAt: now,
    });
    await replaceVariants(
      tx,
      workspaceId,
      copyId,
      variants.map((v) => ({
        option: v.option,
        catalogVariantId: v.catalogVariantId,
        color: v.color,
        colorHex: v.colorHex,
        size: v.size,
        price: v.price,
        // A copy is another product: catalogue variants get its own SKUs.
        sku: v.catalogVariantId !== null ? skuFor(copyId, v.catalogVariantId) : v.sku,
        baseCost: v.baseCost,
      })),
    );
    await replaceMockupLinks(
      tx,
      workspaceId,
      copyId,
      links.map((l) => ({ mockupId: l.mockupId, color: l.color, main: l.main })),
    );
  });
  return productById(deps, workspaceId, copyId);
}

export const isStorePlatform = (platform: string): platform is TStorePlatform =>
  (STORE_PLATFORMS as readonly string[]).includes(platform);

/** A product stuck in processing this long (its push's process ended mid-way) may be pushed again. */
const STALE_PUSH_MS = 5 * 60_000;

/** Whether the product meets the 'ready' rule (design, mockup, title, description, a priced variant). */
async function meetsReady(deps: ProductsDeps, row: ProductRow): Promise<boolean> {
  const [variants, links] = await Promise.all([variantsOf(deps.db, [row.id]), mockupLinksOf(deps.db, [row.id])]);
  return (
    missingForReady({
      designId: row.designId,
      hasMockup: (links.get(row.id) ?? []).length > 0,
      title: row.title,
      description: row.description,
      variants: (variants.get(row.id) ?? []).map((v) => ({ price: Number(v.price) })),
    }).length === 0
  );
}

type StoreRow = typeof integrations.$inferSelect;

/** The workspace's store integrations of these ids (another workspace's or an unknown id: 404). */
function storesByIds(deps: ProductsDeps, workspaceId: string, ids: string[]): Promise<StoreRow[]> {
  return findStoreConnections(deps.db, workspaceId, ids);
}

/** Whether a push of this product has been in flight so long that its process must have ended. */
async function pushIsStale(deps: ProductsDeps, row: ProductRow): Promise<boolean> {
  // A push deferred until a store's spent limit is back is waiting, not lost (until a while after it should resume).
  const pubs = (await publicationsOf(deps.db, [row.id])).get(row.id) ?? [];
  const waitingUntil = Math.max(0, ...pubs.map((p) => deferredUntil(p)?.getTime() ?? 0));
  if (waitingUntil > deps.now().getTime() - STALE_PUSH_MS) return false;
  const recent = await publicationMovedSince(deps.db, row, new Date(deps.now().getTime() - STALE_PUSH_MS));
  return !recent && row.updatedAt.getTime() <= deps.now().getTime() - STALE_PUSH_MS;
}

/** One store push of a product as a job (the one operation every caller uses); waits for it for a while. */
async function pushToStore(
  deps: ProductsDeps,
  workspaceId: string,
  row: ProductRow,
  previous: PushableStatus,
  store: StoreRow,
  mode: 'create' | 'update' = 'create',
  failOnLimit = false,
): Promise<TStoreUploadResult | TStoreUploadPending> {
  const platform = store.platform as TStorePlatform;
  const publisher = deps.stores.get(platform);
  if (!publisher) throw notImplemented(`${platformLabel(platform)} is not available yet`);
  // Refusals the seller must act on are answered before anything is queued: not connected, the platform's rules.
  await assertPushable(deps, publisher, workspaceId, store, row);
  const stale = row.status === 'processing' && (await pushIsStale(deps, row));
  const jobId = await startPush(deps, workspaceId, row.id, store, mode, previous, stale, failOnLimit);
  const pub = await waitForPush(deps, { workspaceId, productId: row.id, integrationId: store.id }, jobId);
  const waiting = deferredUntil(pub);
  if (pub && waiting) {
    // Deferred until the store's spent limit is back: not failed, it resumes by itself.
    const resumesAt = waiting.toISOString();
    return { success: false, state: 'waiting', platform, integrationId: store.id, progress: pub.progress, resumesAt };
  }
  if (pub?.status === 'processing' && pub.jobId === jobId) {
    return { success: false, state: 'running', platform, integrationId: store.id, progress: pub.progress };
  }
  if (pub?.jobId === jobId && pub.error === null && pub.status === 'published' && pub.remoteProductId) {
    return {
      success: true,
      platform,
      integrationId: store.id,
      remoteProductId: pub.remoteProductId,
      remoteUrl: pub.remoteUrl ?? '',
    };
  }
  throw pushFailure(pub);
}

/**
 * `POST /api/products/:id/publish`: pushes the product to each chosen store in turn, server-side, so the create
 * flows make one call however many stores there are. A store the product is already live in is skipped with a
 * reason (its listing changes with 'Update in store'); one that refuses does not stop the others. A product live
 * in one store may go to another.
 */
export async function publishProduct(
  deps: ProductsDeps,
  workspaceId: string,
  productId: string,
  integrationIds: string[],
): Promise<TPublishResult> {
  const first = await findProduct(deps.db, workspaceId, productId);
  if (
    first.status === 'processing' &&
    !(await pushIsStale(deps, first)) &&
    !(await isJoinable(deps, first, integrationIds))
  ) {
    throw conflict(`"${first.title}" is being pushed to a store already`);
  }
  const stores = await storesByIds(deps, workspaceId, [...new Set(integrationIds)]);
  const published = new Set(
    ((await publicationsOf(deps.db, [productId])).get(productId) ?? [])
      .filter((p) => p.status === 'published')
      .map((p) => p.integrationId),
  );
  const results: TPublishResult['results'] = [];
  for (const store of stores) {
    const base = { integrationId: store.id, platform: store.platform };
    if (published.has(store.id)) {
      results.push({
        ...base,
        ok: false,
        remoteProductId: null,
        remoteUrl: null,
        error: 'The product is already live in this store; use Update in store to change it',
      });
      continue;
    }
    const row = await findProduct(deps.db, workspaceId, productId);
    const previous = row.status === 'processing' ? await statusBeforePush(deps, row) : row.status;
    try {
      const pushed = await pushToStore(deps, workspaceId, row, previous, store);
      results.push(
        pushed.success
          ? {
              ...base,
              ok: true,
              remoteProductId: pushed.remoteProductId,
              remoteUrl: pushed.remoteUrl,
              error: null,
              state: 'published',
            }
          : {
              ...base,
              ok: false,
              remoteProductId: null,
              remoteUrl: null,
              error: null,
              state: pushed.state,
              ...(pushed.state === 'waiting' ? { progress: pushed.progress, resumesAt: pushed.resumesAt ?? null } : {}),
            },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({
        ...base,
        ok: false,
        remoteProductId: null,
        remoteUrl: null,
        error: error.message,
        state: 'failed',
      });
    }
  }
  return { results };
}

/**
 * `POST /api/upload/:platform/:productId` (the spec's Upload buttons and schedules): every refusal in the order a
 * seller can act on them, then the same store push as `publishProduct`. A product live in one store may go to
 * another (#28); a store that already has it is refused (its copy changes with 'Update in store'). Without a chosen
 * store, the platform's first connected store that does not have it yet.
 */
export async function pushProduct(
  deps: ProductsDeps,
  workspaceId: string,
  platform: TStorePlatform,
  productId: string,
  integrationId: string | undefined,
  options: { failOnLimit?: boolean } = {},
): Promise<TStoreUploadResult | TStoreUploadPending> {
  const row = await findProduct(deps.db, workspaceId, productId);
  let previous: PushableStatus;
  if (row.status === 'processing') {
    // In flight, unless its push has not moved for a while: then the process running it ended, and the same
    // productSet (by handle) picks up where it stopped.
    if (!(await pushIsStale(deps, row))) throw conflict(`"${row.title}" is being pushed to a store already`);
    previous = await statusBeforePush(deps, row);
  } else {
    previous = row.status;
  }
  if (!deps.stores.get(platform)) throw notImplemented(`${platformLabel(platform)} is not available yet`);

  const chosen = integrationId && integrationId !== 'default' ? integrationId : null;
  if (chosen !== null && !UUID.test(chosen)) throw notFound('Integration');
  const stores = await storesOfWorkspace(deps.db, workspaceId, platform, { id: chosen });
  if (chosen && stores.length === 0) throw notFound('Integration');
  const connected = stores.filter((s) => s.status === 'connected' && s.verifiedAt !== null);
  if (connected.length === 0) {
    throw conflict(`No ${platformLabel(platform)} store is connected. Connect one in Integrations first.`);
  }
  const listed = new Set(
    ((await publicationsOf(deps.db, [row.id])).get(row.id) ?? [])
      .filter((p) => p.status === 'published')
      .map((p) => p.integrationId),
  );
  const store = connected.find((s) => !listed.has(s.id));
  if (!store) {
    const where =
      connected.length === 1 ? (connected[0]?.storeName ?? platformLabel(platform)) : platformLabel(platform);
    throw conflict(`"${row.title}" is already live in ${where}; send changes there with Update in store`);
  }
  return pushToStore(deps, workspaceId, row, previous, store, 'create', options.failOnLimit ?? false);
}

/** The status a product stuck in processing had: live if it is published somewhere, else ready or draft. */
async function statusBeforePush(deps: ProductsDeps, row: ProductRow): Promise<PushableStatus> {
  const pubs = (await publicationsOf(deps.db, [row.id])).get(row.id) ?? [];
  if (pubs.some((p) => p.status === 'published')) return 'live';
  return (await meetsReady(deps, row)) ? 'ready' : 'draft';
}

/** Whether a processing product's running push is to one of these stores (a second request joins it). */
async function isJoinable(deps: ProductsDeps, row: ProductRow, integrationIds: string[]): Promise<boolean> {
  const pubs = (await publicationsOf(deps.db, [row.id])).get(row.id) ?? [];
  return pubs.some((p) => p.status === 'processing' && p.jobId && integrationIds.includes(p.integrationId));
}

/**
 * `POST /api/products/:id/update-in-store`: the same push as an upload, of a product live in that store: productSet
 * by the same handle changes the same remote product (variants no longer enabled disappear), as a job.
 */
export async function updateInStore(
  deps: ProductsDeps,
  workspaceId: string,
  productId: string,
  integrationId: string,
): Promise<TStoreUploadResult | TStoreUploadPending> {
  const row = await findProduct(deps.db, workspaceId, productId);
  const [store] = await storesByIds(deps, workspaceId, [integrationId]);
  if (!store) throw notFound('Integration');
  const pub = ((await publicationsOf(deps.db, [row.id])).get(row.id) ?? []).find((p) => p.integrationId === store.id);
  if (row.status === 'processing') {
    if (!(pub?.status === 'processing' && pub.jobId)) {
      throw conflict(`"${row.title}" is being pushed to a store already`);
    }
  } else if (row.status !== 'live' || pub?.status !== 'published') {
    throw conflict(`"${row.title}" is not live in ${store.storeName ?? 'this store'}; upload it there first`);
  }
  return pushToStore(deps, workspaceId, row, 'live', store, 'update');
}

/**
 * `POST /api/products/:id/remove-from-store`: the product's listing in one store is archived or deleted there (a
 * push job, like every store call); the product stays, live in its other stores or back to ready (or draft) when it
 * was the last. Answers 'removed', or 'running' when the job is still at work after the wait.
 */
export async function removeFromStore(
  deps: ProductsDeps,
  workspaceId: string,
  productId: string,
  integrationId: string,
  removal: 'archive' | 'delete',
): Promise<'removed' | 'running'> {
  const row = await findProduct(deps.db, workspaceId, productId);
  const [store] = await storesByIds(deps, workspaceId, [integrationId]);
  if (!store) throw notFound('Integration');
  const where = store.storeName ?? platformLabel(store.platform);
  const pub = ((await publicationsOf(deps.db, [row.id])).get(row.id) ?? []).find((p) => p.integrationId === store.id);
  if (row.status === 'processing')
    throw conflict(`"${row.title}" is being pushed to a store; try again when it is done`);
  if (pub?.status !== 'published' || !pub.remoteProductId) throw conflict(`"${row.title}" is not live in ${where}`);
  if (store.status !== 'connected' || store.verifiedAt === null) {
    throw conflict(`${where} is not connected: connect it again to remove the listing there`);
  }
  const previous: PushableStatus = (await meetsReady(deps, row)) ? 'ready' : 'draft';
  const [started] = await startRemovals(deps, row, [store], removal, { previous });
  if (!started) throw new Error('no removal started');
  const settled = await waitForPush(deps, { workspaceId, productId: row.id, integrationId: store.id }, started.jobId);
  if (settled === null) return 'removed';
  if (settled.status === 'processing' && (settled.jobId === started.jobId || deferredUntil(settled))) return 'running';
  throw pushFailure(settled);
}

/** `GET /api/products/:id/pushes`: each store push of the product and where it is. */
export async function pushStates(deps: ProductsDeps, workspaceId: string, productId: string): Promise<TPushStates> {
  const row = await findProduct(deps.db, workspaceId, productId);
  const pubs = (await publicationsOf(deps.db, [row.id])).get(row.id) ?? [];
  return { pushes: pubs.map(toPushState) };
}
