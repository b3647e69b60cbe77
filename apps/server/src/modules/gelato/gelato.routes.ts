import { ZCatalogProductIdParams, ZCatalogProductsQuery, ZGelatoConnect } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import { getCatalogProductDetail, listCatalogProducts } from '../catalog/catalog.service';
import type { GelatoDeps } from './gelato.deps';
import { gelatoSandboxTick } from './gelato-sandbox.jobs';

export async function gelatoRoutes(app: FastifyInstance, { deps }: { deps: GelatoDeps }) {
  // The sandbox fetches print files from and sends webhooks to this app; its due steps run as jobs.
  deps.gelatoSandbox.attach(app);
  deps.gelatoSandbox.onSchedule = (at) => {
    gelatoSandboxTick(deps, at).catch((error) => app.log.error({ err: error }, 'gelato sandbox tick not queued'));
  };
  app.addHook('onClose', async () => deps.gelatoSandbox.close());

  app.get('/api/gelato/status', async (request) => deps.gelato.status(request.workspaceId));

  app.post('/api/gelato/connect', async (request) => {
    const input = parseInput(ZGelatoConnect, request.body, 'body');
    return deps.gelato.connect(request.workspaceId, input);
  });

  app.post('/api/gelato/disconnect', async (request) => deps.gelato.disconnect(request.workspaceId));

  app.get('/api/gelato/sandbox/orders', async (request) => ({
    orders: await deps.gelatoSandbox.orders(request.workspaceId),
  }));

  app.get('/api/gelato/products', async (request) => {
    const query = parseInput(ZCatalogProductsQuery, request.query, 'query');
    return listCatalogProducts(await deps.gelato.catalogFor(request.workspaceId), query);
  });

  app.get('/api/gelato/products/:id', async (request) => {
    const { id } = parseInput(ZCatalogProductIdParams, request.params, 'params');
    return getCatalogProductDetail(await deps.gelato.catalogFor(request.workspaceId), id);
  });
}
