import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodePool } from '../../decode/decode-pool';
import { PRINT_FILE } from './print-file-job';
import { drawPrintFile } from './print-files.service';

/**
 * Print files drawn as the app draws them, in the decode pool with its default memory limit: the largest print file
 * of the catalogue, a 24x36 in poster at 300 DPI (7200x10800), with the design turned, one after another in the same
 * decoder.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-print-pool-'));
const design = path.join(dir, 'design.png');
let pool: DecodePool;

beforeAll(async () => {
  const width = 1500;
  const height = 1800;
  const pixels = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      pixels.set([x % 256, y % 256, 90, x < 100 ? 0 : 255], (y * width + x) * 4);
    }
  }
  await sharp(pixels, { raw: { width, height, channels: 4 } })
    .png()
    .toFile(design);
  pool = new DecodePool({ concurrency: 1, timeLimitMs: 60_000, memoryLimitMb: 768 });
});
afterAll(async () => {
  await pool.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('print files in the decode pool', () => {
  it('draws a turned poster print file twice in a row within the memory limit', async () => {
    for (const rotation of [15, -20]) {
      const outPath = path.join(dir, `poster-${rotation}.png`);
      const size = await pool.run(
        PRINT_FILE,
        {
          name: 'design.png',
          inputPath: design,
          outPath,
          productType: 'poster',
          designSize: { width: 1500, height: 1800 },
          adjustments: { scale: 100, rotation, x: 0, y: 0, opacity: 100 },
        },
        { label: 'design.png' },
      );
      expect(size).toEqual({ width: 7200, height: 10800 });
      const meta = await sharp(outPath).metadata();
      expect([meta.width, meta.height, meta.channels]).toEqual([7200, 10800, 4]);
    }
    expect(pool.stats.refusedAtLimit).toBe(0);
  }, 120_000);

  it("is not held to the upload's time limit: a stored design's print file has its own", async () => {
    // A pool whose limit no print file meets (as a loaded machine's 7 s was for a turned poster).
    const strict = new DecodePool({ concurrency: 1, timeLimitMs: 50, memoryLimitMb: 768 });
    try {
      const deps = {
        config: { dataDir: dir, decode: { timeLimitMs: 50 } },
        storage: { localPath: async () => design },
        decodePool: strict,
      } as unknown as Parameters<typeof drawPrintFile>[0];
      const row = { name: 'design.png', printKey: 'design', width: 1500, height: 1800 };
      const out = await drawPrintFile(deps, row as Parameters<typeof drawPrintFile>[1], 'tshirt', {
        scale: 100,
        rotation: 15,
        x: 0,
        y: 0,
        opacity: 100,
      });
      expect([out.width, out.height]).toEqual([1800, 2400]);
      expect(strict.stats.refusedAtLimit).toBe(0);
    } finally {
      await strict.close();
    }
  }, 60_000);
});
