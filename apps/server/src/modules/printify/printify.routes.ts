import { ZPrintifyCallbackQuery, ZPrintifyChooseShop, ZPrintifyConnect, ZPrintifyOAuthStart } from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { PrintifyDeps } from './printify.deps';
import { printifySandboxTick } from './printify-sandbox.jobs';

/** Where Printify sends the merchant back: APP_URL when set, else this request's origin (Printify wants https). */
const callbackUrl = (deps: PrintifyDeps, request: FastifyRequest) =>
  `${deps.config.appUrl ?? `${request.protocol}://${request.host}`}/api/printify/oauth/callback`;

export async function printifyRoutes(app: FastifyInstance, { deps }: { deps: PrintifyDeps }) {
  // The sandbox printer fetches print files from and sends webhooks to this app; its due steps run as jobs.
  deps.printifySandbox.attach(app);
  deps.printifySandbox.onSchedule = (at) => {
    printifySandboxTick(deps, at).catch((error) => app.log.error({ err: error }, 'printify sandbox tick not queued'));
  };
  app.addHook('onClose', async () => deps.printifySandbox.close());

  app.get('/api/printify/status', async (request) => deps.printify.status(request.workspaceId));

  app.post('/api/printify/connect', async (request) => {
    const input = parseInput(ZPrintifyConnect, request.body, 'body');
    return deps.printify.connect(request.workspaceId, input);
  });

  app.post('/api/printify/shop', async (request) => {
    const { shopId } = parseInput(ZPrintifyChooseShop, request.body, 'body');
    return deps.printify.chooseShop(request.workspaceId, shopId);
  });

  app.post('/api/printify/sandbox', async (request) => deps.printify.useSandbox(request.workspaceId));

  app.post('/api/printify/disconnect', async (request) => deps.printify.disconnect(request.workspaceId));

  // Browser navigations: outcomes are redirects back to the Integrations page.
  app.get('/api/printify/oauth/start', async (request, reply) => {
    if (!deps.printify.client.oauthConfigured) return reply.redirect('/integrations?printify=not_configured');
    const { currency } = parseInput(ZPrintifyOAuthStart, request.query, 'query');
    return reply.redirect(await deps.printify.startOAuth(request.workspaceId, callbackUrl(deps, request), currency));
  });

  app.get('/api/printify/oauth/callback', async (request, reply) => {
    const query = parseInput(ZPrintifyCallbackQuery, request.query, 'query');
    return reply.redirect(`/integrations?printify=${await deps.printify.finishOAuth(request.workspaceId, query)}`);
  });

  app.get('/api/printify/sandbox/orders', async (request) => ({
    orders: await deps.printifySandbox.orders(request.workspaceId),
  }));
}
