import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './paths';

/** Where files every data folder on this machine may share are kept: prepared once, used by all. */
export const MACHINE_CACHE_ROOT = path.join(REPO_ROOT, 'node_modules/.cache/podforge');

/**
 * `MACHINE_CACHE_ROOT/<name>` for renders that depend only on the code (template drawings), so a new data folder
 * finds them made; `fallback` (under the data folder) when that folder cannot be written, e.g. a read-only install.
 */
export function machineCacheDir(name: string, fallback: string): string {
  const dir = path.join(MACHINE_CACHE_ROOT, name);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
    return dir;
  } catch {
    return fallback;
  }
}
