import {
  ZCatalogCategoriesQuery,
  ZCatalogProductIdParams,
  ZCatalogProductsQuery,
  ZChoosePrintfulStore,
  ZPrintfulCallbackQuery,
} from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { conflict } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { getCatalogProductDetail, listCatalogCategories, listCatalogProducts } from '../catalog/catalog.service';
import type { PrintfulDeps } from './printful.deps';
import { sandboxTick } from './printful-sandbox.jobs';

/** Where Printful sends the user back: APP_URL when set (behind a proxy), else this request's own origin. */
const callbackUrl = (deps: PrintfulDeps, request: FastifyRequest) =>
  `${deps.config.appUrl ?? `${request.protocol}://${request.host}`}/api/printful/oauth/callback`;

export async function printfulRoutes(app: FastifyInstance, { deps }: { deps: PrintfulDeps }) {
  // The sandbox printer fetches print files from and sends webhooks to this app; its due steps run as jobs.
  deps.printfulSandbox.attach(app);
  deps.printfulSandbox.onSchedule = (at) => {
    sandboxTick(deps, at).catch((error) => app.log.error({ err: error }, 'sandbox tick not queued'));
  };
  app.addHook('onClose', async () => deps.printfulSandbox.close());

  app.get('/api/printful/sandbox/orders', async (request) => deps.printfulSandbox.orders(request.workspaceId));

  app.get('/api/printful/products', async (request) => {
    const query = parseInput(ZCatalogProductsQuery, request.query, 'query');
    return listCatalogProducts(await deps.printful.catalogFor(request.workspaceId), query);
  });

  app.get('/api/printful/products/:id', async (request) => {
    const { id } = parseInput(ZCatalogProductIdParams, request.params, 'params');
    return getCatalogProductDetail(await deps.printful.catalogFor(request.workspaceId), id);
  });

  app.get('/api/printful/categories', async (request) => {
    const { parent_id } = parseInput(ZCatalogCategoriesQuery, request.query, 'query');
    return listCatalogCategories(await deps.printful.catalogFor(request.workspaceId), parent_id);
  });

  app.get('/api/printful/status', async (request) => deps.printful.status(request.workspaceId));

  app.get('/api/printful/stores', async (request) => deps.printful.stores(request.workspaceId));

  app.post('/api/printful/store', async (request) => {
    const { storeId } = parseInput(ZChoosePrintfulStore, request.body, 'body');
    return deps.printful.chooseStore(request.workspaceId, storeId);
  });

  app.post('/api/printful/disconnect', async (request) => {
    const status = await deps.printful.disconnect(request.workspaceId);
    if (status.connected && status.via === 'token') {
      throw conflict(
        'Printful is connected for everyone using this app by its operator; it cannot be disconnected here',
      );
    }
    return status;
  });

  // A browser navigation, not a fetch: outcomes are redirects back to the Integrations page.
  app.get('/api/printful/oauth/start', async (request, reply) => {
    if (!deps.printful.client.oauthConfigured) return reply.redirect('/integrations?printful=not_configured');
    return reply.redirect(await deps.printful.startOAuth(request.workspaceId, callbackUrl(deps, request)));
  });

  app.get('/api/printful/oauth/callback', async (request, reply) => {
    const query = parseInput(ZPrintfulCallbackQuery, request.query, 'query');
    const outcome = await deps.printful.finishOAuth(request.workspaceId, query);
    return reply.redirect(`/integrations?printful=${outcome}`);
  });
}
