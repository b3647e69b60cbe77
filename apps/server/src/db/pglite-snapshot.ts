import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { MIGRATIONS_DIR, REPO_ROOT, SERVER_ROOT } from '../lib/paths';

/**
 * A new embedded database starts from an archive of a PGlite cluster with every migration and pg-boss's schema
 * applied, instead of running initdb, the migrations and pg-boss's first start (tens of seconds on a busy machine,
 * and several hundred MB the process keeps). The archive depends on the PGlite and pg-boss versions, the migrations
 * and the script that makes it; it is made once per machine and per such set, by `npm run build -w @podforge/server`
 * or else the first time a new data folder needs it, in a child process, and kept in `node_modules/.cache/podforge`.
 * The server still runs `migrate()` after opening (nothing left to apply), and pg-boss finds its schema current.
 */

const require = createRequire(import.meta.url);

/** The installed version of a package (read from its package.json, which its exports may not name). */
function packageVersion(name: string): string {
  const entry = require.resolve(name);
  let dir = path.dirname(entry);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === name) return pkg.version ?? 'unknown';
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

export const SNAPSHOT_SCRIPT = path.join(SERVER_ROOT, 'scripts/pglite-initdb-snapshot.mjs');

/**
 * A short hash of what the snapshot holds: the SQL files and journal the migrator applies, pg-boss's version (its
 * schema is made too) and the script that makes it, so a change to any of them makes a new one.
 */
function snapshotHash(): string {
  const hash = crypto.createHash('sha256');
  hash.update(`pg-boss@${packageVersion('pg-boss')}\n`);
  // (A copy without the script cannot make a snapshot either: PGlite then runs initdb itself.)
  if (fs.existsSync(SNAPSHOT_SCRIPT)) hash.update(fs.readFileSync(SNAPSHOT_SCRIPT));
  const files = fs.readdirSync(MIGRATIONS_DIR).filter((name) => name.endsWith('.sql'));
  for (const name of [...files.sort(), path.join('meta', '_journal.json')]) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(MIGRATIONS_DIR, name)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Where the migrated cluster is kept: the folder at this path, and its archive at this path plus `.tar.gz`. */
export function snapshotBase(): string {
  return path.join(
    REPO_ROOT,
    'node_modules/.cache/podforge',
    `pglite-${packageVersion('@electric-sql/pglite')}-migrated-${snapshotHash()}`,
  );
}

export type Snapshot = { dir: string; archive: string };

let making: Promise<Snapshot | null> | null = null;

/** The migrated cluster, made first when missing; null when it cannot be made (then PGlite runs initdb itself). */
export function migratedSnapshot(): Promise<Snapshot | null> {
  const base = snapshotBase();
  const snapshot = { dir: base, archive: `${base}.tar.gz` };
  const ready = () => fs.existsSync(path.join(snapshot.dir, 'PG_VERSION')) && fs.existsSync(snapshot.archive);
  if (ready()) return Promise.resolve(snapshot);
  making ??= (async () => {
    try {
      fs.mkdirSync(path.dirname(base), { recursive: true });
      await promisify(execFile)(process.execPath, [SNAPSHOT_SCRIPT, base, MIGRATIONS_DIR], { timeout: 300_000 });
      if (!ready()) return null;
      // Clusters of older migration sets or PGlite versions are of no further use.
      const folder = path.dirname(base);
      for (const name of fs.readdirSync(folder)) {
        const other = path.join(folder, name);
        if (name.startsWith('pglite-') && !name.endsWith('.tmp') && !other.startsWith(base)) {
          fs.rmSync(other, { recursive: true, force: true });
        }
      }
      return snapshot;
    } catch {
      return null;
    } finally {
      making = null;
    }
  })();
  return making;
}

/** Whether `dir` already holds a cluster (a new or empty folder does not). */
export function hasCluster(dir: string | null): boolean {
  return dir !== null && fs.existsSync(path.join(dir, 'PG_VERSION'));
}
