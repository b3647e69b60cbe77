import { randomUUID } from 'node:crypto';
import {
  DEFAULT_CATALOG_PRODUCT,
  DESIGN_AREAS,
  type MockupAdjustments,
  mockupProductType,
  type Placement,
  printAreaFor,
  printReadiness,
  type TCreateMockup,
  type TCreateMockupBatch,
  type TMockup,
  type TMockupBatchJob,
  type TMockupProductType,
  type TMockupTemplate,
  type TPrintReadiness,
} from '@podforge/contract';
import { badRequest, notFound } from '../../lib/errors';
import { TEMPLATE_HEIGHT, TEMPLATE_SETS, TEMPLATE_WIDTH } from '../../lib/mockup-templates';
import { assertStorageRoom } from '../../storage/usage';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import type { DesignRow } from '../designs/designs.repository';
import { getDesignRow, withStoredDesignFile } from '../designs/designs.service';
import { MOCKUP_LAYER } from './layer-job';
import { drawMockupFileLater, mockupFileOf } from './mockup-files';
import {
  clipLayer,
  composeMockup,
  composeSmallPreview,
  type DesignLayer,
  type DesignPixels,
  decodeDesignPixels,
  findTemplate,
  mockupPlacement,
  renderDesignRaw,
  resizeDesignPixels,
  type TemplateStore,
} from './mockup-render';
import type { MockupsDeps } from './mockups.deps';
import * as repo from './mockups.repository';
import { PixelCache } from './pixel-cache';

type Deps = Pick<MockupsDeps, 'db' | 'storage' | 'now' | 'config' | 'decodePool'> & {
  templates: TemplateStore;
  layers?: PixelCache<DesignLayer>;
  designPixels?: PixelCache<DesignPixels>;
};

export function templateImagePath(productType: string, templateId: string, colorId: string, preview = false) {
  return `/templates/mockups/${productType}/${templateId}/${colorId}${preview ? '.preview' : ''}.png`;
}

export function listTemplates(productTypeInput: string | undefined): {
  productType: string;
  templates: TMockupTemplate[];
} {
  const productType = mockupProductType(productTypeInput);
  const set = TEMPLATE_SETS[productType];
  const defaultColor = set.colors[0]?.id ?? 'white';
  return {
    productType,
    templates: set.templates.map((t) => ({
      id: t.id,
      name: t.name,
      productType,
      imageUrl: templateImagePath(productType, t.id, defaultColor),
      previewUrl: templateImagePath(productType, t.id, defaultColor, true),
      width: TEMPLATE_WIDTH,
      height: TEMPLATE_HEIGHT,
      designArea: DESIGN_AREAS[productType],
      colors: set.colors,
    })),
  };
}

/**
 * The caches of a caller that brings none (a bulk run's `createMockup`, one colour after another of the same design
 * and placement): small, as a run makes one product's colours at a time, two products at once. Without them each
 * colour decoded and placed the design again.
 */
const callerCaches = {
  layers: new PixelCache<DesignLayer>(16 * 1024 * 1024),
  designPixels: new PixelCache<DesignPixels>(28 * 1024 * 1024),
};

/**
 * The design placed for a mockup. From its working copy (at most 2000 px a side, a PNG the decode pool wrote at
 * upload, which is all a 2000x2500 mockup shows) it is placed here, with sharp off the event loop, from the decoded
 * pixels this instance keeps (`designPixels`, 48 MB of the designs placed last): the seller's next placement of the
 * same design skips the decode, and no 6 MB layer crosses from a child process (that copy cost more than the
 * placing). A design stored before working copies existed starts from its print PNG, of any size: that one is
 * decoded, resized, rotated and faded in the decode pool (bounded in time and memory like an upload).
 */
async function designLayer(deps: Deps, row: DesignRow, placement: Placement): Promise<DesignLayer | null> {
  const { workingKey } = row;
  const layers = deps.layers ?? callerCaches.layers;
  const designPixels = deps.designPixels ?? callerCaches.designPixels;
  const width = Math.max(1, Math.round(placement.width));
  const height = Math.max(1, Math.round(placement.height));
  const size = `${width}x${height}`;
  const make = async (): Promise<DesignLayer> => {
    if (workingKey) {
      const load = () => withStoredDesignFile(deps, workingKey, (inputPath) => decodeDesignPixels(inputPath));
      const pixels = await designPixels.get(workingKey, load);
      if (placement.rotation % 90 !== 0) {
        // The design at this size is kept too: a seller turning it again only turns it (the resize was a third of
        // a render's CPU).
        const sized = await layers.get(`${row.id}\n${workingKey}\n${size}`, async () => ({
          ...(await resizeDesignPixels(pixels, width, height)),
          left: 0,
          top: 0,
        }));
        return renderDesignRaw(sized, placement, { fade: false });
      }
      return renderDesignRaw(pixels, placement, { fade: false });
    }
    const raw = await withStoredDesignFile(deps, row.printKey, (inputPath) =>
      deps.decodePool.run(MOCKUP_LAYER, { name: row.name, inputPath, placement }, { label: row.name }),
    );
    return { ...raw, data: Buffer.from(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength) };
  };
  // The placed pixels depend only on the design file, the size and the turn (a design's files never change): a
  // seller who moves or fades the design, or renders the same placement again, reuses them; where they land, the
  // clip and the opacity are applied here.
  const key = workingKey ?? row.printKey;
  const placed = await layers.get(`${row.id}\n${key}\n${size}@${placement.rotation}`, make);
  const left = Math.round(placement.centerX - placed.width / 2);
  const top = Math.round(placement.centerY - placed.height / 2);
  return clipLayer({ ...placed, left, top }, placement);
}

function resolveTemplate(productType: TMockupProductType, templateId: string) {
  const template = findTemplate(productType, templateId);
  if (!template) throw badRequest(`Unknown template '${templateId}' for ${productType}`);
  return template;
}

function resolveColor(productType: TMockupProductType, color: string | undefined) {
  const colors = TEMPLATE_SETS[productType].colors;
  const found = color === undefined ? colors[0] : colors.find((c) => c.id === color);
  if (!found) throw badRequest(`Unknown colour '${color}' for ${productType}`);
  return found.id;
}

const toDto = (row: repo.MockupRow): TMockup => ({
  id: row.id,
  templateId: row.templateId,
  color: row.color,
  url: `/api/mockups/${row.id}/file`,
  previewUrl: `/api/mockups/${row.id}/preview`,
  width: row.width,
  height: row.height,
});

/**
 * Stores a render's files (the full PNG, unless it is drawn later, and the 512 px preview) with its mockups row: no
 * file without its row.
 */
async function storeMockup(
  deps: Deps,
  workspaceId: string,
  design: DesignRow,
  view: { productType: TMockupProductType; templateId: string; colorId: string; adjustments: MockupAdjustments },
  out: { png: Buffer | null; preview: Buffer; width: number; height: number },
  batch?: { id: string; position: number },
): Promise<repo.MockupRow> {
  const id = randomUUID();
  const storageKey = `${workspaceId}/mockups/${id}/mockup.png`;
  const previewKey = `${workspaceId}/mockups/${id}/preview.jpg`;
  try {
    await Promise.all([
      out.png ? deps.storage.put(storageKey, out.png, 'image/png') : null,
      deps.storage.put(previewKey, out.preview, 'image/jpeg'),
    ]);
    return await repo.insertMockup(deps.db, {
      id,
      workspaceId,
      designId: design.id,
      productType: view.productType,
      templateId: view.templateId,
      color: view.colorId,
      adjustments: view.adjustments,
      batchId: batch?.id ?? null,
      batchPosition: batch?.position ?? null,
      storageKey,
      previewKey,
      width: out.width,
      height: out.height,
    });
  } catch (error) {
    // No file without its row.
    await Promise.allSettled([deps.storage.delete(storageKey), deps.storage.delete(previewKey)]);
    throw error;
  }
}

/** One render: template pixels plus the design layer, stored as PNG and 512 px preview with a mockups row. */
async function renderAndStore(
  deps: Deps,
  workspaceId: string,
  design: DesignRow,
  productType: TMockupProductType,
  templateId: string,
  colorId: string,
  adjustments: MockupAdjustments,
  layer: DesignLayer | null,
  batch?: { id: string; position: number },
): Promise<TMockup> {
  const template = resolveTemplate(productType, templateId);
  const base = await deps.templates.raw(productType, template, colorId);
  const out = await composeMockup(base, layer);
  return toDto(
    await storeMockup(deps, workspaceId, design, { productType, templateId, colorId, adjustments }, out, batch),
  );
}

type Logger = { error(obj: object, msg: string): void };

/**
 * When a mockup's full-size file is made: `now` (a bulk run's products, pushed next) or `later`, for a seller's
 * placement (`POST /api/mockups`): answered once its preview is stored, the full-size PNG drawn right after in the
 * decode pool (mockup-files.ts), where whatever reads it first waits for it.
 */
export type MockupFileTiming = { full: 'now' } | { full: 'later'; log: Logger };

export async function createMockup(
  deps: Deps,
  workspaceId: string,
  input: TCreateMockup,
  timing: MockupFileTiming = { full: 'now' },
): Promise<TMockup> {
  const productType = mockupProductType(input.productType);
  const template = resolveTemplate(productType, input.templateId);
  const colorId = resolveColor(productType, input.color);
  const row = await getDesignRow(deps, workspaceId, input.designId);
  await assertStorageRoom(deps.db, workspaceId, {
    quotaBytes: deps.config.storageQuotaBytes,
    incoming: 0,
    name: 'A new mockup',
  });
  if (timing.full === 'now') {
    const layer = await designLayer(deps, row, mockupPlacement(productType, row, input.adjustments));
    return renderAndStore(deps, workspaceId, row, productType, input.templateId, colorId, input.adjustments, layer);
  }
  // The preview is drawn at its own size: the design resized and turned small, placed on the template's small copy.
  const base = await deps.templates.raw(productType, template, colorId);
  const smallWidth = base.small?.width ?? base.width;
  const layer = await designLayer(deps, row, mockupPlacement(productType, row, input.adjustments, smallWidth));
  const preview = await composeSmallPreview(base, layer);
  const view = { productType, templateId: input.templateId, colorId, adjustments: input.adjustments };
  const out = { png: null, preview, width: base.width, height: base.height };
  const stored = await storeMockup(deps, workspaceId, row, view, out);
  drawMockupFileLater(deps, stored, timing.log);
  return toDto(stored);
}

/** Batches up to this many renders answer in one response; larger ones (or `async`) run as a job to poll. */
export const SYNC_BATCH_LIMIT = 12;
const BATCH_PARALLELISM = 2;

/** A running batch whose newest render is older than this has lost its process (a restart or crash). */
const STALLED_AFTER_MS = 2 * 60 * 1000;

/**
 * Starts a batch: one `mockup_batches` row, then the renders in this process, each stored as a mockups row of the
 * batch. Progress is read from the database, so a poll may reach any app instance.
 */
export async function startMockupBatch(
  deps: Deps,
  workspaceId: string,
  input: TCreateMockupBatch,
  log: Logger,
): Promise<{ job: TMockupBatchJob; wait: boolean }> {
  const productType = mockupProductType(input.productType);
  const set = TEMPLATE_SETS[productType];
  const templateIds = input.templateIds ?? set.templates.map((t) => t.id);
  for (const id of templateIds) resolveTemplate(productType, id);
  const colors = (input.colors ?? set.colors.map((c) => c.id)).map((c) => resolveColor(productType, c));
  const row = await getDesignRow(deps, workspaceId, input.designId);
  await assertStorageRoom(deps.db, workspaceId, {
    quotaBytes: deps.config.storageQuotaBytes,
    incoming: 0,
    name: 'New mockups',
  });
  const tasks = templateIds.flatMap((templateId) => colors.map((color) => ({ templateId, color })));
  // The templates are decoded while the design layer is placed (a batch asked for with no editor opened first
  // would otherwise decode each colour's as it renders it).
  deps.templates.prefetch(
    productType,
    tasks.map((t) => ({ templateId: t.templateId, colorId: t.color })),
  );
  // Every template of a set shares one design area and size, so the design layer is prepared once.
  const layer = await designLayer(deps, row, mockupPlacement(productType, row, input.adjustments));

  const batch = await repo.insertMockupBatch(deps.db, {
    workspaceId,
    designId: row.id,
    productType,
    total: tasks.length,
  });

  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < tasks.length && !failed) {
      const position = next++;
      const task = tasks[position];
      if (!task) break;
      await renderAndStore(deps, workspaceId, row, productType, task.templateId, task.color, input.adjustments, layer, {
        id: batch.id,
        position,
      });
    }
  };
  const finish = (status: 'done' | 'failed', error: string | null) =>
    repo.finishMockupBatch(deps.db, batch.id, { status, error, finishedAt: deps.now() });
  const finished = Promise.all(Array.from({ length: BATCH_PARALLELISM }, worker)).then(
    () => finish('done', null),
    async (error: unknown) => {
      failed = true;
      log.error({ err: error, batchId: batch.id }, 'mockup batch failed');
      await finish('failed', 'Rendering failed; the mockups made so far are kept. Generate again to retry.');
    },
  );
  const wait = !input.async && tasks.length <= SYNC_BATCH_LIMIT;
  if (wait) await finished;
  else
    finished.catch((error: unknown) => log.error({ err: error, batchId: batch.id }, 'mockup batch bookkeeping failed'));
  return { job: await getMockupBatch(deps, workspaceId, batch.id), wait };
}

export async function getMockupBatch(deps: Deps, workspaceId: string, batchId: string): Promise<TMockupBatchJob> {
  const { batch, rows } = await repo.findMockupBatch(deps.db, workspaceId, batchId);
  let { status, error } = batch;
  const lastActivity = Math.max(batch.createdAt.getTime(), ...rows.map((r) => r.createdAt.getTime()));
  if (status === 'running' && deps.now().getTime() - lastActivity > STALLED_AFTER_MS) {
    status = 'failed';
    error = 'Rendering stopped before it finished; the mockups made so far are kept. Generate again to retry.';
  }
  return { jobId: batch.id, status, done: rows.length, total: batch.total, mockups: rows.map(toDto), error };
}

export async function getMockupFile(
  deps: Deps,
  workspaceId: string,
  id: string,
  which: 'file' | 'preview',
): Promise<{ data: Buffer; type: 'image/png' | 'image/jpeg' }> {
  const row = await repo.findMockup(deps.db, workspaceId, id);
  if (which === 'file') return { data: await mockupFileOf(deps, row), type: 'image/png' };
  const key = row.previewKey;
  const data = await deps.storage.read(key);
  if (!data) throw notFound('Mockup file');
  // Previews are JPEG; those stored before were PNG, and their keys say so.
  return { data, type: key.endsWith('.jpg') ? 'image/jpeg' : 'image/png' };
}

export async function getPrintReadiness(
  deps: Deps & { printful: MockupsDeps['printful'] },
  workspaceId: string,
  input: { designId: string; productType: string; scale: number; catalogProductId?: number | undefined },
): Promise<TPrintReadiness> {
  const productType = mockupProductType(input.productType);
  const row = await getDesignRow(deps, workspaceId, input.designId);
  // Measured on the catalogue placement the print file is drawn for (the product's blank, else the type's default).
  const catalogId = input.catalogProductId ?? DEFAULT_CATALOG_PRODUCT[input.productType];
  const detail =
    catalogId === undefined
      ? null
      : await getCatalogProductDetail(await deps.printful.catalogFor(workspaceId), catalogId);
  const placement = detail?.placements[0];
  const area = DESIGN_AREAS[productType];
  const rating = printReadiness({
    area,
    design: row,
    scale: input.scale,
    productType,
    print: placement,
    vector: row.vector,
  });
  const fallback = printAreaFor(productType);
  const printArea = placement
    ? {
        name: placement.title,
        widthIn: Math.round((placement.widthPx / placement.dpi) * 100) / 100,
        heightIn: Math.round((placement.heightPx / placement.dpi) * 100) / 100,
        widthPx: placement.widthPx,
        heightPx: placement.heightPx,
      }
    : {
        name: fallback.name,
        widthIn: fallback.widthIn,
        heightIn: fallback.heightIn,
        widthPx: fallback.widthPx,
        heightPx: fallback.heightPx,
      };
  return { ...rating, printArea };
}
