import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package folder (apps/server), found by walking up from this module: the same answer from the
 * TypeScript source (src/lib) and from the bundle (dist/main.js).
 */
function findServerRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === '@podforge/server')
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Could not find the @podforge/server package folder');
    dir = parent;
  }
}

export const SERVER_ROOT = findServerRoot();
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'drizzle');
export const WEB_DIST_DIR = path.join(REPO_ROOT, 'apps/web/dist');
