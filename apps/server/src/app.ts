import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@podforge/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { type AppDeps, type BuildAppOptions, createDeps } from './deps';
import { JOBS } from './jobs/registry';
import { startWorkers } from './jobs/workers';
import { secretFromConfigOrFile } from './lib/secrets';
import { sweepTempDir } from './lib/temp-files';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { aiRoutes } from './modules/ai/ai.routes';
import { amazonRoutes } from './modules/amazon/amazon.routes';
import { bulkRoutes } from './modules/bulk/bulk.routes';
import { catalogRoutes } from './modules/catalog/catalog.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { designsRoutes } from './modules/designs/designs.routes';
import { etsyRoutes } from './modules/etsy/etsy.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { gelatoRoutes } from './modules/gelato/gelato.routes';
import { integrationsRoutes } from './modules/integrations/integrations.routes';
import { mockupsRoutes } from './modules/mockups/mockups.routes';
import { ordersRoutes } from './modules/orders/orders.routes';
import { printFilesRoutes } from './modules/print-files/print-files.routes';
import { printersRoutes } from './modules/printers/printers.routes';
import { printfulRoutes } from './modules/printful/printful.routes';
import { printifyRoutes } from './modules/printify/printify.routes';
import { productsRoutes } from './modules/products/products.routes';
import { routingRoutes } from './modules/routing/routing.routes';
import { schedulesRoutes } from './modules/schedules/schedules.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { shopifyRoutes } from './modules/shopify/shopify.routes';
import { woocommerceRoutes } from './modules/woocommerce/woocommerce.routes';
import { registerClientAbort } from './plugins/client-abort';
import { registerCsrfGuard } from './plugins/csrf';
import { registerErrorHandling } from './plugins/errors';
import { registerRoleGuard } from './plugins/roles';
import { indexHtmlOf, registerSecurityHeaders } from './plugins/security-headers';
import { registerBodyIdleTimeout } from './plugins/stalled-clients';
import { workspacePlugin } from './plugins/workspace';

/**
 * Plugins load in a fixed order: error handling, security headers (plugins/security-headers.ts), the client-abort signal, security (session cookie, cross-site guard, role guard), API routes, then
 * the built web app with its single-page fallback.
 */
export async function buildApp(options: BuildAppOptions): Promise<{ app: FastifyInstance; deps: AppDeps }> {
  const deps = createDeps(options);
  const { config } = deps;
  // What a crashed or killed process left in DATA_DIR/tmp before any request of this one makes its own.
  sweepTempDir(config.dataDir);
  const app = Fastify({
    ...(typeof options.logger === 'object'
      ? { loggerInstance: options.logger }
      : { logger: options.logger === false ? false : { level: config.logLevel } }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    http: {
      // A client's headers must all arrive in time (slow-header clients are closed); Node checks every
      // connectionsCheckingInterval, so that is kept well under the limit.
      headersTimeout: config.timeouts.headerMs,
      connectionsCheckingInterval: Math.min(1000, config.timeouts.headerMs / 2),
    },
  });

  registerErrorHandling(app);
  const webDist = config.webDistDir;
  const hasWeb = webDist !== null && fs.existsSync(path.join(webDist, 'index.html'));
  registerSecurityHeaders(app, {
    indexHtmlPath: hasWeb ? indexHtmlOf(webDist) : null,
    frameAncestors: config.frameAncestors,
    // Live catalogue pictures come from the printer's host: https in production (already allowed), but a printer
    // configured on plain http (the local fake in tests and sandboxes) must be named.
    imageOrigins: [new URL(config.printfulApiBase).origin].filter((origin) => origin.startsWith('http:')),
  });
  registerClientAbort(app);
  registerBodyIdleTimeout(app, config.timeouts.bodyIdleMs);
  // Background work a listening server starts waits for its first answer (or a few seconds): see lib/after-start.ts.
  app.addHook('onListen', async () => deps.afterStart.onListen());
  app.addHook('onResponse', async () => deps.afterStart.onResponse());
  app.addHook('onClose', async () => deps.afterStart.cancel());
  deps.jobs.log = app.log;
  // Running jobs finish (or, after JOB_STOP_GRACE_SECONDS, are handed back to the queue) before the database closes.
  app.addHook('onClose', () => deps.jobs.stop(config.jobStopGraceSeconds * 1000));
  app.addHook('onClose', () => deps.decodePool.close());
  if (config.jobsWorker) {
    // Only a listening server runs jobs by itself; under app.inject, tests start the workers they need.
    app.addHook('onListen', async () => {
      for (const job of JOBS) {
        deps.afterStart.run(() =>
          startWorkers(deps, [job]).catch((error) =>
            app.log.error({ err: error, queue: job.name }, 'job workers did not start'),
          ),
        );
      }
    });
  }
  await app.register(workspacePlugin, {
    db: deps.db,
    secret: secretFromConfigOrFile(config.sessionSecret, config.dataDir, 'session.secret'),
    createPerHour: config.workspaceCreatePerHour,
    now: deps.now,
  });
  registerCsrfGuard(app);
  registerRoleGuard(app);

  // Liveness for load balancers and the hostile run's latency probe: no workspace, no database, only the event loop.
  app.get('/api/health', async () => ({ status: 'ok' }));
  await app.register(accountsRoutes, { deps });
  await app.register(dashboardRoutes, { deps });
  await app.register(designsRoutes, { deps });
  await app.register(printfulRoutes, { deps });
  await app.register(printifyRoutes, { deps });
  await app.register(printersRoutes, { deps });
  await app.register(gelatoRoutes, { deps });
  await app.register(routingRoutes, { deps });
  await app.register(catalogRoutes, { deps });
  await app.register(mockupsRoutes, { deps });
  await app.register(productsRoutes, { deps });
  await app.register(printFilesRoutes, { deps });
  await app.register(settingsRoutes, { deps });
  await app.register(integrationsRoutes, { deps });
  await app.register(shopifyRoutes, { deps });
  await app.register(etsyRoutes, { deps });
  await app.register(woocommerceRoutes, { deps });
  await app.register(amazonRoutes, { deps });
  await app.register(aiRoutes, { deps });
  await app.register(schedulesRoutes, { deps });
  await app.register(bulkRoutes, { deps });
  await app.register(ordersRoutes, { deps });
  await app.register(eventsRoutes, { deps });

  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz copies of its text files (apps/web/vite.config.ts): sent to browsers that
      // accept them, with `Vary: Accept-Encoding`.
      preCompressed: true,
      setHeaders(reply, filePath) {
        // Vite puts a content hash in every asset name, so those never change.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (hasWeb && request.method === 'GET' && !url.startsWith('/api/') && !path.extname(url)) {
      // Client-side routes (including the app's own 404 page) are all served the single page.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ error: `Route ${request.method} ${url} not found`, code: ErrorCode.NotFound });
  });

  return { app, deps };
}
