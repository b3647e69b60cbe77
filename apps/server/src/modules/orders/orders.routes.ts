import { createHash } from 'node:crypto';
import { ErrorCode, ZOrderIdParams, ZOrderListQuery, ZSandboxOrderInput } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { fulfillmentWebhooks, webhookEvents } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { parseInput } from '../../lib/validate';
import { forgetOldWebhookEvents } from './fulfilment';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import { approveOrder, cancelOrderByHand, getOrder, listOrders, placeSandboxOrder, retryOrder } from './orders.service';

export async function ordersRoutes(app: FastifyInstance, { deps }: { deps: OrdersDeps }) {
  app.get('/api/orders', async (request) => {
    return listOrders(deps, request.workspaceId, parseInput(ZOrderListQuery, request.query, 'query'));
  });

  app.get('/api/orders/:id', async (request) => {
    const { id } = parseInput(ZOrderIdParams, request.params, 'params');
    return getOrder(deps, request.workspaceId, id);
  });

  app.post('/api/orders/:id/approve', async (request, reply) => {
    const { id } = parseInput(ZOrderIdParams, request.params, 'params');
    return reply.status(202).send(await approveOrder(deps, request.workspaceId, id));
  });

  app.post('/api/orders/:id/cancel', async (request, reply) => {
    const { id } = parseInput(ZOrderIdParams, request.params, 'params');
    return reply.status(202).send(await cancelOrderByHand(deps, request.workspaceId, id));
  });

  app.post('/api/orders/:id/retry', async (request, reply) => {
    const { id } = parseInput(ZOrderIdParams, request.params, 'params');
    return reply.status(202).send(await retryOrder(deps, request.workspaceId, id));
  });

  app.post('/api/shopify/sandbox/orders', async (request, reply) => {
    const input = parseInput(ZSandboxOrderInput, request.body, 'body');
    const fake = await deps.shopify.sandboxServer();
    // The sandbox shop sends its webhooks to this app, as a real shop would to its subscriptions.
    fake?.orders.setWebhookSink(async (d) => {
      const r = await app.inject({ method: 'POST', url: '/api/webhooks/shopify', payload: d.body, headers: d.headers });
      if (r.statusCode >= 300) throw new Error(`webhook answered ${r.statusCode}`);
    });
    return reply.status(201).send(await placeSandboxOrder(deps, request.workspaceId, input));
  });

  // Printful v2 webhooks: signed over their raw bytes with the secret of the configuration this URL names.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/api/webhooks/printful/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const [config] = UUID.test(id)
        ? await deps.db.select().from(fulfillmentWebhooks).where(eq(fulfillmentWebhooks.id, id))
        : [];
      // The configuration names its printer: that adapter checks the signature and reads the event.
      const printer = config ? deps.printers.get(config.provider) : null;
      if (!config || !printer?.verifyWebhook(raw, request.headers, deps.cipher.decrypt(config.secretEnc))) {
        throw new AppError(401, ErrorCode.Unauthorized, 'Webhook signature is not valid');
      }
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new AppError(400, ErrorCode.BadRequest, 'Webhook body is not JSON');
      }
      const read = printer.readWebhook(body);
      if (!read) return reply.status(200).send({ ok: true });
      const key = createHash('sha256')
        .update(JSON.stringify([config.id, read.key]))
        .digest('hex');
      const named = body as { type?: unknown; event?: unknown; object?: unknown };
      const topic = String(named.type ?? named.event ?? named.object);
      const [fresh] = await deps.db
        .insert(webhookEvents)
        .values({ source: 'printful', eventId: key, topic })
        .onConflictDoNothing()
        .returning({ eventId: webhookEvents.eventId });
      if (fresh) {
        await forgetOldWebhookEvents(deps);
        try {
          await enqueue.printerEvent(deps, { workspaceId: config.workspaceId, event: read.event }, key);
        } catch (error) {
          // Not queued: forget the event so Printful's retry is taken.
          await deps.db
            .delete(webhookEvents)
            .where(and(eq(webhookEvents.source, 'printful'), eq(webhookEvents.eventId, key)));
          throw error;
        }
      }
      return reply.status(200).send({ ok: true });
    });
  });
}
