import path from 'node:path';
import {
  mockupProductType,
  ZCreateMockup,
  ZCreateMockupBatch,
  ZMockupTemplatesQuery,
  ZPrintReadinessQuery,
} from '@podforge/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { machineCacheDir } from '../../lib/machine-cache';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { parseInput } from '../../lib/validate';
import { type DesignLayer, type DesignPixels, findTemplate, TemplateStore } from './mockup-render';
import type { MockupsDeps } from './mockups.deps';
import {
  createMockup,
  getMockupBatch,
  getMockupFile,
  getPrintReadiness,
  listTemplates,
  startMockupBatch,
} from './mockups.service';
import { PixelCache } from './pixel-cache';

const ZId = z.object({ id: z.uuid() });
const ZJobId = z.object({ jobId: z.uuid() });
const ZTemplateImage = z.object({
  productType: z.string().max(40),
  templateId: z.string().max(60),
  file: z.string().regex(/^[a-z0-9-]+(\.preview)?\.png$/),
});

export async function mockupsRoutes(app: FastifyInstance, { deps }: { deps: MockupsDeps }) {
  // Template drawings depend only on the code: one cache for the machine, so a new data folder's first batch does
  // not wait for them (the data folder holds them when the machine cache cannot be written).
  const templates = new TemplateStore(
    machineCacheDir('mockup-templates', path.join(deps.config.dataDir, 'mockup-templates')),
  );
  const serviceDeps = {
    ...deps,
    templates,
    layers: new PixelCache<DesignLayer>(),
    designPixels: new PixelCache<DesignPixels>(48 * 1024 * 1024),
  };

  if (deps.config.mockupTemplateWarmup) {
    // Only a listening server warms up (not app.inject in tests), in the background, after it answers requests.
    let closing = false;
    app.addHook('onClose', async () => {
      closing = true;
    });
    app.addHook('onListen', async () => {
      deps.afterStart.run(() => {
        const started = Date.now();
        templates
          .warmUp(() => closing)
          .then((drawn) => {
            if (drawn) app.log.info({ drawn, ms: Date.now() - started }, 'mockup templates drawn');
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'mockup template warm-up failed'));
      });
    });
  }

  app.get('/api/mockups/templates', async (request) => {
    const { productType } = parseInput(ZMockupTemplatesQuery, request.query, 'query');
    // The editor asks for the list when it opens: its first view is decoded in every colour while the seller looks.
    templates.prefetch(mockupProductType(productType));
    return listTemplates(productType);
  });

  // Template images are public product renders, the same for every workspace (the cookie plugin skips /templates/).
  app.get('/templates/mockups/:productType/:templateId/:file', async (request, reply) => {
    const params = parseInput(ZTemplateImage, request.params, 'params');
    const productType = mockupProductType(params.productType);
    if (productType !== params.productType) throw notFound('Template');
    const template = findTemplate(productType, params.templateId);
    const preview = params.file.endsWith('.preview.png');
    const colorId = params.file.replace(/(\.preview)?\.png$/, '');
    if (!template || !TEMPLATE_SETS[productType].colors.some((c) => c.id === colorId)) throw notFound('Template');
    const png = await templates.png(productType, template, colorId, preview ? 'preview' : 'full');
    return reply.type('image/png').header('Cache-Control', 'public, max-age=86400').send(png);
  });

  app.post('/api/mockups', async (request, reply) => {
    const input = parseInput(ZCreateMockup, request.body, 'body');
    // A seller's placement is answered once its preview is stored; the full-size file follows (mockup-files.ts).
    const mockup = await createMockup(serviceDeps, request.workspaceId, input, { full: 'later', log: app.log });
    return reply.status(201).send(mockup);
  });

  app.post('/api/mockups/batch', async (request, reply) => {
    const input = parseInput(ZCreateMockupBatch, request.body, 'body');
    const { job, wait } = await startMockupBatch(serviceDeps, request.workspaceId, input, request.log);
    return reply.status(wait ? 200 : 202).send(job);
  });

  app.get('/api/mockups/batch/:jobId', async (request) => {
    const { jobId } = parseInput(ZJobId, request.params, 'params');
    return getMockupBatch(serviceDeps, request.workspaceId, jobId);
  });

  app.get('/api/mockups/print-readiness', async (request) => {
    const input = parseInput(ZPrintReadinessQuery, request.query, 'query');
    return getPrintReadiness(serviceDeps, request.workspaceId, input);
  });

  for (const which of ['file', 'preview'] as const) {
    app.get(`/api/mockups/:id/${which}`, async (request, reply) => {
      const { id } = parseInput(ZId, request.params, 'params');
      const { data, type } = await getMockupFile(serviceDeps, request.workspaceId, id, which);
      return reply.type(type).header('Cache-Control', 'private, max-age=3600').send(data);
    });
  }
}
