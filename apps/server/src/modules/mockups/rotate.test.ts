import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { rotateRgba, turnedSize, turnSource } from './rotate';

const CLEAR = { r: 0, g: 0, b: 0, alpha: 0 };

/** A 301x207 design: a colour ramp with a soft-edged translucent band and transparent margins. */
function design() {
  const width = 301;
  const height = 207;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const inside = x >= 20 && x < 280 && y >= 15 && y < 190;
      data[i] = Math.round((x / width) * 255);
      data[i + 1] = Math.round((y / height) * 255);
      data[i + 2] = 120;
      data[i + 3] = !inside ? 0 : y < 60 ? Math.round(((y - 15) / 45) * 255) : 255;
    }
  }
  return { data, width, height };
}

describe('rotateRgba', () => {
  it('turns as libvips does: the same canvas, within a fraction of a level on average', async () => {
    const src = design();
    for (const degrees of [15, -33, 137, 200, 271]) {
      const ours = rotateRgba(src, degrees);
      const theirs = await sharp(src.data, { raw: { width: src.width, height: src.height, channels: 4 } })
        .rotate(degrees, { background: CLEAR })
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect([ours.width, ours.height]).toEqual([theirs.info.width, theirs.info.height]);
      expect([ours.width, ours.height]).toEqual(Object.values(turnedSize(src.width, src.height, degrees)));
      // Compared where libvips' pixel is opaque (its edges are sampled without alpha weighting: darker).
      let sum = 0;
      let count = 0;
      for (let i = 0; i < ours.data.length; i += 4) {
        if (theirs.data[i + 3] !== 255) continue;
        for (let c = 0; c < 4; c++) sum += Math.abs((ours.data[i + c] as number) - (theirs.data[i + c] as number));
        count += 4;
      }
      expect(count).toBeGreaterThan(src.width * src.height);
      expect(sum / count).toBeLessThan(1);
    }
  });

  it('adds no dark fringe where the design meets transparency, and fades in the same pass', () => {
    const width = 40;
    const height = 30;
    const data = Buffer.alloc(width * height * 4);
    for (let i = 0; i < data.length; i += 4) data.set([200, 40, 10, 255], i);
    const turned = rotateRgba({ data, width, height }, 20);
    const faded = rotateRgba({ data, width, height }, 20, 0.5);
    let edges = 0;
    for (let i = 0; i < turned.data.length; i += 4) {
      const a = turned.data[i + 3] as number;
      if (a === 0) continue;
      if (a < 255) edges++;
      // Every drawn pixel keeps the design's colour, however little of it covers the pixel.
      expect(Math.abs((turned.data[i] as number) - 200)).toBeLessThanOrEqual(1);
      expect(Math.abs((turned.data[i + 1] as number) - 40)).toBeLessThanOrEqual(1);
      expect(Math.abs((faded.data[i + 3] as number) - a / 2)).toBeLessThanOrEqual(1);
    }
    expect(edges).toBeGreaterThan(50);
    // The corners of the grown canvas stay transparent.
    expect([...turned.data.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
  });

  it('reads pixels from a Buffer at any offset', () => {
    const src = design();
    const shifted = Buffer.alloc(src.data.length + 1);
    src.data.copy(shifted, 1);
    const a = rotateRgba(src, 15);
    const b = rotateRgba({ ...src, data: shifted.subarray(1) }, 15);
    expect(b.data.equals(a.data)).toBe(true);
  });

  it('makes a window of the turn from only the part of the image it samples, pixel for pixel the whole turn', () => {
    const src = design();
    const crop = (
      image: { data: Buffer; width: number },
      r: { x: number; y: number; width: number; height: number },
    ) => {
      const out = Buffer.alloc(r.width * r.height * 4);
      for (let y = 0; y < r.height; y++) {
        const from = ((r.y + y) * image.width + r.x) * 4;
        image.data.copy(out, y * r.width * 4, from, from + r.width * 4);
      }
      return out;
    };
    for (const degrees of [15, -33, 137]) {
      const whole = rotateRgba(src, degrees, 0.7);
      const canvas = turnedSize(src.width, src.height, degrees);
      // Inside the canvas, and one window reaching past an edge of the design.
      for (const window of [
        { x: 40, y: 30, width: 150, height: 90 },
        { x: canvas.width - 120, y: 5, width: 120, height: 140 },
      ]) {
        const part = turnSource(src, degrees, window);
        if (!part) throw new Error('the window samples the design');
        expect(part.width * part.height).toBeLessThan(src.width * src.height);
        const turned = rotateRgba({ data: crop(src, part), width: part.width, height: part.height }, degrees, 0.7, {
          full: src,
          offset: part,
          window,
        });
        expect([turned.width, turned.height]).toEqual([window.width, window.height]);
        const expected = crop(whole, window);
        let worst = 0;
        for (let i = 0; i < expected.length; i++) {
          worst = Math.max(worst, Math.abs((turned.data[i] as number) - (expected[i] as number)));
        }
        expect(worst).toBeLessThanOrEqual(1);
      }
    }
    // A window the design does not reach samples nothing.
    expect(turnSource(src, 15, { x: 0, y: 0, width: 3, height: 3 })).toBeNull();
  });
});
