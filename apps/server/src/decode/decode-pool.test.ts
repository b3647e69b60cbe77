import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DESIGN_DECODE } from '../modules/designs/design-decode-kind';
import type { DesignDecodeJob } from '../modules/designs/design-files';
import { DecodePool, memoryReservationMb, withHugePages } from './decode-pool';

const entry = { file: path.resolve(import.meta.dirname, '../../test/support/test-decode-worker.mjs'), execArgv: [] };
const job = (name: string) => ({ type: 'png', name, inputPath: '', outDir: '' }) as DesignDecodeJob;
const result = (value: unknown) => value as { name: string; pid: number };
const MB = 1024 * 1024;
/** A job whose header declares `decodedMb` of pixels. */
const sized = (name: string, decodedMb: number) =>
  ({ type: 'png', name, inputPath: '', outDir: '', decodedBytes: decodedMb * MB }) as DesignDecodeJob;
type Timed = { name: string; started: number; ended: number };

let pool: DecodePool;
afterEach(async () => {
  await pool?.close();
});

describe('DecodePool', () => {
  it('refuses a file whose decoder passes the memory limit with 422, and the next file gets a fresh decoder', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 160, entry });
    const first = result(await pool.run(DESIGN_DECODE, job('warm'), { label: 'warm.png' }));
    await expect(pool.run(DESIGN_DECODE, job('hungry'), { label: 'hungry.png' })).rejects.toMatchObject({
      statusCode: 422,
      message: 'hungry.png needs more than 160 MB of memory to process; the limit is 160 MB',
    });
    expect(pool.stats.killed).toBe(1);
    const next = result(await pool.run(DESIGN_DECODE, job('after'), { label: 'after.png' }));
    expect(next.name).toBe('after');
    expect(next.pid).not.toBe(first.pid);
  });

  it('refuses a file that passes the wall-clock limit, and one whose decoder dies; never a 5xx', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 300, memoryLimitMb: 512, entry });
    await expect(pool.run(DESIGN_DECODE, job('hang'), { label: 'slow.svg' })).rejects.toMatchObject({
      statusCode: 422,
      message: 'slow.svg took longer than 0.3 s to process; the limit is 0.3 s',
    });
    await expect(pool.run(DESIGN_DECODE, job('crash'), { label: 'crash.pdf' })).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringMatching(/^crash\.pdf could not be processed: the decoder stopped \(exit 3\)/),
    });
    await expect(pool.run(DESIGN_DECODE, job('refuse'), { label: 'r.png' })).rejects.toMatchObject({
      statusCode: 422,
      message: 'refuse was refused by the worker',
    });
    expect(result(await pool.run(DESIGN_DECODE, job('fine'), { label: 'fine.png' })).name).toBe('fine');
  });

  it('runs at most `concurrency` at once; the rest wait in order, report their place, and can leave the queue', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const release = await pool.lease({ label: 'held' });
    const order: string[] = [];
    const run = (name: string, signal?: AbortSignal) =>
      pool.run(DESIGN_DECODE, job(name), { label: `${name}.png`, ticket: `ws:${name}`, signal }).then((r) => {
        order.push(result(r).name);
      });
    const leaving = new AbortController();
    const a = run('a');
    const b = run('b', leaving.signal);
    const c = run('c');
    expect(pool.load).toEqual({ running: 1, waiting: 3 });
    expect(pool.position('ws:a')).toEqual({ state: 'waiting', position: 1, waiting: 3 });
    expect(pool.position('ws:c')).toEqual({ state: 'waiting', position: 3, waiting: 3 });
    leaving.abort(new Error('gone'));
    await expect(b).rejects.toThrow('gone');
    expect(pool.position('ws:c')).toEqual({ state: 'waiting', position: 2, waiting: 2 });
    expect(pool.position('ws:b')).toBeNull();
    release();
    expect(pool.position('ws:a')).toEqual({ state: 'processing', position: 0, waiting: 1 });
    await Promise.all([a, c]);
    expect(order).toEqual(['a', 'c']);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
  });

  it('starts a job someone waits for before every background job waiting, whenever it came', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const release = await pool.lease({ label: 'held' });
    const order: string[] = [];
    const run = (name: string, background = false) =>
      pool.run(DESIGN_DECODE, job(name), { label: `${name}.png`, ticket: `ws:${name}`, background }).then((r) => {
        order.push(result(r).name);
      });
    const jobs = [run('later-1', true), run('later-2', true), run('upload-1'), run('later-3', true), run('upload-2')];
    expect(pool.position('ws:upload-2')).toEqual({ state: 'waiting', position: 2, waiting: 5 });
    release();
    await Promise.all(jobs);
    expect(order).toEqual(['upload-1', 'upload-2', 'later-1', 'later-2', 'later-3']);
  });

  it('moves a background job someone now waits for ahead of the other background jobs', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const release = await pool.lease({ label: 'held' });
    const order: string[] = [];
    const run = (name: string, background = false) =>
      pool.run(DESIGN_DECODE, job(name), { label: name, ticket: name, background }).then((r) => {
        order.push(result(r).name);
      });
    const jobs = [run('later-1', true), run('later-2', true), run('upload'), run('later-3', true)];
    pool.promote('later-3');
    expect(pool.position('later-3')).toEqual({ state: 'waiting', position: 2, waiting: 4 });
    release();
    await Promise.all(jobs);
    expect(order).toEqual(['upload', 'later-3', 'later-1', 'later-2']);
  });

  it('runs background jobs one at a time, each leaving a slot free for a job someone waits for', async () => {
    pool = new DecodePool({ concurrency: 2, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const timed = (name: string, background: boolean) =>
      pool.run(DESIGN_DECODE, job(name), { label: name, background }).then((r) => r as unknown as Timed);
    const first = timed('sleep-300', true);
    const second = timed('sleep-301', true);
    await new Promise((r) => setTimeout(r, 50));
    expect(pool.load).toEqual({ running: 1, waiting: 1 });
    const upload = timed('sleep-100', false);
    expect(pool.load).toEqual({ running: 2, waiting: 1 });
    const [a, b, u] = await Promise.all([first, second, upload]);
    expect(u.ended).toBeLessThan(a.ended);
    expect(b.started).toBeGreaterThanOrEqual(a.ended);
  });

  it('stops a running decode when its request is abandoned, and replaces the decoder', async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const gone = new AbortController();
    const started = new Promise<void>((resolve) => pool.once('started', () => resolve()));
    const hanging = pool.run(DESIGN_DECODE, job('hang'), { label: 'hang.png', signal: gone.signal });
    await started;
    gone.abort(new Error('client went away'));
    await expect(hanging).rejects.toThrow('client went away');
    expect(pool.stats.killed).toBe(1);
    expect(result(await pool.run(DESIGN_DECODE, job('next'), { label: 'next.png' })).name).toBe('next');
  });

  it("starts its decoders with glibc's malloc asking for huge pages, and keeps an operator's own setting", async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 512, entry });
    const { pid } = result(await pool.run(DESIGN_DECODE, job('env'), { label: 'env.png' }));
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain(
      `GLIBC_TUNABLES=${process.env.GLIBC_TUNABLES ? `${process.env.GLIBC_TUNABLES}:` : ''}glibc.malloc.hugetlb=1`,
    );
    expect(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' }).GLIBC_TUNABLES).toBe(
      'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1',
    );
    expect(withHugePages({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=0');
  });

  it("holds a job to its own time limit when it is given one, not the pool's", async () => {
    pool = new DecodePool({ concurrency: 1, timeLimitMs: 200, memoryLimitMb: 512, entry });
    const started = Date.now();
    await expect(pool.run(DESIGN_DECODE, job('hang'), { label: 'print.png', timeLimitMs: 1200 })).rejects.toMatchObject(
      {
        statusCode: 422,
        message: 'print.png took longer than 1.2 s to process; the limit is 1.2 s',
      },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(1100);
    await expect(pool.run(DESIGN_DECODE, job('hang'), { label: 'upload.png' })).rejects.toMatchObject({
      message: 'upload.png took longer than 0.2 s to process; the limit is 0.2 s',
    });
  });

  it('bounds the pool as a whole: two jobs that each declare a 768 MB share never run at once, two small ones do', async () => {
    pool = new DecodePool({ concurrency: 2, timeLimitMs: 60_000, memoryLimitMb: 768, poolMemoryMb: 1024, entry });
    expect(memoryReservationMb(DESIGN_DECODE, sized('big', 450), 768)).toBe(768);
    expect(memoryReservationMb(DESIGN_DECODE, sized('small', 20), 768)).toBe(126);
    const [a, b] = (await Promise.all([
      pool.run(DESIGN_DECODE, sized('sleep-300', 450), { label: 'a.png' }),
      pool.run(DESIGN_DECODE, sized('sleep-300', 450), { label: 'b.png' }),
    ])) as unknown as Timed[];
    expect((b as Timed).started).toBeGreaterThanOrEqual((a as Timed).ended);
    expect(pool.stats.peakReservedMb).toBe(768);
    const [c, d] = (await Promise.all([
      pool.run(DESIGN_DECODE, sized('sleep-300', 20), { label: 'c.png' }),
      pool.run(DESIGN_DECODE, sized('sleep-300', 20), { label: 'd.png' }),
    ])) as unknown as Timed[];
    expect((d as Timed).started).toBeLessThan((c as Timed).ended);
    expect(pool.memory).toEqual({ budgetMb: 1024, reservedMb: 0 });
  });

  it("refuses the hungriest running job when all the children together pass the pool's budget", async () => {
    pool = new DecodePool({ concurrency: 2, timeLimitMs: 60_000, memoryLimitMb: 512, poolMemoryMb: 400, entry });
    // Both slots' children started first, so both jobs run side by side.
    await Promise.all([
      pool.run(DESIGN_DECODE, sized('sleep-10', 1), { label: 'a.png' }),
      pool.run(DESIGN_DECODE, sized('sleep-10', 1), { label: 'b.png' }),
    ]);
    // Both hold their memory for a minute: the big one is refused as soon as both are resident; the small one is
    // then abandoned (its child killed), so the test does not wait.
    const abandon = new AbortController();
    const small = pool.run(DESIGN_DECODE, sized('grab-60-60000', 1), { label: 'small.png', signal: abandon.signal });
    small.catch(() => {});
    const big = pool.run(DESIGN_DECODE, sized('grab-300-60000', 1), { label: 'big.png' });
    await expect(big).rejects.toMatchObject({
      statusCode: 422,
      message:
        'big.png needs more memory than the decoders may use together (400 MB, with the other files decoding now); the limit is 400 MB',
    });
    abandon.abort(new Error('done'));
    await expect(small).rejects.toThrow('done');
    expect(pool.stats.refusedAtPoolLimit).toBe(1);
    expect(pool.stats.peakChildrenMb).toBeLessThan(400 + 100);
  });
});
