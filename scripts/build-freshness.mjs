// Whether a build is up to date with its sources, by modification time: shared by `npm start` (scripts/start.mjs)
// and the benchmarks (bench/support.ts), which both build only what is missing or older than its sources.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The newest modification time under `dir` (0 when it does not exist), skipping build and dependency folders.
 * @param {string} dir
 * @returns {number}
 */
export function newest(dir) {
  let stat;
  try {
    stat = fs.statSync(dir);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.tsbuild', 'data'].includes(entry.name)) continue;
    latest = Math.max(latest, newest(path.join(dir, entry.name)));
  }
  return latest;
}

/**
 * When a built file is missing or older than any source it is built from.
 * @param {string} built
 * @param {string[]} sources
 * @returns {boolean}
 */
export const stale = (built, sources) => {
  const builtAt = newest(built);
  return builtAt === 0 || sources.some((s) => newest(s) > builtAt);
};
