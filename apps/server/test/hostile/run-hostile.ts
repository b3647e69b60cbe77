/**
 * `npm run test:hostile`: the hostile-file benchmark of issues 14 and 25. Starts a real server (a child process on a
 * fresh DATA_DIR and a free port), sends the corpus (corpus.ts: ~1,100 files, the named bombs through all four calls
 * that take a file from anyone, Analyze Image included, every other file through one of them in turn), and prints:
 * answered within 10 s each, 5xx, answers that differ from what the file deserves, kept after a refusal (design
 * folders on disk beyond the accepted designs, and temporary files left), the whole process tree's memory
 * (proportional set size of the server and its decoders: peak, and the server before and after) and the latency of
 * a health probe sent every 100 ms throughout (p50, p99, max). Exit code 1 when a goal is missed: all answered within
 * 10 s, no 5xx, nothing kept, the server's RSS after within 200 MB of the start, the tree under 1 GB, health p99
 * under 250 ms.
 *
 * Options: `--sample` (about 100 files), `--concurrency N` (requests in flight, default 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DESIGN_MAX_BYTES } from '@podforge/contract';
import { type HostileFile, mutations, namedBombs, oddNames, oversize } from './corpus';
import {
  answeredWrong,
  CALLS,
  type Call,
  MB,
  type Outcome,
  probeHealth,
  rssOf,
  send,
  startServer,
  watchTree,
} from './hostile-server';

const args = process.argv.slice(2);
const sample = args.includes('--sample');
const concurrency = Number(args[args.indexOf('--concurrency') + 1]) || 2;
const ANSWER_GOAL_MS = 10_000;
const TREE_GOAL = 1024 * MB;
const HEALTH_P99_GOAL_MS = 250;

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
  for (const file of bombs) for (const call of CALLS) plan.push({ file, call });
  [...odd, ...damaged].forEach((file, i) => {
    plan.push({ file, call: CALLS[i % CALLS.length] as Call });
  });
  plan.push({ file: oversize(DESIGN_MAX_BYTES), call: 'products' });
  if (!sample) plan.push({ file: oversize(50 * MB), call: 'designs/upload' });
  const distinct = new Set(plan.map((p) => p.file.name)).size;
  console.log(
    `hostile corpus: ${distinct} files, ${plan.length} requests over ${CALLS.length} calls, ${concurrency} at a time; data in ${dataDir}`,
  );

  const { child, url } = await startServer(dataDir);
  const pid = child.pid as number;
  const cookieRes = await fetch(`${url}/api/dashboard/stats`);
  const cookie = (cookieRes.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  // Warm up the decoders once, so the starting figures are the server at work, not a cold one.
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
  const tree = watchTree(pid);
  const treeStart = tree.now();
  const health = probeHealth(url);

  const outcomes: Outcome[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < plan.length) {
      const item = plan[next++] as { file: HostileFile; call: Call };
      const content = await item.file.make();
      outcomes.push(await send(url, cookie, item.call, item.file, content));
      if (outcomes.length % 100 === 0) {
        console.log(
          `  ${outcomes.length}/${plan.length} answered, tree ${(tree.now() / MB).toFixed(0)} MB (PSS), peak ${(tree.peak.treePss / MB).toFixed(0)} MB`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const latency = await health.stop();
  await new Promise((r) => setTimeout(r, 2000));
  const rssEnd = rssOf(pid);
  const treeEnd = tree.now();
  const peak = tree.stop();

  const slow = outcomes.filter((o) => o.ms > ANSWER_GOAL_MS || o.status === 0);
  const fivexx = outcomes.filter((o) => o.status >= 500);
  const wrong = outcomes.filter(answeredWrong);
  const accepted = outcomes.reduce((n, o) => n + o.accepted, 0) + 1; // + the warm-up
  const folders = countDesignFolders(path.join(dataDir, 'files'));
  const tmpDir = path.join(dataDir, 'tmp');
  const tmpLeft = fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir).length : 0;
  const kept = Math.max(0, folders - accepted) + tmpLeft;
  const refused = outcomes.filter((o) => o.status >= 400 && o.status < 500).length;
  const analyzed = outcomes.filter((o) => o.call === 'ai/analyze-image');

  const mb = (b: number) => `${(b / MB).toFixed(0)} MB`;
  const ms = (n: number) => `${n.toFixed(0)} ms`;
  console.log(
    `\n${outcomes.length} requests in ${elapsed.toFixed(0)} s: ${accepted - 1} designs stored, ${refused} refused (4xx); Analyze Image ${analyzed.length} (${analyzed.filter((o) => o.status === 201).length} read)`,
  );
  const slowest = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(
    `slowest: ${slowest.map((o) => `${o.file.name} via ${o.call} ${(o.ms / 1000).toFixed(1)} s (${o.status})`).join('; ')}`,
  );
  console.log(
    `memory (PSS): tree ${mb(treeStart)} at start, peak ${mb(peak.treePss)} (server at most ${mb(peak.serverPss)}, decoders together at most ${mb(peak.childrenPss)}, ${peak.processes} processes at most), ${mb(treeEnd)} after`,
  );
  console.log(
    `health: ${latency.count} probes, p50 ${ms(latency.p50)}, p99 ${ms(latency.p99)}, max ${ms(latency.max)}`,
  );
  const goals: [string, boolean, string][] = [
    ['answered within 10 s each', slow.length === 0, `${outcomes.length - slow.length}/${outcomes.length}`],
    ['5xx answers', fivexx.length === 0, String(fivexx.length)],
    [
      'kept after a refusal',
      kept === 0,
      `${kept} (design folders ${folders} for ${accepted} accepted, ${tmpLeft} temporary files)`,
    ],
    ['server RSS after within 200 MB of start', rssEnd - rssStart <= 200 * MB, `${mb(rssStart)} -> ${mb(rssEnd)}`],
    ['process tree (PSS) under 1 GB throughout', peak.treePss < TREE_GOAL, `peak ${mb(peak.treePss)}`],
    ['health p99 under 250 ms', latency.p99 < HEALTH_P99_GOAL_MS, ms(latency.p99)],
    ['answers as the file deserves', wrong.length === 0, String(wrong.length)],
  ];
  for (const [goal, ok, value] of goals) console.log(`${ok ? 'PASS' : 'FAIL'}  ${goal}: ${value}`);
  const list = (title: string, found: Outcome[]) => {
    if (found.length) console.log(`${title}:`);
    for (const o of found.slice(0, 20)) {
      console.log(
        `  ${o.file.name} via ${o.call}: ${o.status} in ${(o.ms / 1000).toFixed(1)} s ${o.error.slice(0, 160)}`,
      );
    }
  };
  list('not as deserved', wrong);
  list('5xx', fivexx);
  list('slow', slow);
  child.kill('SIGTERM');
  const failed = goals.some(([, ok]) => !ok);
  if (!failed) fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}

await main();
