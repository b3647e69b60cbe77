import { ZProviderParams, ZProviderProductParams, ZProviderProductsQuery } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { PrinterCatalogueDeps } from './printer-catalogue';
import { providerProduct, providerProducts, providerStates } from './printers.service';

export async function printersRoutes(app: FastifyInstance, { deps }: { deps: PrinterCatalogueDeps }) {
  app.get('/api/fulfillment/providers', async (request) => ({
    providers: await providerStates(deps.printers, request.workspaceId),
  }));

  app.get('/api/providers/:provider/products', async (request) => {
    const { provider } = parseInput(ZProviderParams, request.params, 'params');
    const { search } = parseInput(ZProviderProductsQuery, request.query, 'query');
    return providerProducts(deps, provider, request.workspaceId, search);
  });

  app.get('/api/providers/:provider/products/:id', async (request) => {
    const { provider, id } = parseInput(ZProviderProductParams, request.params, 'params');
    return providerProduct(deps, provider, request.workspaceId, id);
  });
}
