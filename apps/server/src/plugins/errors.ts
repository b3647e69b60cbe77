import { ErrorCode, type TErrorCode } from '@podforge/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

const codeForStatus: Record<number, TErrorCode> = {
  400: ErrorCode.BadRequest,
  403: ErrorCode.Forbidden,
  404: ErrorCode.NotFound,
  409: ErrorCode.Conflict,
  413: ErrorCode.PayloadTooLarge,
  415: ErrorCode.UnsupportedMediaType,
  422: ErrorCode.Unprocessable,
  429: ErrorCode.RateLimited,
};

/**
 * The multipart parser (busboy, under @fastify/multipart) reports a malformed body with plain errors: the caller's
 * mistake, answered 400 with the reason instead of a 500 (and never logged as a crash).
 */
function malformedMultipart(error: Error): string | null {
  if ((error as { statusCode?: unknown }).statusCode !== undefined) return null;
  if (error.message === 'Multipart: Boundary not found') {
    return 'Malformed multipart body: the Content-Type names no boundary (multipart/form-data; boundary=...)';
  }
  if (/unexpected end of multipart data/i.test(error.message)) {
    return 'Malformed multipart body: it ended before its closing boundary (truncated, or not the boundary its Content-Type names)';
  }
  return null;
}

/**
 * The one error handler: every non-2xx answer is `{ error, code }`. A 4xx keeps its message (it is about the
 * request); a 5xx is logged and answered with a fixed text so no stack trace or internal detail leaks.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (request.clientSignal?.aborted) {
      // Nobody is listening: the work was cancelled and cleaned up; not a failure of ours.
      request.log.info({ err: error }, 'client went away');
      return reply.status(400).send({ error: 'The client closed the connection', code: ErrorCode.BadRequest });
    }
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(error.statusCode).send({ ...error.details, error: error.message, code: error.code });
    }
    const malformed = malformedMultipart(error);
    if (malformed) return reply.status(400).send({ error: malformed, code: ErrorCode.BadRequest });
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.status(500).send({ error: 'Internal server error', code: ErrorCode.Internal });
    }
    return reply
      .status(status)
      .send({ error: error.message || 'Bad request', code: codeForStatus[status] ?? ErrorCode.BadRequest });
  });
}
