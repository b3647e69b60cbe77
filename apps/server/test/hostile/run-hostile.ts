/**
 * `npm run test:hostile`: the hostile-file benchmark of issue 14. Starts a real server (a child process on a fresh
 * DATA_DIR and a free port), sends the corpus (corpus.ts: ~1,100 files, the named bombs through all three upload
 * calls, every other file through one of them in turn), and prints: answered within 10 s each, 5xx, answers that
 * differ from what the file deserves, kept after a refusal (design folders on disk beyond the accepted designs, and
 * temporary files left), and the server's resident memory before, at its peak and after (its decode children
 * separately). Exit code 1 when a goal is missed: all answered within 10 s, no 5xx, nothing kept, RSS after within
 * 200 MB of the start and never above 1.5 GB.
 *
 * Options: `--sample` (about 100 files), `--concurrency N` (requests in flight, default 2).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESIGN_MAX_BYTES } from '@podforge/contract';
import { multipart } from '../support/design-fixtures';
import { type HostileFile, mutations, namedBombs, oddNames, oversize } from './corpus';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');
const args = process.argv.slice(2);
const sample = args.includes('--sample');
const concurrency = Number(args[args.indexOf('--concurrency') + 1]) || 2;
const ANSWER_GOAL_MS = 10_000;
const MB = 1024 * 1024;

type Call = 'designs/upload' | 'upload/files' | 'products';
type Outcome = { file: HostileFile; call: Call; status: number; ms: number; error: string; accepted: number };

function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((tid) => fs.readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
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
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const log = fs.createWriteStream(path.join(dataDir, 'server.log'));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.on('data', (data: Buffer) => {
      log.write(data);
      buffered += data.toString();
      const m = /Podforge is running at (http:\/\/[^"\s]+)/.exec(buffered);
      if (m?.[1]) {
        buffered = '';
        resolve({ child, url: m[1] });
      }
      if (buffered.length > 100_000) buffered = buffered.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code}); see ${dataDir}/server.log`)));
  });
}

async function send(url: string, cookie: string, call: Call, file: HostileFile, content: Buffer): Promise<Outcome> {
  const parts =
    call === 'products'
      ? [
          { field: 'title', value: 'Hostile' },
          { field: 'price', value: '20' },
          { field: 'productType', value: 'poster' },
          { field: 'file', filename: file.name, content },
        ]
      : [{ field: call === 'upload/files' ? 'files' : 'file', filename: file.name, content }];
  const { payload, headers } = multipart(parts);
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
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
        file,
        call,
        status: item.id ? 201 : (item.status ?? 0),
        ms,
        error: item.error ?? '',
        accepted: item.id ? 1 : 0,
      };
    }
    return {
      file,
      call,
      status: res.status,
      ms,
      error: String(body.error ?? ''),
      accepted: res.status === 201 ? 1 : 0,
    };
  } catch (error) {
    return { file, call, status: 0, ms: performance.now() - started, error: String(error), accepted: 0 };
  } finally {
    clearTimeout(timer);
  }
}

function countDesignFolders(filesDir: string): number {
  if (!fs.existsSync(filesDir)) return 0;
  let n = 0;
  for (const ws of fs.readdirSync(filesDir)) {
    const designs = path.join(filesDir, ws, 'designs');
    if (fs.existsSync(designs)) n += fs.readdirSync(designs).length;
  }
  return n;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-hostile-'));
  const bombs = namedBombs();
  const odd = oddNames();
  const damaged = await mutations(sample ? 40 : 1000);
  const plan: { file: HostileFile; call: Call }[] = [];
  const calls: Call[] = ['designs/upload', 'upload/files', 'products'];
  for (const file of bombs) for (const call of calls) plan.push({ file, call });
  [...odd, ...damaged].forEach((file, i) => {
    plan.push({ file, call: calls[i % calls.length] as Call });
  });
  plan.push({ file: oversize(DESIGN_MAX_BYTES), call: 'products' });
  if (!sample) plan.push({ file: oversize(50 * MB), call: 'designs/upload' });
  const distinct = new Set(plan.map((p) => p.file.name)).size;
  console.log(
    `hostile corpus: ${distinct} files, ${plan.length} uploads, ${concurrency} at a time; data in ${dataDir}`,
  );

  const { child, url } = await startServer(dataDir);
  const pid = child.pid as number;
  const cookieRes = await fetch(`${url}/api/dashboard/stats`);
  const cookie = (cookieRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  // Warm up the decoders once, so the starting RSS is the server at work, not a cold one.
  const { pngOf } = await import('../support/design-fixtures');
  await send(
    url,
    cookie,
    'designs/upload',
    { name: 'warm.png', kind: 'warm', expect: 'accepted', make: () => Buffer.alloc(0) },
    await pngOf(32, 32),
  );
  await new Promise((r) => setTimeout(r, 500));
  const rssStart = rssOf(pid);
  let rssPeak = rssStart;
  let childrenPeak = 0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, rssOf(pid));
    childrenPeak = Math.max(
      childrenPeak,
      childrenOf(pid).reduce((sum, c) => sum + rssOf(c), 0),
    );
  }, 50);

  const outcomes: Outcome[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const item = plan[next++] as { file: HostileFile; call: Call };
      const content = await item.file.make();
      outcomes.push(await send(url, cookie, item.call, item.file, content));
      if (outcomes.length % 100 === 0) {
        console.log(`  ${outcomes.length}/${plan.length} answered, server RSS ${(rssOf(pid) / MB).toFixed(0)} MB`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const rssEnd = rssOf(pid);
  clearInterval(sampler);

  const slow = outcomes.filter((o) => o.ms > ANSWER_GOAL_MS || o.status === 0);
  const fivexx = outcomes.filter((o) => o.status >= 500);
  const wrong = outcomes.filter(
    (o) =>
      (o.file.expect === 'refused' && (o.status < 400 || o.status >= 500)) ||
      (o.file.expect === 'accepted' && o.status !== 201) ||
      (o.file.reason && o.status >= 400 && o.status < 500 && !o.file.reason.test(o.error)),
  );
  const accepted = outcomes.reduce((n, o) => n + o.accepted, 0) + 1; // + the warm-up
  const folders = countDesignFolders(path.join(dataDir, 'files'));
  const tmpDir = path.join(dataDir, 'tmp');
  const tmpLeft = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).length : 0;
  const kept = Math.max(0, folders - accepted) + tmpLeft;
  const refused = outcomes.filter((o) => o.status >= 400 && o.status < 500).length;

  const mb = (b: number) => `${(b / MB).toFixed(0)} MB`;
  console.log(
    `\n${outcomes.length} uploads in ${elapsed.toFixed(0)} s: ${accepted - 1} accepted, ${refused} refused (4xx)`,
  );
  const slowest = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(
    `slowest: ${slowest.map((o) => `${o.file.name} via ${o.call} ${(o.ms / 1000).toFixed(1)} s (${o.status})`).join('; ')}`,
  );
  const goals: [string, boolean, string][] = [
    ['answered within 10 s each', slow.length === 0, `${outcomes.length - slow.length}/${outcomes.length}`],
    ['5xx answers', fivexx.length === 0, String(fivexx.length)],
    [
      'kept after a refusal',
      kept === 0,
      `${kept} (design folders ${folders} for ${accepted} accepted, ${tmpLeft} temporary files)`,
    ],
    ['RSS after within 200 MB of start', rssEnd - rssStart <= 200 * MB, `${mb(rssStart)} -> ${mb(rssEnd)}`],
    [
      'RSS never above 1.5 GB',
      rssPeak <= 1.5 * 1024 * MB,
      `peak ${mb(rssPeak)} (decode children together at most ${mb(childrenPeak)})`,
    ],
    ['answers as the file deserves', wrong.length === 0, String(wrong.length)],
  ];
  for (const [goal, ok, value] of goals) console.log(`${ok ? 'PASS' : 'FAIL'}  ${goal}: ${value}`);
  for (const o of [...slow, ...fivexx, ...wrong].slice(0, 20)) {
    console.log(
      `  ${o.file.name} via ${o.call}: ${o.status} in ${(o.ms / 1000).toFixed(1)} s ${o.error.slice(0, 160)}`,
    );
  }
  child.kill('SIGTERM');
  const failed = goals.some(([, ok]) => !ok);
  if (!failed) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

await main();
