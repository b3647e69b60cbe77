import path from 'node:path';
import { loadConfig } from '../config';
import { openDatabase } from './client';

// `npm run db:migrate`: applies the checked-in migrations without starting the server (the server does it too).
const config = loadConfig();
const database = await openDatabase(
  config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'db') },
);
await database.migrate();
await database.close();
console.log(`Migrations applied (${database.kind}).`);
