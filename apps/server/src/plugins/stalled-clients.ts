import net from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * A client that stops sending its body part-way is closed once it has sent nothing for `idleMs` while the server
 * was ready to read: the socket is destroyed, the request's body stream breaks, and whatever was being received (an
 * upload's temp file) is removed by its reader. Time the server itself does not read (its reader paused while a file
 * of a multi-file upload waits for a decoder, or before the route starts reading) is not the client's silence. A
 * request the server is still working on after its body arrived may keep a quiet socket as long as it needs.
 * (Headers are bounded by Node's `headersTimeout`, set in app.ts.)
 */
export function registerBodyIdleTimeout(app: FastifyInstance, idleMs: number) {
  const tickMs = Math.max(50, Math.min(1000, idleMs / 4));
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    const socket = raw.socket;
    const length = raw.headers['content-length'];
    const hasBody = (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
    // Injected requests (tests) have no real socket.
    if (!hasBody || raw.complete || !(socket instanceof net.Socket)) return;
    let lastRead = socket.bytesRead;
    let quietSince = Date.now();
    const watch = setInterval(() => {
      const read = socket.bytesRead;
      // Reading: nobody paused the body, and its buffer has room (Node reads the socket into it).
      const reading = raw.readableFlowing !== false && raw.readableLength < raw.readableHighWaterMark;
      if (read !== lastRead || !reading) {
        lastRead = read;
        quietSince = Date.now();
        return;
      }
      if (Date.now() - quietSince >= idleMs) {
        stop();
        socket.destroy();
      }
    }, tickMs);
    watch.unref();
    const stop = () => clearInterval(watch);
    raw.once('end', stop);
    raw.once('close', stop);
    reply.raw.once('close', stop);
  });
}
