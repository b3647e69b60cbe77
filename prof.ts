import { computePlacement, DESIGN_AREAS } from '@podforge/contract';
import sharp from 'sharp';
import { prepareDesignLayer } from './apps/server/src/modules/mockups/mockup-render';

const design = await sharp({ create: { width: 1800, height: 1800, channels: 4, background: '#3366cc' } })
  .png()
  .toBuffer();
const area = DESIGN_AREAS.tshirt;
const pl = computePlacement({
  area,
  design: { width: 1800, height: 1800 },
  adjustments: { scale: 90, rotation: 15, x: 10, y: -5, opacity: 85 },
  factor: 4500 / 200,
  origin: { x: 150, y: 120 },
});
pl.clip = { x: 0, y: 0, width: 4500, height: 5400 };
for (let i = 0; i < 3; i++) {
  let t0 = performance.now();
  const layer = (await prepareDesignLayer(design, pl))!;
  const a = performance.now() - t0;
  t0 = performance.now();
  const inp = {
    input: layer.data,
    raw: { width: layer.width, height: layer.height, channels: 4 as const },
    left: layer.left,
    top: layer.top,
  };
  await sharp({ create: { width: 4500, height: 5400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([inp])
    .png({ compressionLevel: 2, adaptiveFiltering: false })
    .toBuffer();
  const b = performance.now() - t0;
  t0 = performance.now();
  await sharp(layer.data, { raw: inp.raw })
    .extend({
      left: layer.left,
      top: layer.top,
      right: 4500 - layer.left - layer.width,
      bottom: 5400 - layer.top - layer.height,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png({ compressionLevel: 2, adaptiveFiltering: false })
    .toBuffer();
  const c = performance.now() - t0;
  t0 = performance.now();
  await sharp(layer.data, { raw: inp.raw })
    .extend({
      left: layer.left,
      top: layer.top,
      right: 4500 - layer.left - layer.width,
      bottom: 5400 - layer.top - layer.height,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    })
    .png({ compressionLevel: 1, adaptiveFiltering: false })
    .toBuffer();
  const d = performance.now() - t0;
  console.log({
    layer: a.toFixed(0),
    createComposite: b.toFixed(0),
    extend: c.toFixed(0),
    extendL1: d.toFixed(0),
    w: layer.width,
    h: layer.height,
  });
}
