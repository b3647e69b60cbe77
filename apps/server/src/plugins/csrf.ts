import { ErrorCode } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

/** Compares hosts after URL normalisation, so `http://a:80` and `a` match. An unparsable or `null` origin never does. */
function isSameOrigin(origin: string, ownUrl: string): boolean {
  try {
    return new URL(origin).host === new URL(ownUrl).host;
  } catch {
    return false;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * State-changing calls must come from our own pages: a cross-site request (per Sec-Fetch-Site or a foreign Origin)
 * answers 403, and a body must be JSON or multipart, which a cross-site HTML form cannot send without a preflight.
 */
export function registerCsrfGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['sec-fetch-site'] === 'cross-site') {
      throw new AppError(403, ErrorCode.CrossSite, 'Cross-site requests are not allowed');
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !isSameOrigin(origin, `${request.protocol}://${request.headers.host ?? ''}`)) {
      throw new AppError(403, ErrorCode.CrossSite, 'Cross-site requests are not allowed');
    }
    const hasBody =
      (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') ||
      request.headers['transfer-encoding'] !== undefined;
    if (!hasBody) return;
    // Store webhooks are proven by their signature, and WooCommerce pings a new webhook with a form body.
    if (request.url.startsWith('/api/webhooks/')) return;
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json' && type !== 'multipart/form-data') {
      throw new AppError(
        415,
        ErrorCode.UnsupportedMediaType,
        `Content-Type must be application/json or multipart/form-data, not ${type || 'empty'}`,
      );
    }
  });
}
