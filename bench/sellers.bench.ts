// Many sellers at once (issue #32 point 5): BENCH_SELLERS (100) simulated sellers, each in its own workspace, against
// the built server (embedded PGlite, local disk). Each seller, for BENCH_SECONDS (60), in a loop: uploads a design
// (a 1500x1800 PNG of gradients with a light grain, about 2 MB, as a seller's artwork at a t-shirt's size), then
// places it on a t-shirt three times (POST /api/mockups, each a new placement, answered with its preview; the full-size
// file is drawn after, in the background), then downloads the last placement's full-size file, thinking 5 to 15 s
// (random, fixed seed) before every action: 100 sellers ask about 10 calls a second. Prints each call's p50 and p95 beside its
// target, the load average and the peak memory of the server and its decoders. Not a test.
import os from 'node:os';
import path from 'node:path';
import {
  ensureServerBuilt,
  load,
  ms,
  percentile,
  printDesignPng,
  startServer,
  tempDir,
  treePssOf,
  verdict,
} from './support';

const SELLERS = Number(process.env.BENCH_SELLERS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const TARGETS = { upload: 1000, mockup: 400 };
const NAMES = {
  upload: 'POST /api/designs/upload',
  mockup: 'POST /api/mockups',
  file: 'GET /api/mockups/:id/file (the full-size PNG, 5-15 s after its placement)',
};

ensureServerBuilt();
const dir = tempDir('podforge-sellers-');
const design = await printDesignPng(1500, 1800);
const server = await startServer({ DATA_DIR: path.join(dir, 'data') });
const pid = server.child.pid ?? 0;

const treePss = () => treePssOf(pid);

let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const think = () => new Promise((r) => setTimeout(r, 5000 + 10_000 * rand()));

const latencies = { upload: [] as number[], mockup: [] as number[], file: [] as number[] };
let errors = 0;
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, treePss());
}, 250);

async function seller(index: number) {
  const first = await fetch(`${server.url}/api/dashboard/stats`);
  await first.arrayBuffer();
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const until = performance.now() + SECONDS * 1000;
  let turn = index % 30;
  while (performance.now() < until) {
    await think();
    const body = new FormData();
    body.append('file', new Blob([design], { type: 'image/png' }), `design-${index}.png`);
    let t = performance.now();
    const uploaded = await fetch(`${server.url}/api/designs/upload`, {
      method: 'POST',
      body,
      headers: { cookie, origin: server.url },
    });
    const json = (await uploaded.json()) as { id?: string };
    latencies.upload.push(performance.now() - t);
    if (uploaded.status !== 201 || !json.id) {
      errors++;
      continue;
    }
    let last: string | null = null;
    for (let i = 0; i < 3 && performance.now() < until; i++) {
      await think();
      turn += 1;
      t = performance.now();
      const res = await fetch(`${server.url}/api/mockups`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({
          designId: json.id,
          productType: 'tshirt',
          templateId: 'tshirt-front',
          color: 'white',
          adjustments: { scale: 90, rotation: turn, x: 0, y: 0, opacity: 100 },
        }),
      });
      const mockup = (await res.json()) as { url?: string };
      latencies.mockup.push(performance.now() - t);
      if (res.status !== 201) errors++;
      last = mockup.url ?? null;
    }
    if (last && performance.now() < until) {
      await think();
      t = performance.now();
      const file = await fetch(`${server.url}${last}`, { headers: { cookie } });
      await file.arrayBuffer();
      latencies.file.push(performance.now() - t);
      if (file.status !== 200) errors++;
    }
  }
}

try {
  console.log(`Machine: ${os.availableParallelism()} cores, ${load()}; ${SELLERS} sellers for ${SECONDS} s`);
  const started = performance.now();
  await Promise.all(Array.from({ length: SELLERS }, (_, i) => seller(i)));
  const elapsed = (performance.now() - started) / 1000;
  clearInterval(sampler);
  for (const [name, xs] of Object.entries(latencies) as [keyof typeof NAMES, number[]][]) {
    const p95 = percentile(xs, 95);
    const target = name === 'file' ? null : TARGETS[name];
    console.log(
      `  ${NAMES[name]}: ${xs.length} calls, p50 ${ms(percentile(xs, 50))}, p95 ${ms(p95)}; ` +
        (target === null
          ? 'no target in #32'
          : `target (#32) p95 under ${ms(target)}: ${xs.length ? verdict(p95 < target) : 'no calls'}`) +
        `  [${load()}]`,
    );
  }
  console.log(
    `  ${errors} errors in ${elapsed.toFixed(0)} s; peak memory of the server and its decoders (PSS) ${(peak / 1024 / 1024).toFixed(0)} MB`,
  );
} finally {
  clearInterval(sampler);
  await server.stop();
}
