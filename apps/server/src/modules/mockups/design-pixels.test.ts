import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeDesignPixels, mockupPlacement, renderDesignRaw, resizeDesignPixels } from './mockup-render';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-layer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A 600x400 design with a gradient and a transparent corner (RGBA), or the same in grey without alpha. */
async function designFile(name: string, grey = false): Promise<string> {
  const width = 600;
  const height = 400;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = (x * 255) / width;
      data[i + 1] = (y * 255) / height;
      data[i + 2] = 128;
      data[i + 3] = x < 100 && y < 100 ? 0 : 255;
    }
  }
  const file = path.join(dir, name);
  const image = sharp(data, { raw: { width, height, channels: 4 } });
  await (grey ? image.removeAlpha().greyscale() : image).png().toFile(file);
  return file;
}

const placed = (rotation: number) =>
  mockupPlacement('tshirt', { width: 600, height: 400 }, { scale: 80, rotation, x: 5, y: -10, opacity: 70 });

describe('a design placed from its decoded pixels', () => {
  it('places a design from its decoded pixels exactly as from its file', async () => {
    const file = await designFile('colour.png');
    const fromFile = await renderDesignRaw(file, placed(15), { fade: false });
    const fromPixels = await renderDesignRaw(await decodeDesignPixels(file), placed(15), { fade: false });
    expect({ ...fromPixels, data: null }).toEqual({ ...fromFile, data: null });
    expect(Buffer.compare(fromPixels.data, fromFile.data)).toBe(0);
  });

  it('turns pixels already resized to the placed size (a new turn of a kept size) exactly as it places them whole', async () => {
    const pixels = await decodeDesignPixels(await designFile('kept.png'));
    const placement = placed(33);
    const whole = await renderDesignRaw(pixels, placement);
    const sized = await resizeDesignPixels(pixels, Math.round(placement.width), Math.round(placement.height));
    const turned = await renderDesignRaw(sized, placement);
    expect({ ...turned, data: null }).toEqual({ ...whole, data: null });
    expect(Buffer.compare(turned.data, whole.data)).toBe(0);
  });

  it('decodes a greyscale design without alpha to 8-bit RGBA', async () => {
    const pixels = await decodeDesignPixels(await designFile('grey.png', true));
    expect(pixels.data.length).toBe(600 * 400 * 4);
    const at = (x: number, y: number) => [...pixels.data.subarray((y * 600 + x) * 4, (y * 600 + x) * 4 + 4)];
    const [r, g, b, a] = at(300, 200);
    expect([g, b, a]).toEqual([r, r, 255]);
  });
});
