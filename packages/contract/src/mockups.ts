import { z } from 'zod';
import { ADJUSTMENT_LIMITS, type Rect } from './mockup-geometry';

export * from './mockup-geometry';

export const MOCKUP_PRODUCT_TYPES = ['tshirt', 'hoodie', 'mug', 'poster'] as const;
export type TMockupProductType = (typeof MOCKUP_PRODUCT_TYPES)[number];

/** Any other product type falls back to the t-shirt set (spec section 3). */
export function mockupProductType(productType: string | null | undefined): TMockupProductType {
  return (MOCKUP_PRODUCT_TYPES as readonly string[]).includes(productType ?? '')
    ? (productType as TMockupProductType)
    : 'tshirt';
}

/**
 * Spec section 3 'Mockup template sets': the design areas in the 400x500 canvas space. The t-shirt's is centred
 * (x 100, not the spec's 150; issue 12): the tee is drawn centred in the frame so neither sleeve is cut off.
 */
export const DESIGN_AREAS: Record<TMockupProductType, Rect> = {
  tshirt: { x: 100, y: 120, width: 200, height: 240 },
  hoodie: { x: 140, y: 160, width: 220, height: 260 },
  mug: { x: 120, y: 80, width: 160, height: 160 },
  poster: { x: 50, y: 50, width: 300, height: 400 },
};

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
