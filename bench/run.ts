// `npm run bench`: runs every bench/*.bench.ts in turn. Each prints its own figures and ratios; none is a test.
// It runs with the allocator setting `npm start` gives the server (MALLOC_MMAP_THRESHOLD_, see the README), so the
// renders measured in this process are the server's.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv[2];
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only)))
  .sort();
if (files.length === 0) console.log('No benchmarks found.');
let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
