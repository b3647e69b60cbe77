import { type TSandboxOrderInput, ZIntegrationIdParams, ZSandboxOrderInput } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { parseInput } from '../../lib/validate';
import type { StorePlatformId } from './store-publisher';

const ZImageParams = z.object({ imageId: z.coerce.number().int().positive() });

/** What a store module answers on the routes every store has (a sandbox's two only where it has them). */
export type StoreRoutesService = {
  disconnect(workspaceId: string, id: string): Promise<unknown>;
  /** A test order in the built-in sandbox store, as a buyer would place it. */
  placeSandboxOrder?(workspaceId: string, input: TSandboxOrderInput): Promise<unknown>;
  /** A picture the built-in sandbox store holds, for its page (the sandbox itself listens on loopback only). */
  sandboxImage?(workspaceId: string, imageId: number): Promise<Buffer | null>;
};

/**
 * The routes every store module has, under `/api/<platform>/`: `POST disconnect/:id`, and with a sandbox
 * `POST sandbox/orders` (201) and `GET sandbox/images/:imageId` (a PNG, 404 when the sandbox holds none by that id).
 */
export function registerStoreRoutes(app: FastifyInstance, platform: StorePlatformId, store: StoreRoutesService) {
  app.post(`/api/${platform}/disconnect/:id`, async (request) => {
    const { id } = parseInput(ZIntegrationIdParams, request.params, 'params');
    return store.disconnect(request.workspaceId, id);
  });

  if (store.placeSandboxOrder) {
    app.post(`/api/${platform}/sandbox/orders`, async (request, reply) => {
      const input = parseInput(ZSandboxOrderInput, request.body, 'body');
      return reply.status(201).send(await store.placeSandboxOrder?.(request.workspaceId, input));
    });
  }

  if (store.sandboxImage) {
    app.get(`/api/${platform}/sandbox/images/:imageId`, async (request, reply) => {
      const { imageId } = parseInput(ZImageParams, request.params, 'params');
      const bytes = await store.sandboxImage?.(request.workspaceId, imageId);
      if (!bytes) throw notFound('Image');
      return reply.header('Content-Type', 'image/png').header('Cache-Control', 'private, max-age=300').send(bytes);
    });
  }
}
