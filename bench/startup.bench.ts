// Start-up (issue 15, goal 4): `npm start` with the build present, from launch until the first API call is answered,
// on a new data folder and then on the same folder again; the memory the server and the decoder processes it starts
// hold at idle (and their resident sizes); and whether `npm start` left an up-to-date build alone. Prints figures with
// the load average; not a test. `npm run bench lists` measures the start of a folder holding 10,000 products.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuMsOf, freePort, load, ms, pssOf, repo, rssOf, tempDir, verdict } from './support';

const MB = 1024 * 1024;
const RUNS = Number(process.env.BENCH_STARTS ?? 2);

/** The processes below `pid` (children first found through /proc). */
function descendants(pid: number): number[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  const pairs = out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, ppid] of pairs) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** The server: node running scripts/start.mjs (not the shell npm runs it through). */
const isNode = (pid: number) => {
  try {
    const [program, script] = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return path.basename(program ?? '') === 'node' && script === 'scripts/start.mjs';
  } catch {
    return false;
  }
};
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

type Start = { ms: number; cpuMs: number; server: number; npm: ChildProcess; built: boolean };

/** Runs `npm start` on `dataDir` and resolves at its first answered API call. */
async function npmStart(dataDir: string): Promise<Start> {
  const port = await freePort();
  const output: string[] = [];
  const started = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      // What a seller's `npm start` does: templates are drawn in the background (from the machine's cache when drawn).
      MOCKUP_TEMPLATE_WARMUP: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  npm.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  while (performance.now() - started < 300_000) {
    if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}: ${output.join('')}`);
    const res = await fetch(`http://127.0.0.1:${port}/api/dashboard/stats`).catch(() => null);
    if (res) {
      await res.arrayBuffer();
      const elapsed = performance.now() - started;
      if (res.status !== 200) throw new Error(`the first call answered ${res.status}`);
      const server = descendants(npm.pid ?? 0).find(isNode) ?? 0;
      if (!server) throw new Error('could not find the server process under npm start');
      return {
        ms: elapsed,
        cpuMs: cpuMsOf(server),
        server,
        npm,
        built: output.join('').includes('Building'),
      };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('npm start did not answer within 300 s');
}

/** Stops the server itself (not only npm) and waits until it has closed its database. */
async function stop(start: Start) {
  if (start.server && alive(start.server)) process.kill(start.server, 'SIGTERM');
  const until = performance.now() + 30_000;
  while (start.server && alive(start.server) && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  if (start.npm.exitCode === null) start.npm.kill('SIGTERM');
}

// The build must be present and up to date (goal 4 measures a start that builds nothing): what `npm start` would
// build, built first.
execFileSync(process.execPath, [path.join(repo, 'scripts/start.mjs'), '--build-only'], { cwd: repo, stdio: 'inherit' });

console.log(`npm start, build present, until the first API answer (${RUNS} runs each, best and worst):`);
const fresh: number[] = [];
const again: number[] = [];
let idle = { own: 0, all: 0, held: 0 };
let rebuilt = false;
for (let run = 0; run < RUNS; run++) {
  const dataDir = tempDir('podforge-bench-start-');
  const first = await npmStart(dataDir);
  rebuilt ||= first.built;
  console.log(`  new data folder:      ${ms(first.ms)} (server CPU ${ms(first.cpuMs)})  [${load()}]`);
  fresh.push(first.ms);
  await stop(first);
  const second = await npmStart(dataDir);
  rebuilt ||= second.built;
  console.log(`  existing data folder: ${ms(second.ms)} (server CPU ${ms(second.cpuMs)})  [${load()}]`);
  again.push(second.ms);
  // Idle: the background start work (workers, decoders, templates from the cache) is done after a few seconds.
  await new Promise((r) => setTimeout(r, 15_000));
  const own = rssOf(second.server);
  const group = [second.server, ...descendants(second.server)].filter(alive);
  const all = group.reduce((sum, pid) => sum + rssOf(pid), 0);
  const held = group.reduce((sum, pid) => sum + pssOf(pid), 0);
  idle = { own: Math.max(idle.own, own), all: Math.max(idle.all, all), held: Math.max(idle.held, held) };
  await stop(second);
}
const best = (xs: number[]) => Math.min(...xs);
const worst = (xs: number[]) => Math.max(...xs);
console.log(
  `  goal 4, new data folder under 10 s: best ${ms(best(fresh))}, worst ${ms(worst(fresh))} -> ${verdict(worst(fresh) < 10_000)}  [${load()}]`,
);
console.log(
  `  goal 4, existing data folder under 3 s: best ${ms(best(again))}, worst ${ms(worst(again))} -> ${verdict(worst(again) < 3_000)}  [${load()}]`,
);
// Judged on the server with its decoder processes, each shared page (the node binary, libvips) counted once: the
// memory the product holds. The resident sizes, which count shared pages in each process, are printed beside it.
console.log(
  `  goal 4, idle memory under 400 MB: the server and its decoder processes hold ${(idle.held / MB).toFixed(0)} MB (proportional set size) -> ${verdict(idle.held < 400 * MB)}; resident: the server ${(idle.own / MB).toFixed(0)} MB, summed over its processes ${(idle.all / MB).toFixed(0)} MB  [${load()}]`,
);
console.log(`  goal 4, npm start built nothing with the build up to date: ${verdict(!rebuilt)}`);
process.exit(0);
