import { createHash } from 'node:crypto';
import { ErrorCode, ZOrderIdParams, ZOrderListQuery } from '@podforge/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { parseInput } from '../../lib/validate';
import {
  forgetOldWebhookEvents,
  forgetWebhookEvent,
  LEGACY_PRINTER_WEBHOOK_SOURCE,
  rememberWebhookEvent,
  webhookEventSeen,
} from '../../lib/webhook-events.repository';
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

  // Every printer's webhooks, at `printerWebhookPath`: signed (or not) as its adapter says, checked with the secret of
  // the configuration the URL names; that configuration names the printer, whose adapter reads the event.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    const receive = async (request: FastifyRequest, reply: FastifyReply, provider: string | null) => {
      const { id } = request.params as { id: string };
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const found = UUID.test(id) ? await printerWebhookById(deps.db, id) : null;
      const config = found && (provider === null || found.provider === provider) ? found : null;
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
      // Taken once per sender: remembered under the provider that sent it (the configuration's, which the route's
      // names), so one printer's delivery never stands for another's.
      const source = config.provider;
      const takenBefore =
        source !== LEGACY_PRINTER_WEBHOOK_SOURCE &&
        (await webhookEventSeen(deps.db, LEGACY_PRINTER_WEBHOOK_SOURCE, key));
      const fresh = !takenBefore && (await rememberWebhookEvent(deps.db, { source, eventId: key, topic }));
      if (fresh) {
        await forgetOldWebhookEvents(deps);
        try {
          await enqueue.printerEvent(deps, { workspaceId: config.workspaceId, event: read.event }, key);
        } catch (error) {
          // Not queued: forget the event so the printer's retry is taken.
          await forgetWebhookEvent(deps.db, source, key);
          throw error;
        }
      }
      return reply.status(200).send({ ok: true });
    };
    scope.post('/api/webhooks/printers/:provider/:id', (request, reply) =>
      receive(request, reply, (request.params as { provider: string }).provider),
    );
    // Migration alias: configurations made before the one route (set at the printer by API, or entered by the seller
    // in a printer's dashboard) still send here; the configuration the id names says which printer it is.
    scope.post('/api/webhooks/printful/:id', (request, reply) => receive(request, reply, null));
  });
}
