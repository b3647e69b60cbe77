import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import {
  clampAdjustments,
  type MockupAdjustments,
  mockupProductType,
  type TCatalogProductDetail,
  type TMockupProductType,
  type TPrintFile,
} from '@podforge/contract';
import type { designs, products } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { putLocalFile } from '../../storage/storage';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import { getDesignRow, tempFilePath, withStoredDesignFile } from '../designs/designs.service';
import { catalogueFor } from '../printers/printer-catalogue';
import { PRINT_FILE, type PrintFileJob } from './print-file-job';
import type { PrintFilesDeps } from './print-files.deps';
import * as repo from './print-files.repository';

type DesignRow = typeof designs.$inferSelect;
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
  const design = await getDesignRow(deps, product.workspaceId, product.designId);
  const adjustments = clampAdjustments(product.adjustments ?? {});
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        design.id,
        design.printKey,
        product.productType,
        spec,
        adjustments,
        // A vector design's files are drawn from its original (those drawn before from its print PNG are redrawn).
        design.vector ? 'print-file-v1-vector' : 'print-file-v1',
      ]),
    )
    .digest('hex');
  const stored = await repo.findPrintFile(deps.db, product.id, placement);
  if (stored?.fingerprint === fingerprint) {
    const png = await deps.storage.read(stored.storageKey);
    if (png) return { png, spec };
  }
  // The key names the fingerprint: two instances drawing the same file at once write the same bytes to one key.
  const storageKey = `${product.workspaceId}/print-files/${product.id}/${placement}-${fingerprint.slice(0, 24)}.png`;
  const out = await drawPrintFile(
    deps,
    design,
    mockupProductType(product.productType),
    adjustments,
    { widthPx: spec.width, heightPx: spec.height },
    storageKey,
  );
  await repo.upsertPrintFile(
    deps.db,
    {
      workspaceId: product.workspaceId,
      productId: product.id,
      placement,
      fingerprint,
      storageKey,
      width: spec.width,
      height: spec.height,
      dpi: spec.dpi,
    },
    deps.now(),
  );
  if (stored && stored.storageKey !== storageKey) await deps.storage.delete(stored.storageKey).catch(() => {});
  return { png: out.png, spec };
}

/** Removes a product's stored print files (the product is being deleted). */
export async function deletePrintFiles(deps: PrintFilesDeps, productId: string, workspaceId: string): Promise<void> {
  const keys = await repo.printFileKeysOf(deps.db, workspaceId, productId);
  await Promise.allSettled(keys.map((key) => deps.storage.delete(key)));
}

/**
 * The wall-clock limit of a print file in the decode pool. The upload's limit (7 s by default) is for files not yet
 * checked; a print file is drawn from a stored, checked design at a catalogue size, and a turned 24x36 in poster
 * (7200x10800) took 3 s alone and 6.4-9.6 s with both cores busy: under the upload's limit it was refused.
 */
const PRINT_FILE_TIME_LIMIT_MS = 60_000;

/**
 * A print file of a stored design, drawn in the decode pool (bounded like an upload, with a longer time limit).
 * With `storeAs`, the drawn file is also stored under that key from the decoder's output file (on local disk a
 * second name for it, nothing copied) while its bytes are read for the answer.
 */
export async function drawPrintFile(
  deps: Pick<PrintFilesDeps, 'config' | 'storage' | 'decodePool'>,
  row: DesignRow,
  productType: TMockupProductType,
  adjustments: MockupAdjustments,
  size?: { widthPx: number; heightPx: number },
  storeAs?: string,
): Promise<{ png: Buffer; width: number; height: number }> {
  // A vector design (SVG, vector PDF) is drawn from its original at the print file's size, never upscaled.
  const vector: PrintFileJob['vector'] = !row.vector
    ? undefined
    : row.type === 'svg'
      ? 'svg'
      : row.type === 'pdf'
        ? 'pdf'
        : undefined;
  return withStoredDesignFile(deps, vector ? row.originalKey : row.printKey, async (inputPath) => {
    // Under DATA_DIR/tmp, never beside the input: on local disk the input is the stored design itself.
    const outPath = await tempFilePath(deps, 'print-file');
    try {
      const out = await deps.decodePool.run(
        PRINT_FILE,
        {
          name: row.name,
          inputPath,
          outPath,
          productType,
          designSize: { width: row.width, height: row.height },
          adjustments,
          ...(size ? { size } : {}),
          ...(vector ? { vector } : {}),
        },
        { label: row.name, timeLimitMs: Math.max(PRINT_FILE_TIME_LIMIT_MS, deps.config.decode.timeLimitMs) },
      );
      const [png] = await Promise.all([
        fsp.readFile(outPath),
        storeAs ? putLocalFile(deps.storage, storeAs, outPath, 'image/png') : null,
      ]);
      return { png, width: out.width, height: out.height };
    } finally {
      await fsp.rm(outPath, { force: true });
    }
  });
}

/** A print file of a design at the product type's default print area (the editor's download). */
export async function createPrintFile(
  deps: Pick<PrintFilesDeps, 'config' | 'db' | 'storage' | 'decodePool'>,
  workspaceId: string,
  input: { designId: string; productType: string; adjustments: MockupAdjustments },
) {
  const productType = mockupProductType(input.productType);
  const row = await getDesignRow(deps, workspaceId, input.designId);
  const out = await drawPrintFile(deps, row, productType, input.adjustments);
  return { ...out, productType, designName: row.name };
}
