import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { MIGRATIONS_DIR } from '../lib/paths';
import { backfillProductModel } from './backfill-product-model';
import * as schema from './schema';

/** The one database type the code uses: the same queries run on PGlite and on a PostgreSQL server. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded engine, when it is the one in use (the job queue shares its single connection). */
  pglite: PGlite | null;
  /** The PostgreSQL server's URL, when one is in use (the job queue opens its own small pool to it). */
  url: string | null;
  migrate(): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = MIGRATIONS_DIR;

export type DatabaseOptions =
  | { url: string }
  /** `dir` null keeps the embedded database in memory (tests). */
  | { pgliteDir: string | null };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection can be cut by the server (restart, failover, an administrator). Without a listener that
    // error would crash the process; the pool drops the client and the next query reports any lasting problem.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pglite: null,
      url: options.url,
      migrate: async () => {
        await migratePg(drizzlePg(pool), { migrationsFolder });
        await backfillProductModel(db);
      },
      close: () => pool.end(),
    };
  }
  // PGlite does not lock its folder itself: only one process may open it (see ARCHITECTURE.md).
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  const client = options.pgliteDir ? new PGlite(options.pgliteDir) : new PGlite();
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite: client,
    url: null,
    migrate: async () => {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      await backfillProductModel(db);
    },
    close: () => client.close(),
  };
}
