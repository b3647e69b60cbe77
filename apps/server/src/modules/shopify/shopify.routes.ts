import {
  ErrorCode,
  type TShopifyConnectOptions,
  ZIntegrationIdParams,
  ZSandboxOrderInput,
  ZShopifyShopQuery,
  ZShopifySyncQuery,
} from '@podforge/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isValidShopDomain } from '../../integrations/shopify/hmac';
import { AppError } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { registerStoreRoutes } from '../stores/store-routes';
import type { ShopifyDeps } from './shopify.deps';
import { SANDBOX_AUTHORIZE_PREFIX, WEBHOOK_PATH } from './shopify.service';
import { recordWebhook } from './shopify-webhooks';

/** Where Shopify sends the seller back: APP_URL when set (it must be allow-listed in the app), else this origin. */
const callbackUrl = (deps: ShopifyDeps, request: FastifyRequest) =>
  `${deps.config.appUrl ?? `${request.protocol}://${request.host}`}/auth/shopify/callback`;

/** Query values as Shopify signed them: a repeated key is one value joined by commas (apis.md A1 (3)). */
function flatQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    out[key] = Array.isArray(value) ? value.map(String).join(',') : String(value ?? '');
  }
  return out;
}

const backToIntegrations = (outcome: string) =>
  outcome === 'connected' ? '/integrations?connected=shopify' : `/integrations?shopify_error=${outcome}`;

export async function shopifyRoutes(app: FastifyInstance, { deps }: { deps: ShopifyDeps }) {
  const shopify = deps.shopify;
  app.addHook('onClose', async () => shopify.close());
  shopify.registerWebhooks(deps.shopifyWebhooks);

  app.get('/api/shopify/validate-domain', async (request) => {
    const { shop } = parseInput(ZShopifyShopQuery, request.query, 'query');
    return shopify.validateDomain(shop);
  });

  app.get(
    '/api/shopify/connect-options',
    async (): Promise<TShopifyConnectOptions> => ({
      sandbox: shopify.sandboxMode,
      appStoreUrl: deps.config.shopifyAppStoreUrl,
    }),
  );

  // Browser navigations, not fetches: every outcome is a redirect back to the Integrations page.
  app.get('/auth/shopify/start', async (request, reply) => {
    // A listed app is installed from the App Store, which names the shop (/auth/shopify/install): no typed domain.
    if (deps.config.shopifyAppStoreUrl) return reply.redirect(backToIntegrations('install_from_app_store'));
    const { shop } = parseInput(ZShopifyShopQuery, request.query, 'query');
    if (!isValidShopDomain(shop)) return reply.redirect(backToIntegrations('invalid_shop'));
    return reply.redirect(await shopify.startOAuth(request.workspaceId, shop, callbackUrl(deps, request)));
  });

  // 'Reconnect' on a store Shopify no longer accepts (status error): OAuth again for its shop, no domain typed.
  app.get('/auth/shopify/reconnect/:id', async (request, reply) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    return reply.redirect(await shopify.reconnect(request.workspaceId, id, callbackUrl(deps, request)));
  });

  // The App URL (shopify.app.toml `application_url`): where Shopify sends the merchant at install, signed.
  app.get('/auth/shopify/install', async (request, reply) => {
    const started = await shopify.startInstall(
      request.workspaceId,
      flatQuery(request.query),
      callbackUrl(deps, request),
    );
    return reply.redirect('location' in started ? started.location : backToIntegrations(started.outcome));
  });

  app.get('/auth/shopify/callback', async (request, reply) => {
    const outcome = await shopify.finishOAuth(request.workspaceId, flatQuery(request.query));
    return reply.redirect(backToIntegrations(outcome));
  });

  // The sandbox's approval page, relayed: the sandbox listens on this machine's loopback only, so the browser
  // cannot reach it; the app asks it for the approval redirect (code, hmac, state) and hands that on.
  app.get(`${SANDBOX_AUTHORIZE_PREFIX}/:shop/admin/oauth/authorize`, async (request, reply) => {
    const fake = await shopify.sandboxServer();
    const { shop } = request.params as { shop: string };
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const ownFlow = await shopify.isOwnPendingFlow(request.workspaceId, shop, new URLSearchParams(search));
    if (!fake || !isValidShopDomain(shop) || !ownFlow) return reply.redirect(backToIntegrations('failed'));
    const answer = await fetch(`${fake.url}/${shop}/admin/oauth/authorize${search}`, { redirect: 'manual' });
    await answer.body?.cancel();
    const location = answer.headers.get('location');
    return reply.redirect(answer.status === 302 && location ? location : backToIntegrations('failed'));
  });

  app.get('/api/shopify/sync', async (request) => {
    const { shop } = parseInput(ZShopifySyncQuery, request.query, 'query');
    return shopify.sync(request.workspaceId, shop);
  });

  app.post('/api/shopify/sandbox/orders', async (request, reply) => {
    const input = parseInput(ZSandboxOrderInput, request.body, 'body');
    const fake = await shopify.sandboxServer();
    // The sandbox shop sends its webhooks to this app, as a real shop would to its subscriptions.
    fake?.orders.setWebhookSink(async (d) => {
      const r = await app.inject({ method: 'POST', url: WEBHOOK_PATH, payload: d.body, headers: d.headers });
      if (r.statusCode >= 300) throw new Error(`webhook answered ${r.statusCode}`);
    });
    return reply.status(201).send(await shopify.placeSandboxOrder(request.workspaceId, input));
  });

  // Its sandbox orders route (above) also points the sandbox's webhooks at this app: only disconnect is shared.
  registerStoreRoutes(app, 'shopify', { disconnect: (workspaceId, id) => shopify.disconnect(workspaceId, id) });

  app.get('/api/shopify/sandbox/products', async (request) => shopify.sandboxProducts(request.workspaceId));

  // The sandbox's pictures (staged uploads), for the sandbox page: the sandbox itself listens on loopback only.
  app.get('/api/shopify/sandbox/files/:dir/:name', async (request, reply) => {
    const { dir, name } = request.params as { dir: string; name: string };
    const file = await shopify.sandboxFile(`${dir}/${name}`);
    if (!file) throw new AppError(404, ErrorCode.NotFound, 'Picture not found');
    return reply
      .header('Content-Type', file.contentType)
      .header('Cache-Control', 'private, max-age=3600')
      .send(file.bytes);
  });

  // Webhooks are signed over their raw bytes: this scope keeps JSON bodies as buffers.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    // Answers as soon as the event is recorded (Shopify waits about 5 s); the work runs as a job.
    scope.post(WEBHOOK_PATH, async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = (name: string) => {
        const value = request.headers[`x-shopify-${name}`] ?? request.headers[`shopify-${name}`];
        return typeof value === 'string' && value ? value : undefined;
      };
      if (!(await shopify.verifyWebhook(raw, header('hmac-sha256'), header('shop-domain')))) {
        throw new AppError(401, ErrorCode.Unauthorized, 'Webhook signature is not valid');
      }
      await recordWebhook(deps, {
        eventId: header('event-id'),
        webhookId: header('webhook-id'),
        topic: header('topic') ?? '',
        shop: header('shop-domain') ?? '',
        triggeredAt: header('triggered-at'),
        raw,
      });
      return reply.status(200).send({ ok: true });
    });
  });
}
