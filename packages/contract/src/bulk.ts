import { z } from 'zod';
import { AI_PLATFORMS } from './plain/ai';
import { BULK_BLANKS_MAX, BULK_COLORS_MAX, BULK_DESIGNS_MAX, BULK_STORES_MAX } from './plain/bulk';
import { PRODUCT_PRICE_MAX } from './plain/products';
import { ZCreateSchedule } from './schedules';

/** How every variant is priced: a markup on its base cost, a margin after the store's fee, or one fixed price. */
export const ZBulkPricing = z.union([
  z.strictObject({ markupPercent: z.number().min(0).max(1000) }),
  z.strictObject({ marginPercent: z.number().min(0).max(90) }),
  z.strictObject({ fixed: z.number().positive().max(PRODUCT_PRICE_MAX) }),
]);

/**
 * `POST /api/bulk`: one product per design x blank, each in the chosen catalogue colours (all the blank's sizes of
 * them; the blank's first colour when none are chosen), with a mockup per colour, listing text from the AI
 * provider for `platform`, and prices from the rule. With `stores` (connected stores' integration ids, any
 * platform), each product is pushed to each store once made, one push at a time (within each store's limits), or,
 * with `schedule` too, scheduled for that date and time on the seller's clock.
 */
export const ZStartBulk = z.object({
  designIds: z
    .array(z.uuid())
    .min(1, 'choose at least one design')
    .max(BULK_DESIGNS_MAX)
    .refine((ids) => new Set(ids).size === ids.length, 'a design is listed twice'),
  catalogProductIds: z
    .array(z.number().int().positive())
    .min(1, 'choose at least one blank')
    .max(BULK_BLANKS_MAX)
    .refine((ids) => new Set(ids).size === ids.length, 'a blank is listed twice'),
  colors: z.array(z.string().trim().min(1).max(60)).max(BULK_COLORS_MAX).optional(),
  pricing: ZBulkPricing,
  status: z.enum(['draft', 'ready']).default('draft'),
  platform: z.enum(AI_PLATFORMS).default('shopify'),
  stores: z
    .array(z.uuid())
    .max(BULK_STORES_MAX)
    .refine((ids) => new Set(ids).size === ids.length, 'a store is listed twice')
    .optional(),
  schedule: ZCreateSchedule.pick({ scheduledDate: true, scheduledTime: true, timeZone: true }).optional(),
});
export type TStartBulk = z.input<typeof ZStartBulk>;

export const ZBulkJobParams = z.object({ jobId: z.uuid() });

/**
 * One product's push to one store: 'scheduled' once its upload is scheduled (the schedule then pushes it);
 * `scheduledFor`: then, the instant that upload is planned for (a run's uploads to a store follow one another at the
 * store's pace from the run's `scheduledFor`).
 */
export const ZBulkPush = z.object({
  integrationId: z.string(),
  platform: z.string(),
  storeName: z.string().nullable(),
  status: z.enum(['pending', 'pushing', 'pushed', 'scheduled', 'failed']),
  remoteUrl: z.string().nullable(),
  error: z.string().nullable(),
  scheduledFor: z.string().nullable(),
});
export type TBulkPush = z.infer<typeof ZBulkPush>;

export const ZBulkItem = z.object({
  designId: z.string(),
  catalogProductId: z.number().int(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  productId: z.string().nullable(),
  error: z.string().nullable(),
  pushes: z.array(ZBulkPush),
});
export type TBulkItem = z.infer<typeof ZBulkItem>;

/**
 * `GET /api/bulk/:jobId`: where the run is; `done` counts products made, `failures` the pairs that failed,
 * `pushFailures` the store pushes that failed (each retried by `POST /api/bulk/:jobId/retry`). 'failed': the job
 * gave up with work left (`error` says why); a retry carries on. `expectedFinishAt`: when the products still to make
 * and push should be done at the pace this run has kept so far (each store's own), null until a pace is known or
 * once nothing is left; with a schedule, when its last upload should be done (each store's uploads one of its paces
 * apart), null once every upload ran; `scheduledFor`: the instant the first scheduled uploads start.
 */
export const ZBulkJob = z.object({
  jobId: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  error: z.string().nullable(),
  expectedFinishAt: z.string().nullable(),
  scheduledFor: z.string().nullable(),
  pushFailures: z.array(z.object({ productId: z.string(), integrationId: z.string(), error: z.string() })),
  done: z.number().int(),
  total: z.number().int(),
  productIds: z.array(z.string()),
  failures: z.array(z.object({ designId: z.string(), catalogProductId: z.number().int(), error: z.string() })),
  items: z.array(ZBulkItem),
});
export type TBulkJob = z.infer<typeof ZBulkJob>;
