import fs from 'node:fs';
import path from 'node:path';

/** Where uploads are received and files worked on before they are stored: `DATA_DIR/tmp`, this instance's own. */
export const tempDirOf = (dataDir: string) => path.join(dataDir, 'tmp');

/**
 * Empties the temp folder at start. A request removes its own temp files when it ends, answered or abandoned; what
 * is left at start is what a crashed or killed process never got to remove, and nobody will read it.
 */
export function sweepTempDir(dataDir: string): number {
  const dir = tempDirOf(dataDir);
  if (!fs.existsSync(dir)) return 0;
  const entries = fs.readdirSync(dir);
  for (const entry of entries) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  return entries.length;
}
