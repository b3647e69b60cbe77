// What the benchmarks share: the machine's load average (printed beside every figure, since other work on the
// machine inflates times), the built server (rebuilt when older than its sources) started as its own process on a
// free port, its resident memory, and small statistics.
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stale } from '../scripts/build-freshness.mjs';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverEntry = path.join(repo, 'apps/server/dist/main.js');

/** "load 3.2 (2 cores)": the 1-minute load average, to read each figure against. */
export const load = () => `load ${os.loadavg()[0]?.toFixed(1)} (${os.availableParallelism()} cores)`;

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
export const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((xs.length * p) / 100) - 1))] ?? 0;
export const ms = (x: number) => `${x.toFixed(0)} ms`;
export const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** Builds the server when its build is missing or older than its sources (as `npm start` does). */
export function ensureServerBuilt() {
  const sources = ['apps/server/src', 'apps/server/drizzle', 'apps/server/tsup.config.ts', 'packages/contract/src'];
  if (
    !stale(
      serverEntry,
      sources.map((s) => path.join(repo, s)),
    )
  )
    return;
  execSync('npm run build -w @podforge/server', { cwd: repo, stdio: 'inherit' });
}

export const rssOf = (pid: number) => {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
};

/**
 * A process's proportional set size: its resident pages, each page it shares with other processes (the node binary,
 * libvips) divided among them, so the sum over a server and its decoders is the memory they hold together.
 */
export const pssOf = (pid: number) => {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
};

/** PSS of a process and its children (e.g. a server and its decode pool), in bytes. */
export const treePssOf = (pid: number) => {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]);
      if (Number(entry) === pid || ppid === pid) total += pssOf(Number(entry));
    } catch {}
  }
  return total;
};

/** CPU time (user + system) a process has used so far, in ms: what other load on the machine does not inflate. */
export const cpuMsOf = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name), in clock ticks of 10 ms.
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** CPU ms of a process and its live children (e.g. a decode pool's), from /proc. */
export const treeCpuMs = (pid: number): number => {
  const cpu = (p: number | string) => {
    try {
      const fields = fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return { ppid: Number(fields[1]), ms: (Number(fields[11]) + Number(fields[12])) * 10 };
    } catch {
      return null;
    }
  };
  let total = cpu(pid)?.ms ?? 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const c = cpu(entry);
    if (c && c.ppid === pid) total += c.ms;
  }
  return total;
};

export type Server = {
  child: ChildProcess;
  url: string;
  cookie: string;
  startMs: number;
  /** CPU time the server used until it answered. */
  startCpuMs: number;
  stop(): Promise<void>;
};

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server (warnings only in its log, so request logging does not weigh on the figures) and resolves
 * when it has answered its first API call (which makes a workspace; its cookie is returned). Gives up after
 * `timeoutMs`.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 120_000): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS passes node flags to the server alone (say `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverEntry], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      MOCKUP_TEMPLATE_WARMUP: 'false',
      // Benches play many sellers from one address.
      WORKSPACE_CREATE_PER_HOUR: '1000000',
      AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '1000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let exited = child.exitCode !== null;
  child.once('exit', () => {
    exited = true;
  });
  const stop = async () => {
    if (exited) return;
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await done;
    clearTimeout(timer);
  };
  while (performance.now() - started < timeoutMs) {
    if (exited) throw new Error(`the server exited with ${child.exitCode}`);
    const res = await fetch(`${url}/api/dashboard/stats`).catch(() => null);
    if (res) {
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the first call answered ${res.status}`);
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const startCpuMs = cpuMsOf(child.pid ?? 0);
      return { child, url, cookie, startMs: performance.now() - started, startCpuMs, stop };
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  await stop();
  throw new Error(`the server did not answer within ${timeoutMs} ms`);
}

/** A temporary folder removed when the process ends, however it ends. */
export function tempDir(prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A print-size design as sellers upload them: 4500x5400 RGBA, a transparent margin around artwork of smooth
 * gradients with a light grain (so it compresses like real artwork, about 12 MB of PNG rather than a flat colour's
 * few hundred KB). Deterministic.
 */
export async function printDesignPng(width = 4500, height = 5400): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const data = Buffer.alloc(width * height * 4);
  let seed = 12345;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  const cx = width / 2;
  const cy = height / 2;
  const r = Math.min(width, height) * 0.42;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const dx = x - cx;
      const dy = y - cy;
      const inside = dx * dx + dy * dy < r * r || (Math.abs(dx) < r * 0.9 && Math.abs(dy - r * 0.5) < r * 0.25);
      if (!inside) continue;
      const grain = (rand() % 3) - 1;
      data[i] = Math.max(0, Math.min(255, Math.round(40 + (180 * x) / width) + grain));
      data[i + 1] = Math.max(0, Math.min(255, Math.round(200 - (150 * y) / height) + grain));
      data[i + 2] = Math.max(0, Math.min(255, Math.round(90 + 60 * Math.sin(x / 300) * Math.cos(y / 400)) + grain));
      data[i + 3] = 255;
    }
  }
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

/** printDesignPng's file, made once per machine (it takes seconds) under the machine cache. */
export async function printDesignFile(): Promise<string> {
  const file = path.join(repo, 'node_modules/.cache/podforge/bench/print-4500x5400.png');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, await printDesignPng());
    fs.renameSync(`${file}.tmp`, file);
  }
  return file;
}
