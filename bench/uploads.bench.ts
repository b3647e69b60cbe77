// Upload-and-process time and peak memory for a 4500x5400 PNG, a ~50 MB PNG and a one-page PDF, through the real
// server over HTTP on 127.0.0.1 (embedded PGlite, local-disk storage in a temporary folder).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { pdfOf } from '../apps/server/test/support/design-fixtures';

const MB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-bench-'));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', WEB_DIST_DIR: '', PORT: '0', HOST: '127.0.0.1' });
config.webDistDir = null;
const database = await openDatabase({ pgliteDir: null });
await database.migrate();
const { app } = await buildApp({ config, database, logger: false });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

async function fixture(name: string, make: () => Promise<Buffer>) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, await make());
  return file;
}
const files = [
  await fixture('print-4500x5400.png', () =>
    sharp({ create: { width: 4500, height: 5400, channels: 3, background: '#d2416e' } })
      .composite([
        {
          input: Buffer.from(
            '<svg width="4500" height="5400"><circle cx="2250" cy="2700" r="2000" fill="#fff"/></svg>',
          ),
        },
      ])
      .png()
      .toBuffer(),
  ),
  // Noise does not compress, so 4000x4300 RGB is a PNG of about 49 MB, just under the 50 MB limit.
  await fixture('noise-50mb.png', () =>
    sharp(crypto.randomBytes(4000 * 4300 * 3), { raw: { width: 4000, height: 4300, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer(),
  ),
  await fixture('one-page.pdf', async () => pdfOf(612, 792)),
];

// Cookie for one workspace.
const first = await fetch(`${address}/api/dashboard/stats`);
const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

global.gc?.();
await new Promise((r) => setTimeout(r, 200));
const idle = process.memoryUsage().rss;
console.log(`idle RSS: ${(idle / MB).toFixed(0)} MB`);
let failed = false;
for (const file of files) {
  const bytes = fs.statSync(file).size;
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const body = new FormData();
  // openAsBlob reads from disk as the request is sent, so the client side does not hold the file either.
  body.append('file', await fs.openAsBlob(file), path.basename(file));
  const started = performance.now();
  const res = await fetch(`${address}/api/designs/upload`, { method: 'POST', body, headers: { cookie } });
  const ms = performance.now() - started;
  clearInterval(sampler);
  const design = (await res.json()) as { width?: number; height?: number; error?: string };
  const above = (peak - idle) / MB;
  console.log(
    `${path.basename(file)} (${(bytes / MB).toFixed(1)} MB): status ${res.status}, ${design.width}x${design.height}, ` +
      `${ms.toFixed(0)} ms upload+process, peak RSS ${(peak / MB).toFixed(0)} MB (+${above.toFixed(0)} MB over idle), ` +
      `${(bytes / MB / (ms / 1000)).toFixed(1)} MB/s`,
  );
  if (res.status !== 201) failed = true;
  if (bytes > 40 * MB) {
    console.log(
      `  50 MB upload peak over idle: ${above.toFixed(0)} MB (budget 150 MB): ${above < 150 ? 'within' : 'OVER'}`,
    );
  }
  global.gc?.();
  await new Promise((r) => setTimeout(r, 300));
}
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
