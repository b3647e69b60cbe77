import type { AddressInfo } from 'node:net';
import {
  DEFAULT_AMAZON_MARKETPLACE,
  ZAmazonSettingsBody,
  ZAmazonStartQuery,
  ZIntegrationIdParams,
} from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../lib/validate';
import { registerStoreRoutes } from '../stores/store-routes';
import type { AmazonDeps } from './amazon.deps';
import { AMAZON_SANDBOX_CONNECT_PREFIX } from './amazon.service';

/** Where Amazon sends the seller back: APP_URL when set (registered in the app), else this origin. */
const callbackUrl = (deps: AmazonDeps, request: FastifyRequest) =>
  `${deps.config.appUrl ?? `${request.protocol}://${request.host}`}/auth/amazon/callback`;

const ZProductIdParams = z.object({ productId: z.uuid() });

const flatQuery = (query: unknown): Record<string, string> =>
  Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      Array.isArray(v) ? String(v[0]) : String(v ?? ''),
    ]),
  );

export async function amazonRoutes(app: FastifyInstance, { deps }: { deps: AmazonDeps }) {
  const amazon = deps.amazon;
  app.addHook('onClose', async () => amazon.close());
  // The sandbox's pictures are served by this app: once it listens, its own address is known.
  app.addHook('onListen', async () => {
    const address = app.server.address() as AddressInfo | string | null;
    if (address && typeof address === 'object') {
      const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
      amazon.selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }
  });

  // Browser navigations: every outcome is a redirect back to the Integrations page.
  app.get('/auth/amazon/start', async (request, reply) => {
    const query = parseInput(ZAmazonStartQuery, request.query, 'query');
    const marketplace = query.marketplace ?? DEFAULT_AMAZON_MARKETPLACE;
    return reply.redirect(await amazon.startOAuth(request.workspaceId, callbackUrl(deps, request), marketplace));
  });

  app.get('/auth/amazon/callback', async (request, reply) => {
    const query = flatQuery(request.query);
    if (query.error) return reply.redirect('/integrations?amazon_error=denied');
    const { outcome } = await amazon.finishOAuth(request.workspaceId, query);
    if (outcome === 'connected') return reply.redirect('/integrations?connected=amazon');
    return reply.redirect(`/integrations?amazon_error=${outcome}`);
  });

  // The sandbox's consent page, relayed: the sandbox listens on this machine's loopback only; the app asks it for
  // the consent redirect (code, seller) for this workspace's own pending flow only.
  app.get(`${AMAZON_SANDBOX_CONNECT_PREFIX}/apps/authorize/consent`, async (request, reply) => {
    const fake = await amazon.sandboxServer();
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const own = await amazon.isOwnPendingFlow(request.workspaceId, new URLSearchParams(search));
    if (!fake || !own) return reply.redirect('/integrations?amazon_error=failed');
    const answer = await fetch(amazon.sandboxApprovalUrl(fake.url, request.workspaceId, search), {
      redirect: 'manual',
    });
    await answer.body?.cancel();
    const location = answer.headers.get('location');
    return reply.redirect(answer.status === 302 && location ? location : '/integrations?amazon_error=failed');
  });

  app.get('/api/amazon/:id/settings', async (request) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    return amazon.getSettings(request.workspaceId, id);
  });

  app.post('/api/amazon/:id/settings', async (request) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    const body = parseInput(ZAmazonSettingsBody, request.body, 'body');
    return amazon.updateSettings(request.workspaceId, id, body);
  });

  registerStoreRoutes(app, 'amazon', amazon);

  app.get('/api/amazon/products/:productId/listings', async (request) => {
    const { productId } = parseInput(ZProductIdParams, request.params, 'params');
    return amazon.productListings(request.workspaceId, productId);
  });

  app.get('/api/amazon/sandbox/listings', async (request) => amazon.sandboxListings(request.workspaceId));

  app.get('/api/amazon/sandbox/orders', async (request) => amazon.sandboxOrders(request.workspaceId));
}
