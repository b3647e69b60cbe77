import { z } from 'zod';
import { PRODUCT_STATUSES } from './plain/common';

/** A page of a list: its items and where it stands (`GET /api/products`, `/api/orders`, the catalogue). */
export const zPage = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });

/** Every non-2xx answer of the API has this body. */
export const ZApiError = z.object({
  error: z.string(),
  code: z.string(),
});
export type TApiError = z.infer<typeof ZApiError>;

export const ZProductStatus = z.enum(PRODUCT_STATUSES);

/** Query-string integers arrive as text. */
export const zQueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
