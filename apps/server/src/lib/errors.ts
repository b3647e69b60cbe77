import { ErrorCode, type TErrorCode } from '@podforge/contract';

/**
 * An error the API reports to the caller as `{ error, code }` (plus `details`, e.g. the AI calls' `errorType`) with
 * `statusCode`. Anything else thrown in a route becomes a 500 whose message is never shown.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: TErrorCode,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, ErrorCode.BadRequest, message);
export const notFound = (what: string) => new AppError(404, ErrorCode.NotFound, `${what} not found`);
export const conflict = (message: string) => new AppError(409, ErrorCode.Conflict, message);
export const unsupportedMediaType = (message: string) => new AppError(415, ErrorCode.UnsupportedMediaType, message);
export const payloadTooLarge = (message: string) => new AppError(413, ErrorCode.PayloadTooLarge, message);
export const unprocessable = (message: string) => new AppError(422, ErrorCode.Unprocessable, message);
export const upstreamError = (message: string) => new AppError(502, ErrorCode.Upstream, message);
export const notImplemented = (message: string) => new AppError(501, ErrorCode.NotImplemented, message);
