import { createHash } from 'node:crypto';
import { ErrorCode, ZOrderIdParams, ZOrderListQuery } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { parseInput } from '../../lib/validate';
import { forgetOldWebhookEvents, forgetWebhookEvent, rememberWebhookEvent } from '../../lib/webhook-events.repository';
import { enqueue } from './order-jobs';
import type { OrdersDeps } from './orders.deps';
import { printerWebhookById } from './orders.repository';
import { approveOrder, cancelOrderByHand, getOrder, listOrders, retryOrder } from './orders.service';

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

  // Printful v2 webhooks: signed over their raw bytes with the secret of the configuration this URL names.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post('/api/webhooks/printful/:id', async (request, reply) => {
      const { id } = request.params as { id: string };
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const config = UUID.test(id) ? await printerWebhookById(deps.db, id) : null;
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
      const fresh = await rememberWebhookEvent(deps.db, { source: 'printful', eventId: key, topic });
      if (fresh) {
        await forgetOldWebhookEvents(deps);
        try {
          await enqueue.printerEvent(deps, { workspaceId: config.workspaceId, event: read.event }, key);
        } catch (error) {
          // Not queued: forget the event so Printful's retry is taken.
          await forgetWebhookEvent(deps.db, 'printful', key);
          throw error;
        }
      }
      return reply.status(200).send({ ok: true });
    });
  });
}
