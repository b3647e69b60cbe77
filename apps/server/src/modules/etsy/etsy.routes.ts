import { ZEtsySetupBody, ZIntegrationIdParams } from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseInput } from '../../lib/validate';
import { registerStoreRoutes } from '../stores/store-routes';
import type { EtsyDeps } from './etsy.deps';
import { ETSY_SANDBOX_CONNECT_PREFIX } from './etsy.service';

/** Where Etsy sends the seller back: APP_URL when set (it must be registered in the Etsy app), else this origin. */
const callbackUrl = (deps: EtsyDeps, request: FastifyRequest) =>
  `${deps.config.appUrl ?? `${request.protocol}://${request.host}`}/auth/etsy/callback`;

const flatQuery = (query: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      Array.isArray(v) ? String(v[0]) : String(v ?? ''),
    ]),
  );

export async function etsyRoutes(app: FastifyInstance, { deps }: { deps: EtsyDeps }) {
  const etsy = deps.etsy;
  app.addHook('onClose', async () => etsy.close());

  // Browser navigations: every outcome is a redirect back to the Integrations page.
  app.get('/auth/etsy/start', async (request, reply) =>
    reply.redirect(await etsy.startOAuth(request.workspaceId, callbackUrl(deps, request))),
  );

  app.get('/auth/etsy/callback', async (request, reply) => {
    const query = flatQuery(request.query);
    if (query.error) return reply.redirect('/integrations?etsy_error=denied');
    const { outcome, integrationId } = await etsy.finishOAuth(request.workspaceId, query);
    if (outcome === 'connected') return reply.redirect('/integrations?connected=etsy');
    if (outcome === 'setup') return reply.redirect(`/integrations?etsy_setup=${integrationId}`);
    return reply.redirect(`/integrations?etsy_error=${outcome}`);
  });

  // The sandbox's approval page, relayed: the sandbox listens on this machine's loopback only, so the browser
  // cannot reach it; the app asks it for the approval redirect (code, state) and hands that on, for this
  // workspace's own pending flow only.
  app.get(`${ETSY_SANDBOX_CONNECT_PREFIX}/oauth/connect`, async (request, reply) => {
    const fake = await etsy.sandboxServer();
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const own = await etsy.isOwnPendingFlow(request.workspaceId, new URLSearchParams(search));
    if (!fake || !own) return reply.redirect('/integrations?etsy_error=failed');
    const answer = await fetch(etsy.sandboxApprovalUrl(fake.url, request.workspaceId, search), { redirect: 'manual' });
    await answer.body?.cancel();
    const location = answer.headers.get('location');
    return reply.redirect(answer.status === 302 && location ? location : '/integrations?etsy_error=failed');
  });

  app.get('/api/etsy/:id/setup', async (request) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    return etsy.setup(request.workspaceId, id);
  });

  app.post('/api/etsy/:id/setup', async (request) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    const body = parseInput(ZEtsySetupBody, request.body, 'body');
    return etsy.saveSetup(request.workspaceId, id, body);
  });

  registerStoreRoutes(app, 'etsy', etsy);

  app.get('/api/etsy/sandbox/listings', async (request) => etsy.sandboxListings(request.workspaceId));
}
