import type { FastifyInstance } from 'fastify';
import type { IntegrationsDeps } from './integrations.deps';
import { listIntegrations } from './integrations.service';

export async function integrationsRoutes(app: FastifyInstance, { deps }: { deps: IntegrationsDeps }) {
  app.get('/api/integrations', async (request) => listIntegrations(deps, request.workspaceId));
}
