import type { ServerResponse } from 'node:http';
import { ErrorCode } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors';
import type { EventsDeps } from './events.deps';
import { WorkspaceChanges } from './workspace-changes';

/** How often the instance reads the versions of the workspaces that have a screen open. */
const PERIOD_MS = 1_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** Screens one workspace may keep open on one instance (each is a held connection). */
const MAX_STREAMS_PER_WORKSPACE = 20;

/**
 * `GET /api/events`: a server-sent event stream per open app. `changed` says the workspace's lists, orders or
 * dashboard changed (a push, a schedule, an order step, a batch, another tab); the page reads again what it shows.
 * The browser's EventSource reconnects by itself after a dropped connection (`retry`).
 */
export async function eventsRoutes(app: FastifyInstance, { deps }: { deps: EventsDeps }) {
  const changes = new WorkspaceChanges(deps.db, PERIOD_MS, (error) => app.log.warn({ err: error }, 'events poll'));
  const open = new Set<ServerResponse>();
  // Before the server waits for its connections to end: a stream would otherwise hold it open.
  app.addHook('preClose', async () => {
    changes.stop();
    for (const res of open) res.end();
  });

  app.get('/api/events', async (request, reply) => {
    const workspaceId = request.workspaceId;
    if (changes.count(workspaceId) >= MAX_STREAMS_PER_WORKSPACE) {
      throw new AppError(
        429,
        ErrorCode.RateLimited,
        `At most ${MAX_STREAMS_PER_WORKSPACE} windows of one workspace follow live changes at once; close some tabs.`,
      );
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      connection: 'keep-alive',
    });
    res.write('retry: 2000\n\nevent: ready\ndata: {}\n\n');
    open.add(res);
    const unsubscribe = changes.subscribe(workspaceId, (version) => {
      res.write(`event: changed\ndata: ${JSON.stringify({ version })}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      open.delete(res);
    });
    // A first read now, so the stream's starting version is taken while the page's first answers are fresh.
    void changes.poll();
  });
}
