/** Machine codes the server uses in `ApiError.code`. */
export const ErrorCode = {
  BadRequest: 'BAD_REQUEST',
  Unauthorized: 'UNAUTHORIZED',
  /** A browser that has had a workspace comes back without a session: it may sign in or start a new one. */
  NoSession: 'NO_SESSION',
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

/** A product's status: a seller sets draft or ready; processing and live follow store pushes. */
export const PRODUCT_STATUSES = ['draft', 'ready', 'processing', 'live'] as const;
export type TProductStatus = (typeof PRODUCT_STATUSES)[number];
