import {
  defaultVariants,
  PRODUCT_TITLE_MAX,
  platformLabel,
  STORE_PLATFORMS,
  type TProduct,
  type TProductPage,
  type TProductStatus,
  type TStorePlatform,
  type TStoreUploadResult,
  type TVariant,
  type ZCreateProduct,
  type ZProductListQuery,
  type ZUpdateProduct,
} from '@podforge/contract';
import { and, asc, count, desc, eq, gt, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { designs, integrations, mockups, products, productVariants, publications } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { badRequest, conflict, notFound, notImplemented } from '../../lib/errors';

type ProductRow = typeof products.$inferSelect;
type VariantRow = typeof productVariants.$inferSelect;
type MockupRow = typeof mockups.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type CreateInput = z.output<typeof ZCreateProduct>;
type UpdateInput = z.output<typeof ZUpdateProduct>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const mockupFileUrl = (id: string) => `/api/mockups/${id}/file`;

/**
 * A small picture of the product for lists: the 512 px preview of its mockup when the mockup is one we rendered,
 * else its design's thumbnail.
 */
export function productThumbnailUrl(mockupUrl: string | null, designId: string | null): string | null {
  const rendered = mockupUrl?.match(/^\/api\/mockups\/([0-9a-f-]{36})\/file$/i);
  if (rendered) return `/api/mockups/${rendered[1]}/preview`;
  return designId ? `/api/designs/${designId}/file/thumbnail` : null;
}

/** `storeUrl`: where the product is live (the newest published push), for 'View in Store'. */
export function toProduct(row: ProductRow, variants: VariantRow[], storeUrl: string | null = null): TProduct {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: Number(row.price),
    tags: row.tags,
    productType: row.productType,
    variants: variants.map((v) => ({ option: v.option, price: Number(v.price), sku: v.sku })),
    mockupUrl: row.mockupUrl,
    status: row.status,
    designId: row.designId,
    designThumbnailUrl: row.designId ? `/api/designs/${row.designId}/file/thumbnail` : null,
    thumbnailUrl: productThumbnailUrl(row.mockupUrl, row.designId),
    storeUrl,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function variantsOf(db: Db | Tx, productIds: string[]): Promise<Map<string, VariantRow[]>> {
  const byProduct = new Map<string, VariantRow[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return byProduct;
  const rows = await db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position));
  for (const row of rows) byProduct.get(row.productId)?.push(row);
  return byProduct;
}

/** The URL of each product's newest published push, when it has one. */
async function storeUrlsOf(db: Db | Tx, productIds: string[]): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  if (productIds.length === 0) return urls;
  const rows = await db
    .select({ productId: publications.productId, remoteUrl: publications.remoteUrl })
    .from(publications)
    .where(and(inArray(publications.productId, productIds), eq(publications.status, 'published')))
    .orderBy(asc(publications.publishedAt));
  // Ordered oldest first, so the newest push is the one kept.
  for (const row of rows) if (row.remoteUrl) urls.set(row.productId, row.remoteUrl);
  return urls;
}

async function assertDesign(deps: AppDeps, workspaceId: string, designId: string) {
  const [row] = await deps.db
    .select({ id: designs.id })
    .from(designs)
    .where(and(eq(designs.id, designId), eq(designs.workspaceId, workspaceId)));
  if (!row) throw notFound('Design');
}

async function mockupById(deps: AppDeps, workspaceId: string, id: string): Promise<MockupRow | undefined> {
  const [row] = await deps.db
    .select()
    .from(mockups)
    .where(and(eq(mockups.id, id), eq(mockups.workspaceId, workspaceId)));
  return row;
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

/**
 * The mockup a create or update names: `mockupId` (another workspace's or unknown: 404), else `mockupUrl`, which
 * must be the URL of one of this workspace's mockups (400 otherwise). Either must show the product's design.
 */
async function resolveMockup(
  deps: AppDeps,
  workspaceId: string,
  input: { mockupId?: string | undefined; mockupUrl?: string | undefined },
  designId: string | null,
): Promise<MockupRow | null> {
  let row: MockupRow | undefined;
  if (input.mockupId) {
    row = await mockupById(deps, workspaceId, input.mockupId);
    if (!row) throw notFound('Mockup');
  } else if (input.mockupUrl) {
    const id = mockupIdFromUrl(input.mockupUrl);
    row = id ? await mockupById(deps, workspaceId, id) : undefined;
    if (!row) throw badRequest('mockupUrl: is not the URL of a mockup of this workspace (/api/mockups/<id>/file)');
  } else {
    return null;
  }
  if (row.designId !== designId) throw badRequest('mockup: shows another design than the product');
  return row;
}

/** What a product lacks to be 'ready' (design.md 'Product status'); empty when it may be. */
function missingForReady(p: {
  designId: string | null;
  mockupUrl: string | null;
  title: string;
  description: string;
  variants: { price: number }[];
}): string[] {
  const missing: string[] = [];
  if (!p.designId) missing.push('a design');
  if (!p.mockupUrl) missing.push('a mockup');
  if (!p.title.trim()) missing.push('a title');
  if (!p.description.trim()) missing.push('a description');
  if (!p.variants.some((v) => v.price > 0)) missing.push('a variant with a price above 0');
  return missing;
}

function assertReady(p: Parameters<typeof missingForReady>[0]) {
  const missing = missingForReady(p);
  if (missing.length) throw badRequest(`status: a ready product needs ${missing.join(', ')}`);
}

const variantValues = (workspaceId: string, productId: string, variants: TVariant[]) =>
  variants.map((v, position) => ({
    workspaceId,
    productId,
    position,
    option: v.option,
    price: v.price.toFixed(2),
    sku: v.sku || null,
  }));

/**
 * Checks a create against the workspace before anything is stored: the design (when given by id), the mockup,
 * the variants and the ready rule. `designId` null means a file comes with the request, so no mockup can show it
 * yet.
 */
export async function prepareCreate(deps: AppDeps, workspaceId: string, input: CreateInput, designId: string | null) {
  if (designId) await assertDesign(deps, workspaceId, designId);
  const mockup = await resolveMockup(deps, workspaceId, input, designId);
  const variants = input.variants.length ? input.variants : defaultVariants(input.price);
  const mockupUrl = mockup ? mockupFileUrl(mockup.id) : null;
  if (input.status === 'ready') {
    assertReady({ ...input, designId: designId ?? 'uploaded with this request', mockupUrl, variants });
  }
  return { mockupId: mockup?.id ?? null, mockupUrl, variants };
}

/** Writes the product, its variants and the mockup's link in one transaction. */
export async function insertProduct(
  deps: AppDeps,
  workspaceId: string,
  input: CreateInput,
  prepared: Awaited<ReturnType<typeof prepareCreate>>,
  designId: string,
): Promise<TProduct> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [row] = await tx
      .insert(products)
      .values({
        workspaceId,
        title: input.title,
        description: input.description,
        price: input.price.toFixed(2),
        tags: input.tags,
        productType: input.productType,
        status: input.status,
        designId,
        templateId: null,
        mockupUrl: prepared.mockupUrl,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('product insert returned no row');
    const variants = await tx
      .insert(productVariants)
      .values(variantValues(workspaceId, row.id, prepared.variants))
      .returning();
    if (prepared.mockupId) {
      await tx
        .update(mockups)
        .set({ productId: row.id })
        .where(and(eq(mockups.id, prepared.mockupId), eq(mockups.workspaceId, workspaceId)));
    }
    return toProduct(
      row,
      variants.sort((a, b) => a.position - b.position),
    );
  });
}

async function productRow(db: Db | Tx, workspaceId: string, id: string): Promise<ProductRow> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
  if (!row) throw notFound('Product');
  return row;
}

export async function getProduct(deps: AppDeps, workspaceId: string, id: string): Promise<TProduct> {
  const row = await productRow(deps.db, workspaceId, id);
  const storeUrl = (await storeUrlsOf(deps.db, [row.id])).get(row.id) ?? null;
  return toProduct(row, (await variantsOf(deps.db, [row.id])).get(row.id) ?? [], storeUrl);
}

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listProducts(
  deps: AppDeps,
  workspaceId: string,
  query: z.output<typeof ZProductListQuery>,
): Promise<TProductPage> {
  const conditions: (SQL | undefined)[] = [eq(products.workspaceId, workspaceId)];
  if (query.search) {
    const pattern = likePattern(query.search);
    conditions.push(
      or(
        sql`${products.title} ILIKE ${pattern}`,
        sql`${products.description} ILIKE ${pattern}`,
        sql`EXISTS (SELECT 1 FROM jsonb_array_elements_text(${products.tags}) AS tag WHERE tag ILIKE ${pattern})`,
      ),
    );
  }
  if (query.status && query.status !== 'all') conditions.push(eq(products.status, query.status));
  if (query.type && query.type !== 'all') conditions.push(eq(products.productType, query.type));
  const where = and(...conditions);
  const [counted] = await deps.db.select({ n: count() }).from(products).where(where);
  const total = counted?.n ?? 0;
  const rows = await deps.db
    .select()
    .from(products)
    .where(where)
    .orderBy(desc(products.createdAt), desc(products.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const ids = rows.map((r) => r.id);
  const [variants, storeUrls] = await Promise.all([variantsOf(deps.db, ids), storeUrlsOf(deps.db, ids)]);
  return {
    items: rows.map((r) => toProduct(r, variants.get(r.id) ?? [], storeUrls.get(r.id) ?? null)),
    page: query.page,
    pageSize: query.pageSize,
    total,
    totalPages: Math.ceil(total / query.pageSize),
  };
}

const assertNotProcessing = (row: ProductRow) => {
  if (row.status === 'processing')
    throw conflict(`"${row.title}" is being pushed to a store; try again when it is done`);
};

/**
 * Changes what is sent and nothing else: variants sent replace all of them (an empty list removes them), and the
 * status only changes when it is sent. A ready product must stay ready-worthy (400 naming what would be missing).
 */
export async function updateProduct(
  deps: AppDeps,
  workspaceId: string,
  id: string,
  input: UpdateInput,
): Promise<TProduct> {
  const row = await productRow(deps.db, workspaceId, id);
  assertNotProcessing(row);
  if (input.status && row.status === 'live') {
    throw conflict(`"${row.title}" is live in a store; its status follows its store listings`);
  }
  const designId = input.designId ?? row.designId;
  if (input.designId && input.designId !== row.designId) await assertDesign(deps, workspaceId, input.designId);
  const mockup = await resolveMockup(deps, workspaceId, input, designId);
  if (!mockup && input.designId && input.designId !== row.designId && row.mockupUrl) {
    throw badRequest('mockupId: the product has a mockup of its old design; send a mockup of the new design');
  }
  const mockupUrl = mockup ? mockupFileUrl(mockup.id) : row.mockupUrl;
  const currentVariants = (await variantsOf(deps.db, [row.id])).get(row.id) ?? [];
  const variants = input.variants ?? currentVariants.map((v) => ({ price: Number(v.price) }));
  const status: TProductStatus = input.status ?? row.status;
  if (status === 'ready') {
    assertReady({
      designId,
      mockupUrl,
      title: input.title ?? row.title,
      description: input.description ?? row.description,
      variants,
    });
  }
  await deps.db.transaction(async (tx) => {
    await tx
      .update(products)
      .set({
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.price !== undefined ? { price: input.price.toFixed(2) } : {}),
        ...(input.tags !== undefined ? { tags: input.tags } : {}),
        ...(input.productType !== undefined ? { productType: input.productType } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        designId,
        mockupUrl,
        updatedAt: deps.now(),
      })
      .where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
    if (input.variants) {
      await tx.delete(productVariants).where(eq(productVariants.productId, id));
      if (input.variants.length) {
        await tx.insert(productVariants).values(variantValues(workspaceId, id, input.variants));
      }
    }
    if (mockup) {
      await tx
        .update(mockups)
        .set({ productId: id })
        .where(and(eq(mockups.id, mockup.id), eq(mockups.workspaceId, workspaceId)));
    }
  });
  return getProduct(deps, workspaceId, id);
}

export async function deleteProduct(deps: AppDeps, workspaceId: string, id: string): Promise<void> {
  const row = await productRow(deps.db, workspaceId, id);
  assertNotProcessing(row);
  // Variants, publications and schedules go with it (cascade); mockups and the design stay in the library.
  await deps.db.delete(products).where(and(eq(products.id, id), eq(products.workspaceId, workspaceId)));
}

const COPY_SUFFIX = ' (Copy)';

/** A new draft with the same design, mockup, listing and variants; no store listings, no schedules. */
export async function duplicateProduct(deps: AppDeps, workspaceId: string, id: string): Promise<TProduct> {
  const row = await productRow(deps.db, workspaceId, id);
  const variants = (await variantsOf(deps.db, [row.id])).get(row.id) ?? [];
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    const [copy] = await tx
      .insert(products)
      .values({
        workspaceId,
        title: `${row.title.slice(0, PRODUCT_TITLE_MAX - COPY_SUFFIX.length).trimEnd()}${COPY_SUFFIX}`,
        description: row.description,
        price: row.price,
        tags: row.tags,
        productType: row.productType,
        status: 'draft',
        designId: row.designId,
        catalogProductId: row.catalogProductId,
        templateId: row.templateId,
        mockupUrl: row.mockupUrl,
        platform: row.platform,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!copy) throw new Error('product insert returned no row');
    const copiedVariants = variants.length
      ? await tx
          .insert(productVariants)
          .values(
            variants.map((v) => ({
              workspaceId,
              productId: copy.id,
              position: v.position,
              option: v.option,
              price: v.price,
              sku: v.sku,
              baseCost: v.baseCost,
            })),
          )
          .returning()
      : [];
    return toProduct(
      copy,
      copiedVariants.sort((a, b) => a.position - b.position),
    );
  });
}

const UNAVAILABLE: Record<Exclude<TStorePlatform, 'shopify'>, string> = {
  etsy: 'Etsy',
  amazon: 'Amazon',
  woocommerce: 'WooCommerce',
};

export const isStorePlatform = (platform: string): platform is TStorePlatform =>
  (STORE_PLATFORMS as readonly string[]).includes(platform);

/** A product stuck in processing this long (its push's process ended mid-way) may be pushed again. */
const STALE_PUSH_MS = 5 * 60_000;

/** Whether the product meets the 'ready' rule (design, mockup, title, description, a priced variant). */
async function meetsReady(deps: AppDeps, row: ProductRow): Promise<boolean> {
  const variants = (await variantsOf(deps.db, [row.id])).get(row.id) ?? [];
  return Boolean(
    row.designId &&
      row.mockupUrl &&
      row.title.trim() &&
      row.description.trim() &&
      variants.some((v) => Number(v.price) > 0),
  );
}

/**
 * `POST /api/upload/:platform/:productId`: every refusal a push can meet, in the order a seller can act on them,
 * then the push itself (Shopify; `modules/shopify`).
 */
export async function pushProduct(
  deps: AppDeps,
  workspaceId: string,
  platform: TStorePlatform,
  productId: string,
  integrationId: string | undefined,
): Promise<TStoreUploadResult> {
  const row = await productRow(deps.db, workspaceId, productId);
  if (row.status === 'live') throw conflict(`"${row.title}" is already live; it cannot be uploaded again`);
  let previous: 'draft' | 'ready';
  if (row.status === 'processing') {
    // In flight, unless its push has not moved for a while: then the process running it ended, and the same
    // productSet (by handle) picks up where it stopped.
    const [recent] = await deps.db
      .select({ id: publications.id })
      .from(publications)
      .where(
        and(
          eq(publications.productId, row.id),
          eq(publications.workspaceId, workspaceId),
          gt(publications.updatedAt, new Date(deps.now().getTime() - STALE_PUSH_MS)),
        ),
      )
      .limit(1);
    if (recent || row.updatedAt.getTime() > deps.now().getTime() - STALE_PUSH_MS) {
      throw conflict(`"${row.title}" is being pushed to a store already`);
    }
    previous = (await meetsReady(deps, row)) ? 'ready' : 'draft';
  } else {
    previous = row.status;
  }
  if (platform !== 'shopify') throw notImplemented(`${UNAVAILABLE[platform]} is not available yet`);

  const chosen = integrationId && integrationId !== 'default' ? integrationId : null;
  if (chosen !== null && !UUID.test(chosen)) throw notFound('Integration');
  const stores = await deps.db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.workspaceId, workspaceId),
        eq(integrations.kind, 'store'),
        eq(integrations.platform, platform),
        chosen ? eq(integrations.id, chosen) : undefined,
      ),
    )
    .orderBy(asc(integrations.createdAt), asc(integrations.id));
  if (chosen && stores.length === 0) throw notFound('Integration');
  const store = stores.find((s) => s.status === 'connected' && s.verifiedAt !== null);
  if (!store) {
    throw conflict(`No ${platformLabel(platform)} store is connected. Connect one in Integrations first.`);
  }
  return deps.shopify.publish(workspaceId, row, previous, store);
}
