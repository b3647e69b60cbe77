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
