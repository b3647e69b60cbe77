import { ErrorCode } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Aborts when the client disconnects before the answer was written: long work (decoding an upload, waiting in
     * the decode queue) stops, and whatever it stored is removed, so nothing is kept that nobody was answered for.
     */
    clientSignal: AbortSignal;
  }
}

/** The abort reason: a 499-style refusal nobody will read, kept as an AppError so it never logs as a crash. */
export class ClientGoneError extends AppError {
  constructor() {
    super(400, ErrorCode.BadRequest, 'The client closed the connection before the answer');
  }
}

export function registerClientAbort(app: FastifyInstance) {
  app.decorateRequest('clientSignal', null as unknown as AbortSignal);
  app.addHook('onRequest', async (request, reply) => {
    const controller = new AbortController();
    request.clientSignal = controller.signal;
    // 'close' on the response comes when it was written or when the connection went away first.
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new ClientGoneError());
    });
  });
}
