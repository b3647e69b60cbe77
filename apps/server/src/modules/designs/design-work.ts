import { UPLOAD_ID_HEADER } from '@podforge/contract';
import type { FastifyRequest } from 'fastify';
import { UUID } from '../../lib/uuid';
import type { DesignWorkOptions } from './designs.service';

/** The decode queue's key for an upload: the browser's upload id (when it sent one) within its workspace. */
export const uploadTicket = (workspaceId: string, uploadId: string) => `${workspaceId}:${uploadId.toLowerCase()}`;

/** Ties an upload's work to its request: the client's disconnect signal and its upload id (if a valid one). */
export function designWork(request: FastifyRequest): DesignWorkOptions {
  const header = request.headers[UPLOAD_ID_HEADER];
  const uploadId = typeof header === 'string' && UUID.test(header) ? header : null;
  return {
    signal: request.clientSignal,
    ticket: uploadId ? uploadTicket(request.workspaceId, uploadId) : null,
  };
}
