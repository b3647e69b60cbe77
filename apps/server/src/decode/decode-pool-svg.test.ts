import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { DESIGN_DECODE, SVG_SANITISER } from '../modules/designs/design-decode-kind';
import { DecodePool } from './decode-pool';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-svg-pool-'));
const pools: DecodePool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function svgJob(name: string) {
  const inputPath = path.join(dir, `${name}.svg`);
  fs.writeFileSync(
    inputPath,
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#c00"/></svg>',
  );
  const outDir = path.join(dir, name);
  fs.mkdirSync(outDir);
  return { type: 'svg' as const, name: `${name}.svg`, inputPath, outDir };
}

describe('the decode pool and SVG files', () => {
  it('a child loads the SVG sanitiser for its first SVG (outside that file’s time limit) and keeps it', async () => {
    const pool = new DecodePool({ concurrency: 1, timeLimitMs: 30_000, memoryLimitMb: 768 });
    pools.push(pool);
    const decoded = await pool.run(DESIGN_DECODE, svgJob('first'), { label: 'first.svg' });
    expect(decoded).toMatchObject({ width: 400, height: 300 });
    // The same child has it loaded now.
    expect(await pool.run(DESIGN_DECODE, svgJob('second'), { label: 'second.svg' })).toMatchObject({
      width: 400,
      height: 300,
    });
    expect(pool.stats.spawned).toBe(2); // the first child and the spare, no replacement
  }, 60_000);

  it('a listening server’s first child loads it once the pool is idle (warmUp), not ahead of a file sent at once; the spare does not', async () => {
    const pool = new DecodePool({
      concurrency: 2,
      timeLimitMs: 30_000,
      memoryLimitMb: 768,
      preloadWhenIdle: [SVG_SANITISER],
    });
    pools.push(pool);
    pool.warmUp();
    // A PNG sent straight after the start is decoded without any child being asked to load the sanitiser.
    const inputPath = path.join(dir, 'early.png');
    await sharp({ create: { width: 64, height: 48, channels: 4, background: '#08f' } })
      .png()
      .toFile(inputPath);
    fs.mkdirSync(path.join(dir, 'early'));
    const early = {
      type: 'png' as const,
      name: 'early.png',
      inputPath,
      outDir: path.join(dir, 'early'),
    };
    expect(await pool.run(DESIGN_DECODE, early, { label: 'early.png' })).toMatchObject({ width: 64, height: 48 });
    // Nor in the second after it: the pool waits 2 s after its last job (a timer is never early, so this is sure).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(pool.stats.preparations).toBe(0);
    // Then, idle, the first slot's child is asked to load it (about 100 MB of jsdom); the spare, started beside it,
    // is not: it holds no sanitiser until it takes a slot.
    await expect.poll(() => pool.stats.preparations, { timeout: 20_000, interval: 200 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(pool.stats.preparations).toBe(1);
    // A lone SVG goes to the first slot, whose child has it loaded.
    expect(await pool.run(DESIGN_DECODE, svgJob('warm'), { label: 'warm.svg' })).toMatchObject({
      width: 400,
      height: 300,
    });
    expect(pool.stats.preparations).toBe(1);
    expect(pool.stats.spawned).toBe(2);
  }, 60_000);

  it('the child that takes the first slot after a kill loads it once idle', async () => {
    const pool = new DecodePool({
      concurrency: 1,
      timeLimitMs: 30_000,
      memoryLimitMb: 768,
      preloadWhenIdle: [SVG_SANITISER],
    });
    pools.push(pool);
    pool.warmUp();
    await expect.poll(() => pool.stats.preparations, { timeout: 20_000, interval: 200 }).toBe(1);
    // A file abandoned mid-decode kills its child: the spare takes the slot and is asked to load it in turn.
    const controller = new AbortController();
    const job = pool.run(DESIGN_DECODE, svgJob('abandoned'), { label: 'abandoned.svg', signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(job).rejects.toThrow('gone');
    await expect.poll(() => pool.stats.preparations, { timeout: 20_000, interval: 200 }).toBe(2);
    expect(await pool.run(DESIGN_DECODE, svgJob('after'), { label: 'after.svg' })).toMatchObject({
      width: 400,
      height: 300,
    });
    expect(pool.stats.preparations).toBe(2);
  }, 60_000);
});
