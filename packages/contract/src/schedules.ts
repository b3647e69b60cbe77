import { z } from 'zod';
import { STORE_PLATFORMS } from './plain/products';

export const ZScheduleStatus = z.enum(['pending', 'running', 'completed', 'failed', 'cancelled']);
export type TScheduleStatus = z.infer<typeof ZScheduleStatus>;

/**
 * `POST /api/schedule-upload` (spec section 7). The browser sends its IANA time zone: the moment to push is the
 * date and time on the seller's clock, which the server cannot guess.
 */
export const ZCreateSchedule = z.object({
  productId: z.uuid(),
  // The spec's labels are capitalised ('Shopify'); the API takes either spelling.
  platform: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(STORE_PLATFORMS, { message: `must be one of ${STORE_PLATFORMS.join(', ')}` })),
  scheduledDate: z.iso.date({ message: 'must be a date like 2026-12-24' }),
  scheduledTime: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time like 09:30')
    .or(
      z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d:00$/)
        .transform((t) => t.slice(0, 5)),
    ),
  status: z.literal('pending').default('pending'),
  integrationId: z.string().trim().max(64).default('default'),
  timeZone: z.string().trim().min(1).max(64).default('UTC'),
});
export type TCreateSchedule = z.input<typeof ZCreateSchedule>;

export const ZSchedule = z.object({
  id: z.string(),
  productId: z.string(),
  platform: z.string(),
  scheduledDate: z.string(),
  scheduledTime: z.string(),
  timeZone: z.string(),
  /** The instant the push runs, in UTC. */
  runAt: z.string(),
  status: ZScheduleStatus,
  integrationId: z.string(),
  /** Why a push failed, when it did. */
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type TSchedule = z.infer<typeof ZSchedule>;

export const ZScheduleIdParams = z.object({ id: z.uuid() });
