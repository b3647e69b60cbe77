import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';

const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'db') },
);
await database.migrate();
const { app, deps } = await buildApp({ config, database });

// PGlite has no autovacuum: the server vacuums and analyses it 5 minutes after start and then every hour.
const MAINTENANCE_MS = 3600_000;
const maintain = () =>
  database.maintain().catch((error: unknown) => app.log.error({ err: error }, 'database maintenance failed'));
const firstMaintenance = setTimeout(maintain, 300_000);
const maintenance = setInterval(maintain, MAINTENANCE_MS);
firstMaintenance.unref();
maintenance.unref();

const shutdown = async (signal: string) => {
  app.log.info({ signal }, 'shutting down');
  clearTimeout(firstMaintenance);
  clearInterval(maintenance);
  await app.close();
  await database.close();
  process.exit(0);
};
process.once('SIGINT', () => void shutdown('SIGINT'));
process.once('SIGTERM', () => void shutdown('SIGTERM'));

const address = await app.listen({ port: config.port, host: config.host });
// Decoders start before the first upload, once the server has answered its first request.
deps.afterStart.run(() => deps.decodePool.warmUp());
// The end-to-end tests read this line to learn the port when PORT=0.
app.log.info({ address, database: database.kind }, `Podforge is running at ${address}`);
