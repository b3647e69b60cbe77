import { ZProviderParams, ZProviderProductParams, ZProviderProductsQuery } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import { getCatalogProductDetail } from '../catalog/catalog.service';
import type { PrinterCatalogueDeps } from './printer-catalogue';
import { catalogueFor } from './printer-catalogue';
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

  // The same product in the catalogue detail shape the create flows already read for the default network (variants, colours,
  // sizes, print areas), so a product can be made on any printer's blank.
  app.get('/api/providers/:provider/catalog/:id', async (request) => {
    const { provider, id } = parseInput(ZProviderProductParams, request.params, 'params');
    return getCatalogProductDetail(await catalogueFor(deps, provider, request.workspaceId), Number(id));
  });
}
