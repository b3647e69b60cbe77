import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { MIGRATIONS_DIR } from '../lib/paths';
import { backfillProductModel } from './backfill-product-model';
import type { Db } from './db';
import { hasCluster, migratedSnapshot } from './pglite-snapshot';
import { coalescedReads } from './read-versions';
import * as schema from './schema';

/** Defined beside the schema (db.ts), so files client.ts imports can name it too. */
export type { Db } from './db';

export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded engine, when it is the one in use (the job queue shares its single connection). */
  pglite: PGlite | null;
  /** The PostgreSQL server's URL, when one is in use (the job queue opens its own small pool to it). */
  url: string | null;
  migrate(): Promise<void>;
  /**
   * Housekeeping the database does not do itself: PGlite runs no autovacuum, so `VACUUM (ANALYZE)` reclaims dead
   * rows, marks pages all-visible (index-only scans of the lists) and refreshes the planner's statistics.
   * PostgreSQL's autovacuum does this on its own (nothing to do).
   */
  maintain(): Promise<void>;
  /**
   * Embedded PGlite only (null on PostgreSQL): a number that changes whenever anything may have written to the
   * app's tables. PGlite's folder belongs to this one process, so an answer read at version v is still the answer
   * while the version is v (see `lib/read-cache.ts`).
   */
  readVersion: (() => number) | null;
  /**
   * A number that moves on whenever anything a workspace's lists and dashboard show may have changed, read after
   * the call (see `lib/read-cache.ts`). PGlite: `readVersion()`. PostgreSQL: the workspace's row of
   * `workspace_read_versions`, which deferred triggers move on at every commit that changes those rows (migration
   * 0012_read_versions), so it holds across every instance on the database; one query serves the callers waiting
   * together (`db/read-versions.ts`).
   */
  readVersionOf(workspaceId: string): Promise<number>;
  close(): Promise<void>;
};

const migrationsFolder = MIGRATIONS_DIR;
const PGLITE_SHARED_BUFFERS = '32MB';

export type DatabaseOptions =
  | { url: string }
  /** `dir` null keeps the embedded database in memory (tests). */
  | { pgliteDir: string | null };

/** A statement that only reads (not `SELECT ... FOR UPDATE`, which takes locks to write next). */
const READ_ONLY = /^\s*select\b(?![\s\S]*\bfor\s+(update|share|no key update)\b)/i;
/** The job queue's own tables (polling writes there every few seconds); no answer of the app reads them. */
const JOB_QUEUE_ONLY =
  /^(?![\s\S]*\b(public\.|product\w*|mockup\w*|designs|publications|workspace\w*|integrations|orders|order_lines|schedules|ai_generations|print_files|oauth_states)\b)[\s\S]*\bpgboss\./i;

/**
 * Counts PGlite's writes: every statement that is not a plain SELECT, and every transaction (whatever it did),
 * moves the version on once it has finished. Conservative on purpose: a write is never missed, some reads count.
 */
function trackWrites(client: PGlite): () => number {
  let version = 0;
  const counts = (sql: string) => !READ_ONLY.test(sql) && !JOB_QUEUE_ONLY.test(sql);
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (sql: string, ...rest: unknown[]) => {
    try {
      return await (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
    } finally {
      if (counts(sql)) version += 1;
    }
  }) as typeof client.query;
  client.exec = (async (sql: string, ...rest: unknown[]) => {
    try {
      return await (exec as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
    } finally {
      if (counts(sql)) version += 1;
    }
  }) as typeof client.exec;
  client.transaction = (async (...args: unknown[]) => {
    try {
      return await (transaction as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      version += 1;
    }
  }) as typeof client.transaction;
  return () => version;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  // Each engine's driver loads only when it is the one in use (start-up reads less code).
  if ('url' in options) {
    const [{ drizzle: drizzlePg }, { migrate: migratePg }, { default: pg }] = await Promise.all([
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
      import('pg'),
    ]);
    // Connections are kept for 5 minutes idle (pg's default is 10 s): a new server process plans its first
    // statements with empty catalogue caches (a list page planned in about 20 ms instead of under 1 ms), which a
    // seller coming back after a pause would otherwise wait for.
    const pool = new pg.Pool({ connectionString: options.url, max: 10, idleTimeoutMillis: 300_000 });
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
      maintain: async () => {},
      readVersion: null,
      readVersionOf: coalescedReads(async (workspaceId) => {
        // A named statement: parsed and planned once per connection.
        const { rows } = await pool.query<{ version: string }>({
          name: 'workspace-read-version',
          text: 'SELECT version FROM workspace_read_versions WHERE workspace_id = $1',
          values: [workspaceId],
        });
        return Number(rows[0]?.version ?? 0);
      }),
      close: () => pool.end(),
    };
  }
  const [{ PGlite }, { btree_gin }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] =
    await Promise.all([
      import('@electric-sql/pglite'),
      import('@electric-sql/pglite/contrib/btree_gin'),
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('drizzle-orm/pglite'),
      import('drizzle-orm/pglite/migrator'),
    ]);
  // PGlite does not lock its folder itself: only one process may open it (see src/db/README.md).
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  // A new folder (or memory) starts as a copy of a migrated cluster rather than running initdb and the migrations.
  const dir = options.pgliteDir;
  const snapshot = hasCluster(dir) ? null : await migratedSnapshot();
  if (dir && snapshot) fs.cpSync(snapshot.dir, dir, { recursive: true });
  const client = new PGlite({
    ...(dir ? { dataDir: dir } : {}),
    ...(!dir && snapshot ? { loadDataDir: new Blob([fs.readFileSync(snapshot.archive)]) } : {}),
    // pg_trgm and btree_gin: the trigram search index of My Products (migration 0010_perf_lists).
    extensions: { pg_trgm, btree_gin },
    // PostgreSQL's 128 MB default buffer pool lives in PGlite's own memory, on top of the folder's files the
    // process already reads; a small one keeps the server's idle memory down.
    postgresqlconf: [`shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  await client.waitReady;
  const readVersion = trackWrites(client);
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
    maintain: async () => {
      await client.exec('VACUUM (ANALYZE)');
    },
    readVersion,
    readVersionOf: async () => readVersion(),
    close: () => client.close(),
  };
}
