import { createHash } from 'node:crypto';
import { clampAdjustments, mockupProductType, type TCatalogProductDetail, type TPrintFile } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import { designs, printFiles, type products } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import { drawPrintFile } from '../mockups/mockups.service';
import { catalogueFor } from '../printers/printer-catalogue';
import type { PrintFilesDeps } from './print-files.deps';

/** A product as print files are drawn for it (the products module's row). */
type ProductRow = typeof products.$inferSelect;

/**
 * A product's print files: for each of its placements, the design placed by the product's geometry (its main
 * mockup's) at the catalogue placement's pixel size and DPI. Drawn when first needed and kept in storage under a
 * fingerprint of what it is drawn from, so an edit of the design or the placement draws it again and an unchanged
 * product never does.
 */

/** How long a print file URL handed to a fulfilment provider stays valid. */
export const PRINT_FILE_URL_TTL_SECONDS = 7 * 24 * 3600;

export const printFilePath = (productId: string, placement: string) =>
  `/api/print-files/${productId}/${encodeURIComponent(placement)}.png`;

type Spec = { placement: string; width: number; height: number; dpi: number };

async function catalogFor(deps: PrintFilesDeps, product: ProductRow): Promise<TCatalogProductDetail | null> {
  if (product.catalogProductId === null) return null;
  // The product's own printer's catalogue: its placements are the print files' sizes.
  return getCatalogProductDetail(
    await catalogueFor(deps, product.provider, product.workspaceId),
    product.catalogProductId,
  );
}

/** The print files a product has: one per placement, at the catalogue placement's size. */
export async function printFileSpecs(deps: PrintFilesDeps, product: ProductRow): Promise<Spec[]> {
  const detail = await catalogFor(deps, product);
  if (!detail || !product.designId) return [];
  return product.placements.flatMap((p) => {
    const area = detail.placements.find((a) => a.placement === p.placement);
    return area ? [{ placement: p.placement, width: area.widthPx, height: area.heightPx, dpi: area.dpi }] : [];
  });
}

/** The print files' URLs: signed (no cookie needed) and the seller's own download. */
export async function printFilesOf(deps: PrintFilesDeps, product: ProductRow, origin: string): Promise<TPrintFile[]> {
  const specs = await printFileSpecs(deps, product);
  return specs.map((s) => ({
    ...s,
    url: `${origin}${deps.urlSigner.sign(printFilePath(product.id, s.placement), PRINT_FILE_URL_TTL_SECONDS)}`,
    downloadUrl: `/api/products/${product.id}/print-files/${encodeURIComponent(s.placement)}`,
  }));
}

/** The PNG of one placement's print file, drawn now if it is missing or out of date. */
export async function ensurePrintFile(
  deps: PrintFilesDeps,
  product: ProductRow,
  placement: string,
): Promise<{ png: Buffer; spec: Spec }> {
  const spec = (await printFileSpecs(deps, product)).find((s) => s.placement === placement);
  if (!spec || !product.designId) throw notFound(`Print file '${placement}'`);
  const [design] = await deps.db
    .select()
    .from(designs)
    .where(and(eq(designs.id, product.designId), eq(designs.workspaceId, product.workspaceId)));
  if (!design) throw notFound('Design');
  const adjustments = clampAdjustments(product.adjustments ?? {});
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([design.id, design.printKey, product.productType, spec, adjustments, 'print-file-v1']))
    .digest('hex');
  const where = and(eq(printFiles.productId, product.id), eq(printFiles.placement, placement));
  const [stored] = await deps.db.select().from(printFiles).where(where);
  if (stored?.fingerprint === fingerprint) {
    const png = await deps.storage.read(stored.storageKey);
    if (png) return { png, spec };
  }
  const out = await drawPrintFile(deps, design, mockupProductType(product.productType), adjustments, {
    widthPx: spec.width,
    heightPx: spec.height,
  });
  // The key names the fingerprint: two instances drawing the same file at once write the same bytes to one key.
  const storageKey = `${product.workspaceId}/print-files/${product.id}/${placement}-${fingerprint.slice(0, 24)}.png`;
  await deps.storage.put(storageKey, out.png, 'image/png');
  await deps.db
    .insert(printFiles)
    .values({
      workspaceId: product.workspaceId,
      productId: product.id,
      placement,
      fingerprint,
      storageKey,
      width: spec.width,
      height: spec.height,
      dpi: spec.dpi,
    })
    .onConflictDoUpdate({
      target: [printFiles.productId, printFiles.placement],
      set: { fingerprint, storageKey, width: spec.width, height: spec.height, dpi: spec.dpi, createdAt: deps.now() },
    });
  if (stored && stored.storageKey !== storageKey) await deps.storage.delete(stored.storageKey).catch(() => {});
  return { png: out.png, spec };
}

/** Removes a product's stored print files (the product is being deleted). */
export async function deletePrintFiles(deps: PrintFilesDeps, productId: string, workspaceId: string): Promise<void> {
  const rows = await deps.db
    .select({ storageKey: printFiles.storageKey })
    .from(printFiles)
    .where(and(eq(printFiles.productId, productId), eq(printFiles.workspaceId, workspaceId)));
  await Promise.allSettled(rows.map((r) => deps.storage.delete(r.storageKey)));
}
