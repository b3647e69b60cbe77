import { z } from 'zod';
import { ADJUSTMENT_LIMITS } from './plain/mockup-geometry';

export const ZMockupColor = z.object({ id: z.string(), name: z.string(), hex: z.string() });
export type TMockupColor = z.infer<typeof ZMockupColor>;

export const ZMockupTemplate = z.object({
  id: z.string(),
  name: z.string(),
  productType: z.string(),
  /** Full-resolution template image (2000x2500) in the default colour. */
  imageUrl: z.string(),
  /** The same at 800x1000, for the editor canvas. */
  previewUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  designArea: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }),
  colors: z.array(ZMockupColor),
});
export type TMockupTemplate = z.infer<typeof ZMockupTemplate>;

export const ZMockupTemplatesQuery = z.object({ productType: z.string().max(40).optional() });
export const ZMockupTemplates = z.object({
  productType: z.string(),
  templates: z.array(ZMockupTemplate),
});
export type TMockupTemplates = z.infer<typeof ZMockupTemplates>;

const zRange = (key: keyof typeof ADJUSTMENT_LIMITS) =>
  z.number().min(ADJUSTMENT_LIMITS[key].min).max(ADJUSTMENT_LIMITS[key].max);

export const ZMockupAdjustments = z.object({
  scale: zRange('scale'),
  rotation: zRange('rotation'),
  x: zRange('x'),
  y: zRange('y'),
  opacity: zRange('opacity'),
});

export const ZCreateMockup = z.object({
  designId: z.uuid(),
  productType: z.string().max(40),
  templateId: z.string().max(60),
  adjustments: ZMockupAdjustments,
  color: z.string().max(40).optional(),
});
export type TCreateMockup = z.infer<typeof ZCreateMockup>;

export const ZMockup = z.object({
  id: z.string(),
  templateId: z.string(),
  color: z.string().nullable(),
  url: z.string(),
  previewUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type TMockup = z.infer<typeof ZMockup>;

export const ZCreateMockupBatch = z.object({
  designId: z.uuid(),
  productType: z.string().max(40),
  adjustments: ZMockupAdjustments,
  /** Only these templates / colours; all of the product type's when absent. */
  templateIds: z.array(z.string().max(60)).max(20).optional(),
  colors: z.array(z.string().max(40)).max(20).optional(),
  /** Always answer with a job to poll (the UI does, to show progress). */
  async: z.boolean().optional(),
});
export type TCreateMockupBatch = z.infer<typeof ZCreateMockupBatch>;

export const ZMockupBatchJob = z.object({
  jobId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  done: z.number().int(),
  total: z.number().int(),
  mockups: z.array(ZMockup),
  error: z.string().nullable(),
});
export type TMockupBatchJob = z.infer<typeof ZMockupBatchJob>;

export const ZPrintReadinessQuery = z.object({
  designId: z.uuid(),
  productType: z.string().max(40),
  scale: z.coerce.number().min(ADJUSTMENT_LIMITS.scale.min).max(ADJUSTMENT_LIMITS.scale.max).default(100),
  /** The catalogue product whose placement the design is measured on; the product type's default when absent. */
  catalogProductId: z.coerce.number().int().positive().optional(),
});

export const ZPrintReadiness = z.object({
  dpi: z.number().int(),
  level: z.enum(['ready', 'ok', 'low']),
  label: z.string(),
  /** A vector design: print-ready at any size, drawn at the print area's own DPI (`printReadiness`). */
  vector: z.boolean(),
  printArea: z.object({
    name: z.string(),
    widthIn: z.number(),
    heightIn: z.number(),
    widthPx: z.number().int(),
    heightPx: z.number().int(),
  }),
});
export type TPrintReadiness = z.infer<typeof ZPrintReadiness>;

export const ZCreatePrintFile = z.object({
  designId: z.uuid(),
  productType: z.string().max(40),
  adjustments: ZMockupAdjustments,
});
