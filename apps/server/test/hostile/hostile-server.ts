/**
 * What the hostile run (run-hostile.ts) and its CI sample (test/hostile-sample.api.test.ts) share: a real server in a
 * child process, the four calls that take a file from anyone, the whole process tree's memory (proportional set
 * size, so pages the decoders share with each other count once) and a health probe's latency while the run goes on.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { multipart } from '../support/design-fixtures';
import type { HostileFile } from './corpus';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');
export const MB = 1024 * 1024;

/** The calls that make or read a design from a file anyone can send. */
export type Call = 'designs/upload' | 'upload/files' | 'products' | 'ai/analyze-image';
export const CALLS: Call[] = ['designs/upload', 'upload/files', 'products', 'ai/analyze-image'];
/** Analyze Image's own size limit (the simple flow's). */
export const ANALYZE_MAX_BYTES = 10 * MB;

export type Outcome = {
  file: HostileFile;
  call: Call;
  status: number;
  ms: number;
  error: string;
  /** Designs stored by the call (Analyze Image stores none). */
  accepted: number;
  bytes: number;
};

/** Starts `src/main.ts` on 127.0.0.1 and a free port, on `dataDir`; resolves once it listens. */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  startTimeoutMs = 60_000,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST_DIR: '',
      MOCKUP_TEMPLATE_WARMUP: 'false',
      JOBS_WORKER: 'false',
      AI_RATE_LIMIT_PER_MINUTE: '100000',
      AI_MONTHLY_CREDITS: '100000',
      // The run is one client at one address: the per-address caps on AI calls and credits would answer 429 long
      // before the decode work this run measures (limits.api.test.ts proves those caps).
      AI_RATE_LIMIT_PER_MINUTE_PER_ADDRESS: '100000',
      AI_MONTHLY_CREDITS_PER_ADDRESS: '100000000',
      // As `npm start` runs it (scripts/start.mjs).
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const log = fs.createWriteStream(path.join(dataDir, 'server.log'));
  return new Promise((resolve, reject) => {
    let buffered = '';
    // Bounded: a server that does not listen in time is stopped, not left behind.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not listen within ${startTimeoutMs / 1000} s; see ${dataDir}/server.log`));
    }, startTimeoutMs);
    child.stdout?.on('data', (data: Buffer) => {
      log.write(data);
      buffered += data.toString();
      const m = /Podforge is running at (http:\/\/[^"\s]+)/.exec(buffered);
      if (m?.[1]) {
        buffered = '';
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
      if (buffered.length > 100_000) buffered = buffered.slice(-10_000);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server stopped (${code}); see ${dataDir}/server.log`));
    });
  });
}

/** Sends one file through one call; `status` is the file's own answer (an item's, for upload/files). */
export async function send(
  url: string,
  cookie: string,
  call: Call,
  file: HostileFile,
  content: Buffer,
): Promise<Outcome> {
  const parts =
    call === 'products'
      ? [
          { field: 'title', value: 'Hostile' },
          { field: 'price', value: '20' },
          { field: 'productType', value: 'poster' },
          { field: 'file', filename: file.name, content },
        ]
      : [
          {
            field: call === 'upload/files' ? 'files' : call === 'ai/analyze-image' ? 'image' : 'file',
            filename: file.name,
            content,
          },
        ];
  const { payload, headers } = multipart(parts);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  const base = { file, call, bytes: content.length };
  try {
    const res = await fetch(`${url}/api/${call}`, {
      method: 'POST',
      headers: { ...headers, cookie },
      body: new Uint8Array(payload),
      signal: controller.signal,
    });
    const text = await res.text();
    const ms = performance.now() - started;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch {}
    if (call === 'upload/files' && res.status === 200) {
      const item = (body.files as { id?: string; error?: string; status?: number }[] | undefined)?.[0] ?? {};
      return {
        ...base,
        status: item.id ? 201 : (item.status ?? 0),
        ms,
        error: item.error ?? '',
        accepted: item.id ? 1 : 0,
      };
    }
    return {
      ...base,
      // Analyze Image answers 200 for a file it read: the same as another call's 201 for what the file deserves.
      status: call === 'ai/analyze-image' && res.status === 200 ? 201 : res.status,
      ms,
      error: String(body.error ?? ''),
      accepted: res.status === 201 ? 1 : 0,
    };
  } catch (error) {
    return { ...base, status: 0, ms: performance.now() - started, error: String(error), accepted: 0 };
  } finally {
    clearTimeout(timer);
  }
}

/** A process and all its descendants (the decoders, and anything they start), from /proc. */
export function treeOf(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    const p = out[i] as number;
    try {
      for (const tid of fs.readdirSync(`/proc/${p}/task`)) {
        const kids = fs.readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/);
        for (const k of kids) if (k) out.push(Number(k));
      }
    } catch {}
  }
  return out;
}

/** Proportional set size of a process (bytes; 0 once it is gone). */
export function pssOf(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Samples the tree's PSS (and the server's own RSS) every `everyMs` until stopped; keeps the peaks. Reading a large
 * process's smaps_rollup takes tens of milliseconds of CPU on a busy machine, so not much more often than this.
 */
export function watchTree(pid: number, everyMs = 250) {
  const peak = { treePss: 0, serverPss: 0, childrenPss: 0, serverRss: 0, processes: 0 };
  const sample = () => {
    const tree = treeOf(pid);
    const server = pssOf(pid);
    let children = 0;
    for (const p of tree.slice(1)) children += pssOf(p);
    peak.treePss = Math.max(peak.treePss, server + children);
    peak.serverPss = Math.max(peak.serverPss, server);
    peak.childrenPss = Math.max(peak.childrenPss, children);
    peak.serverRss = Math.max(peak.serverRss, rssOf(pid));
    peak.processes = Math.max(peak.processes, tree.length);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    peak,
    now: () => treeOf(pid).reduce((sum, p) => sum + pssOf(p), 0),
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/**
 * Probes `GET /api/health` one request at a time, every `everyMs`, until stopped; a probe that fails or takes 10 s
 * counts as 10 s. Answers the latencies' p50, p99 and max.
 */
export function probeHealth(url: string, everyMs = 100) {
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) });
        await res.text();
        latencies.push(res.ok ? performance.now() - started : 10_000);
      } catch {
        latencies.push(10_000);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
      return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
    },
  };
}

/** What the file deserved: its `expect`, `reason`, and for Analyze Image a 413 past its 10 MB. */
export function answeredWrong(o: Outcome): boolean {
  if (o.call === 'ai/analyze-image' && o.bytes > ANALYZE_MAX_BYTES) return o.status !== 413;
  return (
    (o.file.expect === 'refused' && (o.status < 400 || o.status >= 500)) ||
    (o.file.expect === 'accepted' && o.status !== 201) ||
    (o.file.reason !== undefined && o.status >= 400 && o.status < 500 && !o.file.reason.test(o.error))
  );
}
