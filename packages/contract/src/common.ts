import { z } from 'zod';
import { PRODUCT_STATUSES } from './plain/common';

/** Every non-2xx answer of the API has this body. */
export const ZApiError = z.object({
  error: z.string(),
  code: z.string(),
});
export type TApiError = z.infer<typeof ZApiError>;

export const ZProductStatus = z.enum(PRODUCT_STATUSES);

/** Query-string integers arrive as text. */
export const zQueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
