import type { AddressInfo } from 'node:net';
import { ErrorCode, ZIntegrationIdParams, ZWooConnectBody } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { verifyWooSignature } from '../../integrations/woocommerce/client';
import { AppError, notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import { registerStoreRoutes } from '../stores/store-routes';
import type { WooCommerceDeps } from './woocommerce.deps';

const ZStoreImageParams = z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.png$/i) });

export async function woocommerceRoutes(app: FastifyInstance, { deps }: { deps: WooCommerceDeps }) {
  const woo = deps.woocommerce;
  app.addHook('onClose', async () => woo.close());
  // The sandbox store downloads pictures from this app: once it listens, its own address is known.
  app.addHook('onListen', async () => {
    const address = app.server.address() as AddressInfo | string | null;
    if (address && typeof address === 'object') {
      const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
      woo.selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    }
  });

  app.post('/api/woocommerce/connect', async (request, reply) => {
    const body = parseInput(ZWooConnectBody, request.body, 'body');
    const result = await woo.connect(request.workspaceId, body, `${request.protocol}://${request.host}`);
    return reply.status(201).send(result);
  });

  registerStoreRoutes(app, 'woocommerce', woo);

  app.get('/api/woocommerce/sandbox/products', async (request) => woo.sandboxProducts(request.workspaceId));

  // A product picture for a store to download: signed, no cookie needed.
  app.get('/api/store-images/:file', async (request, reply) => {
    const { file } = parseInput(ZStoreImageParams, request.params, 'params');
    const query = request.query as Record<string, unknown>;
    const bytes = await woo.storeImage(file.replace(/\.png$/, ''), query.expires, query.signature);
    if (!bytes) throw notFound('Image');
    return reply.header('Content-Type', 'image/png').header('X-Content-Type-Options', 'nosniff').send(bytes);
  });

  // Webhooks are signed over their raw bytes: this scope keeps JSON bodies as buffers.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    // WooCommerce pings a webhook it has just saved with a form body (`webhook_id=…`), unsigned [MEM]: answered
    // 200 with nothing done, so the store does not count it as a failed delivery.
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer', bodyLimit: 4096 },
      (_req, body, done) => done(null, { ping: true, body }),
    );
    scope.post('/api/webhooks/woocommerce/:id', async (request, reply) => {
      const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
      if ((request.body as { ping?: boolean } | null)?.ping) return reply.status(200).send({ ok: true });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['x-wc-webhook-signature'];
      const found = await woo.webhookSecret(id);
      if (!found || !verifyWooSignature(raw, typeof header === 'string' ? header : undefined, found.secret)) {
        throw new AppError(401, ErrorCode.Unauthorized, 'Webhook signature is not valid');
      }
      const topic = String(request.headers['x-wc-webhook-topic'] ?? '');
      let payload: unknown = null;
      try {
        payload = JSON.parse(raw.toString('utf8'));
      } catch {
        // WooCommerce's ping on creation is form data ("webhook_id=…"): nothing to do.
      }
      const delivery = request.headers['x-wc-webhook-delivery-id'];
      await woo.webhook(found.row, topic, payload, typeof delivery === 'string' ? delivery : null);
      return reply.status(200).send({ ok: true });
    });
  });
}
