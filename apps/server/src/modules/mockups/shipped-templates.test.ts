import fs from 'node:fs';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { TEMPLATE_SETS } from '../../lib/mockup-templates';
import { drawTemplate, shippedTemplateFile } from './mockup-render';

describe('shipped template files', () => {
  it('exist for every template and colour of the current drawing version (a changed drawing is drawn again)', () => {
    const missing = Object.values(TEMPLATE_SETS).flatMap((set) =>
      set.templates.flatMap((t) =>
        set.colors.map((c) => shippedTemplateFile(set.productType, t.id, c.id)).filter((file) => !fs.existsSync(file)),
      ),
    );
    // `npm run templates:draw -w @podforge/server` writes them.
    expect(missing).toEqual([]);
  });

  it('are the drawing: within half a level on average, a few levels at most', async () => {
    const set = TEMPLATE_SETS.mug;
    const template = set.templates[0];
    const color = set.colors[0];
    if (!template || !color) throw new Error('no mug template');
    const decode = (image: Sharp) => image.removeAlpha().toColourspace('srgb').raw().toBuffer();
    const [drawn, shipped] = await Promise.all([
      decode(drawTemplate(template, color)),
      decode(sharp(shippedTemplateFile('mug', template.id, color.id))),
    ]);
    expect(shipped.length).toBe(drawn.length);
    let sum = 0;
    for (let i = 0; i < drawn.length; i++) sum += Math.abs((drawn[i] ?? 0) - (shipped[i] ?? 0));
    expect(sum / drawn.length).toBeLessThan(0.75);
  }, 180_000);
});
