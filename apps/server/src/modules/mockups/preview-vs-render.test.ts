import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { computePlacement, DESIGN_AREAS, drawPlacement, MOCKUP_CANVAS } from '@podforge/contract';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { composeMockup, findTemplate, mockupPlacement, prepareDesignLayer, TemplateStore } from './mockup-render';
import { scratch } from './scratch-buffers';

// A design with detail and transparency, so misplacement, rotation or opacity errors show in the difference.
const DESIGN_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400">
  <rect x="0" y="0" width="600" height="400" fill="#1e6fd9"/>
  <circle cx="150" cy="200" r="120" fill="#f2c12e"/>
  <rect x="320" y="60" width="220" height="120" fill="#d7263d"/>
  <path d="M320 340 L560 220 L560 380 Z" fill="#111"/>
  <rect x="40" y="20" width="40" height="360" fill="#fff" fill-opacity="0"/>
</svg>`;

describe('preview and server render agree', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-tpl-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('draws the same placement on a canvas and with sharp (mean difference under 2%)', async () => {
    const store = new TemplateStore(dir);
    const template = findTemplate('tshirt', 'tshirt-front');
    if (!template) throw new Error('no template');
    const design = await sharp(Buffer.from(DESIGN_SVG)).png().toBuffer();
    const adjustments = { scale: 80, rotation: 30, x: 20, y: -10, opacity: 80 };

    // Server: full-resolution render, brought down to the 400x500 canvas size.
    const base = await store.raw('tshirt', template, 'heather-grey');
    const layer = await prepareDesignLayer(design, mockupPlacement('tshirt', { width: 600, height: 400 }, adjustments));
    const rendered = await composeMockup(base, layer);
    const server = await sharp(rendered.png)
      .resize(MOCKUP_CANVAS.width, MOCKUP_CANVAS.height)
      .removeAlpha()
      .raw()
      .toBuffer();

    // Browser path: the editor's drawing code on a 2D canvas with the template's preview image.
    const canvas = createCanvas(MOCKUP_CANVAS.width, MOCKUP_CANVAS.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(
      await loadImage(await store.png('tshirt', template, 'heather-grey', 'preview')),
      0,
      0,
      MOCKUP_CANVAS.width,
      MOCKUP_CANVAS.height,
    );
    const placement = computePlacement({
      area: DESIGN_AREAS.tshirt,
      design: { width: 600, height: 400 },
      adjustments,
    });
    drawPlacement(ctx, await loadImage(design), placement);
    const rgba = ctx.getImageData(0, 0, MOCKUP_CANVAS.width, MOCKUP_CANVAS.height).data;

    let total = 0;
    let designPixelsDiffer = 0;
    for (let i = 0, j = 0; i < rgba.length; i += 4, j += 3) {
      for (let ch = 0; ch < 3; ch++) total += Math.abs((rgba[i + ch] ?? 0) - (server[j + ch] ?? 0));
      if (Math.abs((rgba[i] ?? 0) - (server[j] ?? 0)) > 60) designPixelsDiffer += 1;
    }
    const meanDifference = total / (MOCKUP_CANVAS.width * MOCKUP_CANVAS.height * 3) / 255;
    console.info(
      `preview vs render: mean difference ${(meanDifference * 100).toFixed(2)}%, ${designPixelsDiffer} pixels differ`,
    );
    expect(meanDifference).toBeLessThan(0.02);
    // Edge pixels may differ by antialiasing; a misplaced design would differ over thousands.
    expect(designPixelsDiffer).toBeLessThan(600);

    // And the comparison is not vacuous: a different offset is measurably different.
    const moved = createCanvas(MOCKUP_CANVAS.width, MOCKUP_CANVAS.height).getContext('2d');
    moved.drawImage(await loadImage(await store.png('tshirt', template, 'heather-grey', 'preview')), 0, 0, 400, 500);
    drawPlacement(moved, await loadImage(design), { ...placement, centerX: placement.centerX + 40 });
    const movedRgba = moved.getImageData(0, 0, 400, 500).data;
    let movedTotal = 0;
    for (let i = 0, j = 0; i < movedRgba.length; i += 4, j += 3) {
      for (let ch = 0; ch < 3; ch++) movedTotal += Math.abs((movedRgba[i + ch] ?? 0) - (server[j + ch] ?? 0));
    }
    expect(movedTotal / (400 * 500 * 3) / 255).toBeGreaterThan(meanDifference * 3);
  });

  it('renders the same PNG and preview from pooled buffers, whatever they held, two renders at once', async () => {
    const store = new TemplateStore(dir);
    const template = findTemplate('tshirt', 'tshirt-front');
    if (!template) throw new Error('no template');
    const base = await store.raw('tshirt', template, 'white');
    const design = await sharp(Buffer.from(DESIGN_SVG)).png().toBuffer();
    const layerAt = (rotation: number) =>
      prepareDesignLayer(
        design,
        mockupPlacement('tshirt', { width: 600, height: 400 }, { scale: 80, rotation, x: 5, y: 5, opacity: 70 }),
      );
    const [a, b] = await Promise.all([layerAt(20), layerAt(-35)]);
    const alone = [await composeMockup(base, a), await composeMockup(base, b)];
    // The pool's buffers scribbled over, then both renders at once: each must have a buffer of its own.
    const dirty = [scratch.take(base.data.length), scratch.take(base.small?.data.length ?? 1)];
    for (const buffer of dirty) {
      buffer.fill(0xab);
      scratch.give(buffer);
    }
    const together = await Promise.all([composeMockup(base, a), composeMockup(base, b)]);
    for (const [i, render] of together.entries()) {
      expect(render.png.equals(alone[i]?.png ?? Buffer.alloc(0))).toBe(true);
      expect(render.preview.equals(alone[i]?.preview ?? Buffer.alloc(0))).toBe(true);
    }
    expect(together[0]?.preview.equals(together[1]?.preview ?? Buffer.alloc(0))).toBe(false);
  });
});
