import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A client that stops sending its body part-way is closed once it has been silent for `idleMs`: the socket is
 * destroyed, the request's body stream breaks, and whatever was being received (an upload's temp file) is removed
 * by its reader. Only while a body is being received: a request the server is still working on (a decode, a store
 * push) may keep a quiet socket as long as it needs. (Headers are bounded by Node's `headersTimeout`, set in app.ts.)
 */
export function registerBodyIdleTimeout(app: FastifyInstance, idleMs: number) {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    const socket = raw.socket;
    const length = raw.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
    // Injected requests (tests) have no real socket.
    if (!hasBody || raw.complete || !(socket instanceof net.Socket)) return;
    // Without a callback, Node's server destroys a socket that times out (no 'timeout' listener of ours).
    socket.setTimeout(idleMs);
    let cleared = false;
    const clear = () => {
      if (cleared || socket.destroyed) return;
      cleared = true;
      socket.setTimeout(app.server.timeout);
    };
    raw.once('end', clear);
    reply.raw.once('finish', clear);
  });
}
