import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computePlacement, DESIGN_AREAS, type MockupAdjustments, printWindow } from '@podforge/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pixelBox } from '../../../test/support/pixel-box';
import { renderDesignRaw } from '../mockups/mockup-render';
import { FOLD_SCALE, renderPrintFile } from './print-file-render';

/**
 * The print file drawn in one pipeline (unturned), turned by rotateRgba from the part it prints, or placed then
 * cropped (a quarter turn): the print area's pixel size, the design where the geometry puts it, the placement's
 * opacity in the alpha channel, transparent elsewhere, for designs with and without alpha.
 */

const PRINT = { widthPx: 600, heightPx: 800 };
let dir: string;
let rgba: string;
let rgb: string;
let ramp: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'print-file-render-'));
  rgba = path.join(dir, 'rgba.png');
  rgb = path.join(dir, 'rgb.png');
  await sharp({ create: { width: 300, height: 400, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } })
    .png()
    .toFile(rgba);
  await sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .png()
    .toFile(rgb);
  // Ramps and a wrapped product (cliffs) with a translucent band: a pixel drawn from the wrong place shows.
  ramp = path.join(dir, 'ramp.png');
  const pixels = Buffer.alloc(300 * 400 * 4);
  for (let y = 0; y < 400; y++) {
    for (let x = 0; x < 300; x++) {
      pixels.set([x % 256, y % 256, (x * y) % 256, y < 100 ? 80 + y : 255], (y * 300 + x) * 4);
    }
  }
  await sharp(pixels, { raw: { width: 300, height: 400, channels: 4 } })
    .png()
    .toFile(ramp);
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function draw(design: string, adjustments: MockupAdjustments) {
  const out = path.join(dir, `out-${Math.random().toString(36).slice(2)}.png`);
  const size = await renderPrintFile('tshirt', design, { width: 300, height: 400 }, adjustments, out, PRINT);
  const meta = await sharp(out).metadata();
  const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
  expect(info.channels).toBe(4);
  // The bounding box of the visible pixels, and the alpha at its centre.
  const { x, y, right, bottom } = pixelBox(data, info.width, info.height, (_r, _g, _b, a) => a > 0);
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4)];
  return { size, meta, box: { x, y, right, bottom }, at };
}

const expected = (adjustments: MockupAdjustments) => {
  const area = DESIGN_AREAS.tshirt;
  const window = printWindow(area, PRINT);
  return computePlacement({
    area,
    design: { width: 300, height: 400 },
    adjustments,
    factor: PRINT.widthPx / window.width,
    origin: { x: window.x, y: window.y },
  });
};

describe('renderPrintFile', () => {
  it('draws an unrotated design at the print size, where the geometry puts it, transparent around it', async () => {
    const adj = { scale: 50, rotation: 0, x: 10, y: -5, opacity: 100 };
    const { size, meta, box, at } = await draw(rgba, adj);
    expect(size).toEqual({ width: 600, height: 800 });
    expect([meta.width, meta.height, meta.format]).toEqual([600, 800, 'png']);
    const p = expected(adj);
    expect(box.x).toBeCloseTo(p.centerX - p.width / 2, -0.5);
    expect(box.y).toBeCloseTo(p.centerY - p.height / 2, -0.5);
    expect(box.right - box.x).toBeCloseTo(p.width, -0.5);
    expect(at(Math.round(p.centerX), Math.round(p.centerY))).toEqual([255, 0, 0, 255]);
    expect(at(0, 0)).toEqual([0, 0, 0, 0]);
  });

  it("gives the design the placement's opacity and keeps the margins transparent", async () => {
    const adj = { scale: 50, rotation: 0, x: 0, y: 0, opacity: 60 };
    const { at } = await draw(rgba, adj);
    const p = expected(adj);
    const [r, g, b, a] = at(Math.round(p.centerX), Math.round(p.centerY));
    expect([r, g, b]).toEqual([255, 0, 0]);
    expect(a).toBeGreaterThanOrEqual(152);
    expect(a).toBeLessThanOrEqual(154);
    expect(at(0, 0)).toEqual([0, 0, 0, 0]);
  });

  it('fades a design without alpha that covers the whole print file', async () => {
    const adj = { scale: 200, rotation: 0, x: 0, y: 0, opacity: 60 };
    const { box, at } = await draw(rgb, adj);
    expect(box).toEqual({ x: 0, y: 0, right: 600, bottom: 800 });
    for (const [x, y] of [
      [0, 0],
      [300, 400],
      [599, 799],
    ] as const) {
      const [r, g, b, a] = at(x, y);
      expect([r, g, b]).toEqual([0, 0, 255]);
      expect(a).toBeGreaterThanOrEqual(152);
      expect(a).toBeLessThanOrEqual(154);
    }
  });

  it('draws a rotated, faded design within its rotated bounds', async () => {
    const adj = { scale: 50, rotation: 15, x: 0, y: 0, opacity: 85 };
    const { box, at } = await draw(rgb, adj);
    const p = expected(adj);
    expect(box.x).toBeCloseTo(p.bounds.x, -1);
    expect(box.right).toBeCloseTo(p.bounds.x + p.bounds.width, -1);
    expect(box.y).toBeCloseTo(p.bounds.y, -1);
    const [r, g, b, a] = at(Math.round(p.centerX), Math.round(p.centerY));
    expect([r, g, b]).toEqual([0, 0, 255]);
    expect(a).toBeGreaterThanOrEqual(215);
    expect(a).toBeLessThanOrEqual(218);
    expect(at(0, 0)).toEqual([0, 0, 0, 0]);
  });

  it('turns a design without alpha a quarter turn and fades it', async () => {
    const adj = { scale: 50, rotation: 90, x: 0, y: 0, opacity: 85 };
    const { meta, at } = await draw(rgb, adj);
    expect([meta.width, meta.height]).toEqual([600, 800]);
    const p = expected(adj);
    const [r, g, b, a] = at(Math.round(p.centerX), Math.round(p.centerY));
    expect([r, g, b]).toEqual([0, 0, 255]);
    expect(a).toBeGreaterThanOrEqual(215);
    expect(a).toBeLessThanOrEqual(218);
    expect(at(0, 0)).toEqual([0, 0, 0, 0]);
  });

  it('answers a transparent print file of the right size when the design is moved off it, or partly off', async () => {
    const off = await draw(rgba, { scale: 10, rotation: 0, x: 100, y: 0, opacity: 100 });
    expect([off.meta.width, off.meta.height]).toEqual([600, 800]);
    expect(off.box.right).toBe(0);
    const partly = await draw(rgba, { scale: 10, rotation: 30, x: 100, y: 0, opacity: 100 });
    expect([partly.meta.width, partly.meta.height]).toEqual([600, 800]);
    expect(partly.box.right).toBe(600);
    expect(partly.box.x).toBeGreaterThan(580);
  });

  it('turns a design larger than the print file from only the part it prints: the pixels of the whole turn', async () => {
    const adj = { scale: 200, rotation: 20, x: 15, y: -10, opacity: 80 };
    const out = path.join(dir, 'large-turn.png');
    await renderPrintFile('tshirt', ramp, { width: 300, height: 400 }, adj, out, PRINT);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([600, 800, 4]);
    // The whole design resized and turned (its turned canvas is larger than the print file), then cut to it.
    const whole = await renderDesignRaw(ramp, expected(adj));
    expect(whole.width * whole.height).toBeGreaterThan(600 * 800);
    let worst = 0;
    let off = 0;
    for (let y = 0; y < 800; y++) {
      for (let x = 0; x < 600; x++) {
        const wx = x - whole.left;
        const wy = y - whole.top;
        const inside = wx >= 0 && wy >= 0 && wx < whole.width && wy < whole.height;
        for (let c = 0; c < 4; c++) {
          const want = inside ? (whole.data[(wy * whole.width + wx) * 4 + c] as number) : 0;
          const d = Math.abs((data[(y * 600 + x) * 4 + c] as number) - want);
          if (d > 1) off += 1;
          worst = Math.max(worst, d);
        }
      }
    }
    // The blue channel's wrapped product is a cliff every few pixels: there a sub-pixel rounding moves a value by 2.
    // A part taken from the wrong place would differ by tens of levels across the file.
    expect(worst).toBeLessThanOrEqual(2);
    expect(off).toBeLessThan(100);
  });

  it('turns a design near its placed size with the resize folded in: the same picture as resizing, then turning', async () => {
    // Artwork as sellers upload it: gradients with a light grain inside a disc and a translucent band, transparent
    // around them, 1.2 times its placed size (so the resize is folded into the turn, FOLD_SCALE).
    const adj = { scale: 90, rotation: 15, x: 10, y: -5, opacity: 85 };
    const first = expected(adj);
    const design = { width: Math.round(first.width * 1.2), height: Math.round(first.height * 1.2) };
    const scale = design.width / Math.round(first.width);
    expect(scale).toBeGreaterThanOrEqual(FOLD_SCALE.min);
    expect(scale).toBeLessThanOrEqual(FOLD_SCALE.max);
    const pixels = Buffer.alloc(design.width * design.height * 4);
    let seed = 99;
    const r = Math.min(design.width, design.height) * 0.45;
    for (let y = 0; y < design.height; y++) {
      for (let x = 0; x < design.width; x++) {
        const dx = x - design.width / 2;
        const dy = y - design.height / 2;
        const band = Math.abs(dy - r * 0.6) < r * 0.15;
        if (dx * dx + dy * dy >= r * r && !band) continue;
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const grain = (seed % 3) - 1;
        const i = (y * design.width + x) * 4;
        pixels[i] = 40 + Math.round((180 * x) / design.width) + grain;
        pixels[i + 1] = 200 - Math.round((150 * y) / design.height) + grain;
        pixels[i + 2] = 90 + Math.round(60 * Math.sin(x / 30) * Math.cos(y / 40)) + grain;
        pixels[i + 3] = band ? 140 : 255;
      }
    }
    const file = path.join(dir, 'artwork.png');
    await sharp(pixels, { raw: { width: design.width, height: design.height, channels: 4 } })
      .png()
      .toFile(file);
    const out = path.join(dir, 'folded.png');
    await renderPrintFile('tshirt', file, design, adj, out, PRINT);
    const { data, info } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([600, 800, 4]);

    // What the print file drew before: the design resized by libvips (lanczos3) to its placed size, then turned and
    // faded (renderDesignRaw), on a transparent file.
    const area = DESIGN_AREAS.tshirt;
    const window = printWindow(area, PRINT);
    const placement = computePlacement({
      area,
      design,
      adjustments: adj,
      factor: PRINT.widthPx / window.width,
      origin: { x: window.x, y: window.y },
    });
    const whole = await renderDesignRaw(file, placement);
    const want = Buffer.alloc(600 * 800 * 4);
    for (let y = 0; y < 800; y++) {
      for (let x = 0; x < 600; x++) {
        const wx = x - whole.left;
        const wy = y - whole.top;
        if (wx < 0 || wy < 0 || wx >= whole.width || wy >= whole.height) continue;
        whole.data.copy(want, (y * 600 + x) * 4, (wy * whole.width + wx) * 4, (wy * whole.width + wx) * 4 + 4);
      }
    }
    let sum = 0;
    for (let i = 0; i < data.length; i++) sum += Math.abs((data[i] as number) - (want[i] as number));
    expect(sum / data.length).toBeLessThan(2);
    // The same bounds of what shows (lanczos3's faint ringing past the edges, alpha of a few levels, aside).
    const visible = (_r: number, _g: number, _b: number, a: number) => a >= 8;
    expect(pixelBox(data, 600, 800, visible)).toEqual(pixelBox(want, 600, 800, visible));
  });
});
