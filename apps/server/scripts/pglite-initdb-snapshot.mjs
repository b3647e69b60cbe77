// Makes a new PGlite cluster with the app's migrations and pg-boss's schema applied (no rows): the folder `<base>`
// (copied into a new data folder) and the archive `<base>.tar.gz` (loaded by in-memory databases). Both appear
// whole (a rename), so a reader never sees half of one. The server runs this in a child process the first time it
// needs one (see src/db/pglite-snapshot.ts): initdb and the migrations take seconds and leave the process that ran
// them with several hundred MB it never returns, so it is not the server's own process.
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { fromPglite, PgBoss } from 'pg-boss';

const [base, migrationsFolder] = process.argv.slice(2);
if (!base || !migrationsFolder) throw new Error('usage: pglite-initdb-snapshot.mjs <base path> <migrations folder>');
const tempDir = `${base}.${process.pid}.tmp`;
fs.rmSync(tempDir, { recursive: true, force: true });
// The same extensions as src/db/client.ts opens the database with.
const db = new PGlite({ dataDir: tempDir, extensions: { pg_trgm, btree_gin } });
await db.waitReady;
await migrate(drizzle(db), { migrationsFolder });
// pg-boss's schema too, as the job queue (src/jobs/job-queue.ts) makes it on its first start: about a second of
// PGlite on a new data folder's main thread, which held up the first requests after a start.
const boss = new PgBoss({ db: fromPglite(db), backend: 'pglite', schedule: false });
let bossError = null;
boss.on('error', (error) => {
  bossError = error;
});
await boss.start();
await boss.stop({ graceful: false, close: false });
if (bossError) throw bossError;
await db.exec('VACUUM (ANALYZE)');
const archive = await db.dumpDataDir('gzip');
await db.close();
fs.writeFileSync(`${tempDir}.tar.gz`, Buffer.from(await archive.arrayBuffer()));
fs.renameSync(`${tempDir}.tar.gz`, `${base}.tar.gz`);
try {
  fs.renameSync(tempDir, base);
} catch {
  // Another process made the same folder first: theirs is as good.
  fs.rmSync(tempDir, { recursive: true, force: true });
}
