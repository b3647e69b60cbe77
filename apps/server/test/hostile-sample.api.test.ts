import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssEscapedSvgs, type HostileFile } from './hostile/corpus';
import {
  answeredWrong,
  type Call,
  MB,
  type Outcome,
  probeHealth,
  send,
  startServer,
  watchTree,
} from './hostile/hostile-server';
import { pngOf, sixteenBitPng, zTxtBombPng } from './support/design-fixtures';

const warm: HostileFile = { name: 'warm.png', kind: 'warm', expect: 'accepted', make: () => Buffer.alloc(0) };

/**
 * The CI sample of `npm run test:hostile` (issue 25): a real server in its own process, a few of the hostile files
 * that once froze it (the 1 GiB zTXt bomb and 16-bit 6500x6500 PNGs through Analyze Image, a CSS-escaped SVG), two at
 * a time, while the whole process tree's memory (PSS) and a health probe's latency are measured.
 */
describe('hostile sample against a real server (CI)', () => {
  let dataDir: string;
  let server: { child: ChildProcess; url: string };
  let cookie = '';
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-hostile-sample-'));
    // A fresh data folder opens from the PGlite snapshot in a few seconds (more on a busy machine).
    server = await startServer(dataDir, { DECODE_CONCURRENCY: '2' }, 40_000);
    const res = await fetch(`${server.url}/api/dashboard/stats`);
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    // The decoders started by a first upload, so what is measured is the server at work, not its start.
    await send(server.url, cookie, 'designs/upload', warm, await pngOf(32, 32));
    await new Promise((r) => setTimeout(r, 500));
  }, 60_000);
  afterAll(async () => {
    // The server's own: stopped whatever happened (its decoders exit with it).
    if (server?.child.exitCode === null) {
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      const killer = setTimeout(() => server.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 15_000);

  it('answers each as it deserves within 10 s, the tree stays under 1 GB and health p99 under 250 ms', async () => {
    const { url, child } = server;
    const started = performance.now();
    const file = (name: string, expect: HostileFile['expect'], make: () => Buffer, reason?: RegExp): HostileFile => ({
      name,
      kind: 'sample',
      expect,
      make,
      ...(reason ? { reason } : {}),
    });
    const bomb = file('bomb-ztxt.png', 'refused', () => zTxtBombPng(1024 ** 3), /metadata \(zTXt chunks\)/);
    const deep = file('deep-16bit-6500x6500.png', 'either', () => sixteenBitPng(6500));
    const svg = cssEscapedSvgs()[0] as HostileFile;
    const plan: [HostileFile, Call][] = [
      [deep, 'ai/analyze-image'],
      [bomb, 'ai/analyze-image'],
      [svg, 'ai/analyze-image'],
      [bomb, 'designs/upload'],
    ];
    const tree = watchTree(child.pid as number);
    // Often, so that its p99 is a p99 over a few hundred probes, not the one slowest of a few dozen.
    const health = probeHealth(url, 20);
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < plan.length) {
        const [f, call] = plan[next++] as [HostileFile, Call];
        outcomes.push(await send(url, cookie, call, f, await f.make()));
      }
    };
    await Promise.all([worker(), worker()]);
    const latency = await health.stop();
    const peak = tree.stop();
    console.log(
      `hostile sample in ${((performance.now() - started) / 1000).toFixed(1)} s: ${outcomes.map((o) => `${o.file.name} via ${o.call} ${o.status} in ${(o.ms / 1000).toFixed(1)} s`).join('; ')}; tree peak ${(peak.treePss / MB).toFixed(0)} MB PSS (server ${(peak.serverPss / MB).toFixed(0)} MB, decoders ${(peak.childrenPss / MB).toFixed(0)} MB); health ${latency.count} probes, p99 ${latency.p99.toFixed(0)} ms, max ${latency.max.toFixed(0)} ms`,
    );
    for (const o of outcomes) {
      expect(o.status, `${o.file.name} via ${o.call}: ${o.error}`).toBeGreaterThan(0);
      expect(answeredWrong(o), `${o.file.name} via ${o.call}: ${o.status} ${o.error}`).toBe(false);
    }
    expect(peak.treePss).toBeLessThan(1024 * MB);
    expect(latency.p99).toBeLessThan(250);
    // Bounded: four files, two at a time; about 5 s on a quiet 2-core machine.
  }, 30_000);
});
