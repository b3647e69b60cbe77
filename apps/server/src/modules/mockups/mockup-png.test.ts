import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BAND_ROWS, type BandCache, encodeMockupPng } from './mockup-png';

const width = 37;
const height = BAND_ROWS * 3 + 5; // a partial last band

function noise(seed: number): Buffer {
  const out = Buffer.alloc(width * height * 3);
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    // Runs of equal bytes too, so the deflate streams hold matches as well as literals.
    out[i] = i % 7 < 3 ? 200 : x >>> 24;
  }
  return out;
}

async function decode(png: Buffer) {
  return sharp(png, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
}

describe('encodeMockupPng', () => {
  const template = noise(1);

  it('writes the template alone, and again from its cached bands', async () => {
    const cache: BandCache = new Map();
    for (let i = 0; i < 2; i++) {
      const { data, info } = await decode(await encodeMockupPng(template, template, width, height, null, cache));
      expect([info.width, info.height, info.channels]).toEqual([width, height, 3]);
      expect(data.equals(template)).toBe(true);
    }
    expect(cache.size).toBe(Math.ceil(height / BAND_ROWS));
  });

  it.each([
    [0, height],
    [0, 1],
    [BAND_ROWS - 1, BAND_ROWS + 1],
    [BAND_ROWS, BAND_ROWS * 2],
    [40, 70],
    [height - 1, height],
  ])('re-deflates only the changed rows %i to %i, every pixel as given', async (top, bottom) => {
    const cache: BandCache = new Map();
    // The cache first filled by a mockup elsewhere, so changed bands must not come from it.
    await encodeMockupPng(template, template, width, height, null, cache);
    const other = noise(2);
    const pixels = Buffer.from(template);
    other.copy(pixels, top * width * 3, top * width * 3, bottom * width * 3);
    const png = await encodeMockupPng(pixels, template, width, height, { top, bottom }, cache);
    const { data } = await decode(png);
    expect(data.equals(pixels)).toBe(true);
  });
});
