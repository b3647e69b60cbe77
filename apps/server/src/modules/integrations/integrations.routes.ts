import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps';
import { listIntegrations } from './integrations.service';

export async function integrationsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get('/api/integrations', async (request) => listIntegrations(deps, request.workspaceId));
}
