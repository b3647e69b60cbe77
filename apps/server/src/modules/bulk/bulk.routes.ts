import { ZBulkJobParams, ZStartBulk } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { BulkDeps } from './bulk.deps';
import { getBulk, retryBulk, startBulk, stopBulkRuns } from './bulk.service';

export async function bulkRoutes(app: FastifyInstance, { deps }: { deps: BulkDeps }) {
  // Before the decode pool and the job queue close under a running item: it is handed back, not failed.
  app.addHook('preClose', async () => stopBulkRuns(deps));

  app.post('/api/bulk', async (request, reply) => {
    const input = parseInput(ZStartBulk, request.body, 'body');
    return reply.status(202).send(await startBulk(deps, request.workspaceId, input));
  });

  app.get('/api/bulk/:jobId', async (request) => {
    const { jobId } = parseInput(ZBulkJobParams, request.params, 'params');
    return getBulk(deps, request.workspaceId, jobId);
  });

  app.post('/api/bulk/:jobId/retry', async (request, reply) => {
    const { jobId } = parseInput(ZBulkJobParams, request.params, 'params');
    return reply.status(202).send(await retryBulk(deps, request.workspaceId, jobId));
  });
}
