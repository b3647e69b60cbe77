import { describe, expect, it } from 'vitest';
import { blendOver, clipLayer, type DesignLayer } from './mockup-render';

/** A solid red layer, fully opaque, of w x h pixels at (left, top). */
const redLayer = (w: number, h: number, left: number, top: number): DesignLayer => {
  const data = Buffer.alloc(w * h * 4);
  for (let i = 0; i < w * h; i++) data.writeUInt32LE(0xff0000ff, i * 4);
  return { data, width: w, height: h, left, top };
};
const placement = (clip: { x: number; y: number; width: number; height: number }) =>
  ({ clip, opacity: 1 }) as unknown as Parameters<typeof clipLayer>[1];

describe('a layer cut to its clip', () => {
  it('keeps its pixels (no copy) and is drawn only inside the clip', () => {
    const layer = redLayer(6, 6, 2, 2);
    const clipped = clipLayer(layer, placement({ x: 4, y: 3, width: 10, height: 3 }));
    if (!clipped) throw new Error('nothing inside');
    expect(clipped.data).toBe(layer.data);
    expect(clipped.clip).toEqual({ x: 4, y: 3, width: 4, height: 3 });
    const base = { data: Buffer.alloc(10 * 10 * 3, 255), width: 10, height: 10 };
    const out = blendOver(base, clipped);
    const red = (x: number, y: number) => out[(y * 10 + x) * 3 + 1] === 0;
    const drawn: string[] = [];
    for (let y = 0; y < 10; y++) for (let x = 0; x < 10; x++) if (red(x, y)) drawn.push(`${x},${y}`);
    // x 4..7 (the layer ends at 8), y 3..5 (the clip ends at 6).
    expect(drawn).toEqual(['4,3', '5,3', '6,3', '7,3', '4,4', '5,4', '6,4', '7,4', '4,5', '5,5', '6,5', '7,5']);
  });

  it('has no clip when the whole layer is inside, and is null when none of it is', () => {
    expect(clipLayer(redLayer(2, 2, 1, 1), placement({ x: 0, y: 0, width: 5, height: 5 }))?.clip).toBeUndefined();
    expect(clipLayer(redLayer(2, 2, 8, 8), placement({ x: 0, y: 0, width: 5, height: 5 }))).toBeNull();
  });
});
