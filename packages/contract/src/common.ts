import { z } from 'zod';

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

/** Machine codes the server uses in `ApiError.code`. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthorized: 'UNAUTHORIZED',
  ValidationFailed: 'VALIDATION_FAILED',
  NotFound: 'NOT_FOUND',
  Forbidden: 'FORBIDDEN',
  CrossSite: 'CROSS_SITE_REQUEST',
  UnsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  Unprocessable: 'UNPROCESSABLE',
  Conflict: 'CONFLICT',
  RateLimited: 'RATE_LIMITED',
  NotImplemented: 'NOT_IMPLEMENTED',
  Upstream: 'UPSTREAM_ERROR',
  Internal: 'INTERNAL_ERROR',
} as const;
export type TErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const ZProductStatus = z.enum(['draft', 'ready', 'processing', 'live']);
export type TProductStatus = z.infer<typeof ZProductStatus>;

/** Query-string integers arrive as text. */
export const zQueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
