import { randomUUID } from 'node:crypto';
import {
  DESIGN_AREAS,
  effectiveDpi,
  type MockupAdjustments,
  mockupProductType,
  printAreaFor,
  printReadinessLevel,
  type TCreateMockup,
  type TCreateMockupBatch,
  type TMockup,
  type TMockupBatchJob,
  type TMockupProductType,
  type TMockupTemplate,
  type TPrintReadiness,
} from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../app';
import { designs, mockups } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import {
  composeMockup,
  findTemplate,
  mockupPlacement,
  prepareDesignLayer,
  renderPrintFile,
  type TemplateStore,
} from './mockup-render';
import { TEMPLATE_HEIGHT, TEMPLATE_SETS, TEMPLATE_WIDTH } from './mockup-templates';

type Deps = Pick<AppDeps, 'db' | 'storage' | 'now'> & { templates: TemplateStore };

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

type DesignRow = typeof designs.$inferSelect;

/** Another workspace's design is "not found", never "forbidden". */
async function loadDesign(deps: Deps, workspaceId: string, designId: string): Promise<{ row: DesignRow; png: Buffer }> {
  const [row] = await deps.db
    .select()
    .from(designs)
    .where(and(eq(designs.id, designId), eq(designs.workspaceId, workspaceId)));
  if (!row) throw notFound('Design');
  const png = await deps.storage.read(row.printKey);
  if (!png) throw notFound('Design file');
  return { row, png };
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

const toDto = (row: typeof mockups.$inferSelect): TMockup => ({
  id: row.id,
  templateId: row.templateId,
  color: row.color,
  url: `/api/mockups/${row.id}/file`,
  previewUrl: `/api/mockups/${row.id}/preview`,
  width: row.width,
  height: row.height,
});

/** One render: template pixels plus the design layer, stored as PNG and 512 px preview with a mockups row. */
async function renderAndStore(
  deps: Deps,
  workspaceId: string,
  design: DesignRow,
  productType: TMockupProductType,
  templateId: string,
  colorId: string,
  adjustments: MockupAdjustments,
  layer: Awaited<ReturnType<typeof prepareDesignLayer>>,
): Promise<TMockup> {
  const template = resolveTemplate(productType, templateId);
  const base = await deps.templates.raw(productType, template, colorId);
  const out = await composeMockup(base, layer);
  const id = randomUUID();
  const storageKey = `${workspaceId}/mockups/${id}/mockup.png`;
  const previewKey = `${workspaceId}/mockups/${id}/preview.png`;
  await deps.storage.put(storageKey, out.png, 'image/png');
  await deps.storage.put(previewKey, out.preview, 'image/png');
  const [row] = await deps.db
    .insert(mockups)
    .values({
      id,
      workspaceId,
      designId: design.id,
      productType,
      templateId,
      color: colorId,
      adjustments,
      storageKey,
      previewKey,
      width: out.width,
      height: out.height,
    })
    .returning();
  if (!row) throw new Error('mockup insert returned nothing');
  return toDto(row);
}

export async function createMockup(deps: Deps, workspaceId: string, input: TCreateMockup): Promise<TMockup> {
  const productType = mockupProductType(input.productType);
  resolveTemplate(productType, input.templateId);
  const colorId = resolveColor(productType, input.color);
  const { row, png } = await loadDesign(deps, workspaceId, input.designId);
  const layer = await prepareDesignLayer(png, mockupPlacement(productType, row, input.adjustments));
  return renderAndStore(deps, workspaceId, row, productType, input.templateId, colorId, input.adjustments, layer);
}

/** Batches up to this many renders answer in one response; larger ones (or `async`) run as a job to poll. */
export const SYNC_BATCH_LIMIT = 12;
const BATCH_PARALLELISM = 2;

type Job = TMockupBatchJob & { workspaceId: string; finished: Promise<void>; createdAt: number };

/**
 * Batch jobs live in this process's memory: they last seconds, and their results are the stored mockups rows,
 * so nothing is lost but the progress figure if the process ends.
 */
export class MockupJobs {
  private readonly jobs = new Map<string, Job>();

  get(workspaceId: string, jobId: string): TMockupBatchJob {
    const job = this.jobs.get(jobId);
    if (!job || job.workspaceId !== workspaceId) throw notFound('Mockup job');
    return publicJob(job);
  }

  async start(
    deps: Deps,
    workspaceId: string,
    input: TCreateMockupBatch,
  ): Promise<{ job: TMockupBatchJob; wait: boolean }> {
    const productType = mockupProductType(input.productType);
    const set = TEMPLATE_SETS[productType];
    const templateIds = input.templateIds ?? set.templates.map((t) => t.id);
    for (const id of templateIds) resolveTemplate(productType, id);
    const colors = (input.colors ?? set.colors.map((c) => c.id)).map((c) => resolveColor(productType, c));
    const { row, png } = await loadDesign(deps, workspaceId, input.designId);
    // Every template of a set shares one design area and size, so the design layer is prepared once.
    const layer = await prepareDesignLayer(png, mockupPlacement(productType, row, input.adjustments));
    const tasks = templateIds.flatMap((templateId) => colors.map((color) => ({ templateId, color })));

    this.prune();
    const job: Job = {
      jobId: randomUUID(),
      status: 'running',
      done: 0,
      total: tasks.length,
      mockups: [],
      error: null,
      workspaceId,
      createdAt: Date.now(),
      finished: Promise.resolve(),
    };
    let next = 0;
    const worker = async () => {
      while (next < tasks.length && job.status === 'running') {
        const task = tasks[next++];
        if (!task) break;
        const mockup = await renderAndStore(
          deps,
          workspaceId,
          row,
          productType,
          task.templateId,
          task.color,
          input.adjustments,
          layer,
        );
        job.mockups.push(mockup);
        job.done += 1;
      }
    };
    job.finished = Promise.all(Array.from({ length: BATCH_PARALLELISM }, worker)).then(
      () => {
        job.status = 'done';
        // Keep the template order, whatever order the workers finished in.
        const order = new Map(tasks.map((t, i) => [`${t.templateId}/${t.color}`, i]));
        job.mockups.sort(
          (a, b) => (order.get(`${a.templateId}/${a.color}`) ?? 0) - (order.get(`${b.templateId}/${b.color}`) ?? 0),
        );
      },
      (error: unknown) => {
        job.status = 'failed';
        job.error = 'Rendering failed';
        console.error('mockup batch failed', error);
      },
    );
    this.jobs.set(job.jobId, job);
    const wait = !input.async && tasks.length <= SYNC_BATCH_LIMIT;
    if (wait) await job.finished;
    return { job: publicJob(job), wait };
  }

  private prune() {
    const cutoff = Date.now() - 60 * 60 * 1000;
    for (const [id, job] of this.jobs) if (job.status !== 'running' && job.createdAt < cutoff) this.jobs.delete(id);
  }
}

const publicJob = (job: Job): TMockupBatchJob => ({
  jobId: job.jobId,
  status: job.status,
  done: job.done,
  total: job.total,
  mockups: [...job.mockups],
  error: job.error,
});

export async function getMockupFile(
  deps: Deps,
  workspaceId: string,
  id: string,
  which: 'file' | 'preview',
): Promise<Buffer> {
  const [row] = await deps.db
    .select()
    .from(mockups)
    .where(and(eq(mockups.id, id), eq(mockups.workspaceId, workspaceId)));
  if (!row) throw notFound('Mockup');
  const data = await deps.storage.read(which === 'file' ? row.storageKey : row.previewKey);
  if (!data) throw notFound('Mockup file');
  return data;
}

export async function getPrintReadiness(
  deps: Deps,
  workspaceId: string,
  input: { designId: string; productType: string; scale: number },
): Promise<TPrintReadiness> {
  const productType = mockupProductType(input.productType);
  const [row] = await deps.db
    .select()
    .from(designs)
    .where(and(eq(designs.id, input.designId), eq(designs.workspaceId, workspaceId)));
  if (!row) throw notFound('Design');
  const dpi = effectiveDpi({ area: DESIGN_AREAS[productType], design: row, scale: input.scale, productType });
  const print = printAreaFor(productType);
  return {
    dpi,
    ...printReadinessLevel(dpi),
    printArea: {
      name: print.name,
      widthIn: print.widthIn,
      heightIn: print.heightIn,
      widthPx: print.widthPx,
      heightPx: print.heightPx,
    },
  };
}

export async function createPrintFile(
  deps: Deps,
  workspaceId: string,
  input: { designId: string; productType: string; adjustments: MockupAdjustments },
) {
  const productType = mockupProductType(input.productType);
  const { row, png } = await loadDesign(deps, workspaceId, input.designId);
  const out = await renderPrintFile(productType, png, row, input.adjustments);
  return { ...out, productType, designName: row.name };
}
