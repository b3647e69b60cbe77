import { ZPrintifyChooseShop, ZPrintifyConnect } from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../lib/validate';
import type { PrintifyDeps } from './printify.deps';
import { printifySandboxTick } from './printify-sandbox.jobs';

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

  app.get('/api/printify/sandbox/orders', async (request) => ({
    orders: await deps.printifySandbox.orders(request.workspaceId),
  }));
}
