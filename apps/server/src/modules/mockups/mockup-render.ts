import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  computePlacement,
  DESIGN_AREAS,
  intersectRects,
  type MockupAdjustments,
  type Placement,
  type TMockupColor,
  type TMockupProductType,
} from '@podforge/contract';
import sharp, { type Sharp } from 'sharp';
import { DiskRenderCache } from '../../lib/disk-render-cache';
import {
  TEMPLATE_DRAWING_VERSION,
  TEMPLATE_HEIGHT,
  TEMPLATE_SETS,
  TEMPLATE_WIDTH,
  type TemplateDef,
} from '../../lib/mockup-templates';
import { SERVER_ROOT } from '../../lib/paths';
import { rotateRgba } from './rotate';
import { scratch } from './scratch-buffers';

// sharp runs one thread per operation here unless told otherwise (design.md pitfalls).
sharp.concurrency(os.availableParallelism());

export const PREVIEW_TEMPLATE_WIDTH = 800;
export const MOCKUP_PREVIEW_WIDTH = 512;
/**
 * The full mockup's PNG: zlib level 1 without row filters, lossless. A 2000x2500 mockup encodes in about 24 ms at 2.0 MB,
 * where level 2 took 38 ms for 1.55 MB and level 6 71 ms for 1.0 MB: the encode is most of a render after the
 * design is placed, and stores re-encode the pictures they show (Shopify's CDN and Etsy serve their own sizes).
 */
const PNG_OPTIONS = { compressionLevel: 1, adaptiveFiltering: false } as const;
/**
 * The 512 px preview (lists, grids, the batch's picks) has no transparency to keep: a JPEG at quality 85 is a tenth
 * of the PNG's size (14-16 KB against 170 KB for the bench's design on a tee) and the preview is made in half the
 * time (8 ms against 14).
 */
export const PREVIEW_JPEG = { quality: 85 } as const;

export type RawImage = {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
  /** The same at MOCKUP_PREVIEW_WIDTH, so the 512 px preview is composited small instead of scaled down. */
  small?: { data: Buffer; width: number; height: number; channels: 3 };
};

/**
 * The design after resize, rotation and clipping: ready to composite at (left, top), its alpha multiplied by
 * `opacity` as it is blended (so the layer's pipeline stays in 8 bits; a fade in sharp turned it into floats).
 */
export type DesignLayer = {
  data: Buffer;
  width: number;
  height: number;
  left: number;
  top: number;
  opacity?: number;
  /**
   * The part of the base the layer may cover (the placement's clip, in the base's pixels), when that cuts it: the
   * blend stops at it, so a layer larger than its design area is not copied to cut it.
   */
  clip?: { x: number; y: number; width: number; height: number };
};

/**
 * The pre-drawn templates the repository ships (`npm run templates:draw -w @podforge/server` makes them), so a server
 * never draws one from SVG while a seller waits; a drawing version with no shipped files is drawn as before. JPEG at
 * quality 90 (about 130 KB each, a mean difference of 0.15 of a level from the drawing): a render decodes one in
 * about 20 ms, where the AVIF shipped before (35 KB) took 450 ms, which a new data folder's first batch paid for
 * each colour.
 */
export const SHIPPED_TEMPLATES_DIR = path.join(SERVER_ROOT, 'assets/mockup-templates');
export const SHIPPED_TEMPLATE_JPEG = { quality: 90 } as const;

export function shippedTemplateFile(productType: TMockupProductType, templateId: string, colorId: string): string {
  return path.join(SHIPPED_TEMPLATES_DIR, `v${TEMPLATE_DRAWING_VERSION}`, productType, `${templateId}-${colorId}.jpg`);
}

/**
 * The folder of a TemplateStore's cached PNGs: the drawing version and the shipped files' format, so PNGs made from
 * the AVIF files shipped before are not served beside renders decoded from the JPEG ones.
 */
const TEMPLATE_CACHE_FOLDER = `v${TEMPLATE_DRAWING_VERSION}-jpeg`;

/** The shipped file of a template and colour, or null when this drawing version ships none. */
function shippedTemplate(productType: TMockupProductType, templateId: string, colorId: string): string | null {
  const file = shippedTemplateFile(productType, templateId, colorId);
  return fs.existsSync(file) ? file : null;
}

/** A template drawn from its SVG at TEMPLATE_WIDTH x TEMPLATE_HEIGHT: seconds of librsvg work, done ahead of use. */
export function drawTemplate(template: TemplateDef, color: TMockupColor): Sharp {
  return sharp(Buffer.from(template.svg(color)), { density: 72 }).resize(TEMPLATE_WIDTH, TEMPLATE_HEIGHT);
}

export function findTemplate(productType: TMockupProductType, templateId: string): TemplateDef | undefined {
  return TEMPLATE_SETS[productType].templates.find((t) => t.id === templateId);
}

/**
 * Template pixels for renders, decoded from the shipped JPEG (or, for a drawing version that ships none, drawn once
 * from the SVG and kept as PNG under `dir`), held in a small in-memory LRU, so a render only decodes what it has not
 * seen recently. The PNGs the browser is sent (full and 800 px preview) are kept under `dir` too (survive restarts).
 */
export class TemplateStore {
  private readonly raws = new Map<string, Promise<RawImage>>();
  private readonly cache = new DiskRenderCache();

  constructor(
    private readonly dir: string,
    private readonly maxRaw = 12,
  ) {}

  /** Cached renders live under the drawing version, so a changed drawing is never served from an old render. */
  private file(productType: TMockupProductType, name: string): string {
    return path.join(this.dir, TEMPLATE_CACHE_FOLDER, productType, name);
  }

  private fullPng(productType: TMockupProductType, template: TemplateDef, colorId: string): Promise<Buffer> {
    const color = TEMPLATE_SETS[productType].colors.find((col) => col.id === colorId);
    if (!color) throw new Error(`unknown colour ${colorId}`);
    return this.cache.getOrRender(this.file(productType, `${template.id}-${colorId}.png`), () => {
      // The repository's pre-drawn file when there is one for this drawing version (a fraction of a second),
      // else the drawing itself (seconds of librsvg).
      const shipped = shippedTemplate(productType, template.id, colorId);
      const source = shipped ? sharp(shipped) : drawTemplate(template, color);
      return source.png({ compressionLevel: 6 }).toBuffer();
    });
  }

  /**
   * Makes the 800 px preview PNG (what the Mockup Preview editor shows) of every template and colour that is not
   * cached yet, one at a time, from the shipped files (or the drawing when none is shipped, which also caches the
   * full PNG renders start from). `npm run build` runs it for the machine cache, and a listening server in the
   * background; `shouldStop` is checked between renders (the server closes).
   */
  async warmUp(shouldStop: () => boolean): Promise<number> {
    let drawn = 0;
    for (const [productType, set] of Object.entries(TEMPLATE_SETS) as [
      TMockupProductType,
      (typeof TEMPLATE_SETS)[TMockupProductType],
    ][]) {
      for (const template of set.templates) {
        for (const color of set.colors) {
          if (shouldStop()) return drawn;
          const preview = this.file(productType, `${template.id}-${color.id}.preview.png`);
          if (await this.cache.has(preview)) continue;
          await this.png(productType, template, color.id, 'preview');
          drawn += 1;
        }
      }
    }
    return drawn;
  }

  png(
    productType: TMockupProductType,
    template: TemplateDef,
    colorId: string,
    size: 'full' | 'preview',
  ): Promise<Buffer> {
    if (size === 'full') return this.fullPng(productType, template, colorId);
    return this.cache.getOrRender(this.file(productType, `${template.id}-${colorId}.preview.png`), async () =>
      sharp(shippedTemplate(productType, template.id, colorId) ?? (await this.fullPng(productType, template, colorId)))
        .resize(PREVIEW_TEMPLATE_WIDTH)
        .png()
        .toBuffer(),
    );
  }

  /** Whether a template's colour is decoded (or being decoded) in the in-memory LRU. */
  has(productType: TMockupProductType, templateId: string, colorId: string): boolean {
    return this.raws.has(`${productType}/${templateId}/${colorId}`);
  }

  /**
   * Decodes templates into the in-memory LRU in the background, one at a time, so renders that follow find them
   * decoded: by default a set's first view (where the editor opens) in every colour, which the seller's Generate
   * Mockups renders; a batch names its own views, in the order it renders them, so their decoding overlaps the design
   * layer's placing. At most the LRU's size; failures are left to the render that needs it.
   */
  prefetch(productType: TMockupProductType, views?: { templateId: string; colorId: string }[]): void {
    const { templates, colors } = TEMPLATE_SETS[productType];
    const first = templates[0];
    const wanted = views ?? (first ? colors.map((c) => ({ templateId: first.id, colorId: c.id })) : []);
    void (async () => {
      for (const { templateId, colorId } of wanted.slice(0, this.maxRaw)) {
        const template = templates.find((t) => t.id === templateId);
        if (template && !this.has(productType, templateId, colorId))
          await this.raw(productType, template, colorId).catch(() => {});
      }
    })();
  }

  raw(productType: TMockupProductType, template: TemplateDef, colorId: string): Promise<RawImage> {
    const key = `${productType}/${template.id}/${colorId}`;
    const hit = this.raws.get(key);
    if (hit) {
      this.raws.delete(key);
      this.raws.set(key, hit);
      return hit;
    }
    const shipped = shippedTemplate(productType, template.id, colorId);
    const source = shipped ? Promise.resolve(shipped) : this.fullPng(productType, template, colorId);
    const job = source.then(async (input) => {
      // A near-grey render may be stored as a greyscale PNG: always decode it to 3-channel sRGB (the shipped JPEGs
      // are 3-channel sRGB already: a conversion pass there cost half as much again). The small copy for previews is
      // decoded beside it, from the file (a JPEG shrinks as it decodes), not scaled from the full pixels.
      const decode = (image: Sharp) =>
        (shipped ? image : image.removeAlpha().toColourspace('srgb')).raw().toBuffer({ resolveWithObject: true });
      // One after the other: a batch already renders two colours at once, and side by side the two decodes' libvips
      // threads cost half as much CPU again. Each reads the file in order (sharp's default opens it for random
      // access), which took less CPU for a JPEG (15-30% when measured, within noise on wall time).
      const full = await decode(sharp(input, { sequentialRead: true }));
      const small = await decode(sharp(input, { sequentialRead: true }).resize(MOCKUP_PREVIEW_WIDTH));
      if (full.info.channels !== 3 || small.info.channels !== 3) throw new Error('template did not decode to RGB');
      return {
        data: full.data,
        width: full.info.width,
        height: full.info.height,
        channels: 3 as const,
        small: { data: small.data, width: small.info.width, height: small.info.height, channels: 3 as const },
      };
    });
    job.catch(() => this.raws.delete(key));
    this.raws.set(key, job);
    while (this.raws.size > this.maxRaw) {
      const oldest = this.raws.keys().next().value;
      if (oldest === undefined) break;
      this.raws.delete(oldest);
    }
    return job;
  }
}

/**
 * A template's full pixels (3-channel sRGB) decoded from its shipped JPEG, or drawn from its SVG for a drawing version
 * that ships none: what a decoder needs to draw a mockup's full-size file (mockup-file-job.ts) without the server's
 * TemplateStore.
 */
export async function decodeTemplateRaw(
  productType: TMockupProductType,
  templateId: string,
  colorId: string,
): Promise<RawImage> {
  const template = findTemplate(productType, templateId);
  const color = TEMPLATE_SETS[productType].colors.find((c) => c.id === colorId);
  if (!template || !color) throw new Error(`unknown template ${productType}/${templateId}/${colorId}`);
  const shipped = shippedTemplate(productType, templateId, colorId);
  const source = shipped
    ? sharp(shipped, { sequentialRead: true })
    : sharp(await drawTemplate(template, color).png().toBuffer())
        .removeAlpha()
        .toColourspace('srgb');
  const { data, info } = await source.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error('template did not decode to RGB');
  return { data, width: info.width, height: info.height, channels: 3 };
}

/** A design decoded to RGBA, as the mockup service keeps its working copy between renders (pixel-cache.ts). */
export type DesignPixels = { data: Buffer; width: number; height: number };

/** Decodes a design file (its working copy) to RGBA pixels: about 40 ms for a 1667x2000 working copy. */
export async function decodeDesignPixels(design: string | Buffer): Promise<DesignPixels> {
  // A greyscale or 16-bit file comes out as 8-bit sRGB with alpha too.
  const { data, info } = await sharp(design)
    .ensureAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4 || data.length !== info.width * info.height * 4) {
    throw new Error('design did not decode to 8-bit RGBA');
  }
  return { data, width: info.width, height: info.height };
}

/**
 * The design resized, rotated (the canvas grows to the rotated bounds) and, unless `fade` is false, faded; placed
 * but not clipped. The app places a working copy from its decoded pixels, and a design with only a print PNG from
 * its file in the decode pool (a 'layer' job); both unfaded: the mockup's blend applies the opacity.
 */
export async function renderDesignRaw(
  design: Buffer | string | DesignPixels,
  placement: Placement,
  { fade = true }: { fade?: boolean } = {},
): Promise<DesignLayer> {
  const width = Math.max(1, Math.round(placement.width));
  const height = Math.max(1, Math.round(placement.height));
  const turn = placement.rotation % 360;
  const placed = (out: { data: Buffer; width: number; height: number }): DesignLayer => ({
    ...out,
    left: Math.round(placement.centerX - out.width / 2),
    top: Math.round(placement.centerY - out.height / 2),
  });
  const sized =
    typeof design !== 'string' && !Buffer.isBuffer(design) && design.width === width && design.height === height;
  if (sized && turn % 90 !== 0) {
    // Pixels already at the placed size (resizeDesignPixels, kept by the mockup service): only turned.
    return placed(rotateRgba(design, turn, fade ? placement.opacity : 1));
  }
  const input =
    typeof design === 'string' || Buffer.isBuffer(design)
      ? sharp(design).ensureAlpha()
      : sharp(design.data, { raw: { width: design.width, height: design.height, channels: 4 } });
  let pipeline = input.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  if (turn % 90 !== 0) {
    // Any other turn in rotateRgba (a fraction of libvips' affine CPU), faded in the same pass.
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error('design did not resize to RGBA');
    return placed(rotateRgba({ data, width: info.width, height: info.height }, turn, fade ? placement.opacity : 1));
  }
  // A quarter turn is exact in libvips (rows become columns). Faded here rather than by sharp, which adds a missing
  // alpha only at the end of its pipeline.
  if (turn !== 0) pipeline = pipeline.rotate(turn);
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (fade && placement.opacity < 1) {
    const k = Math.round(placement.opacity * 256);
    for (let i = 3; i < data.length; i += 4) data[i] = ((data[i] as number) * k + 128) >> 8;
  }
  return placed({ data, width: info.width, height: info.height });
}

/** Decoded design pixels resized to `width` x `height` as renderDesignRaw resizes them (before its turn). */
export async function resizeDesignPixels(design: DesignPixels, width: number, height: number): Promise<DesignPixels> {
  const { data, info } = await sharp(design.data, { raw: { width: design.width, height: design.height, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 4) throw new Error('design did not resize to RGBA');
  return { data, width: info.width, height: info.height };
}

/**
 * Resizes, rotates, fades and clips the design as `placement` says. Returns null when nothing of it falls inside
 * the design area. Clipping here also keeps sharp's composite from throwing on a layer larger than its base.
 */
export async function prepareDesignLayer(
  design: Buffer | string | DesignPixels,
  placement: Placement,
): Promise<DesignLayer | null> {
  return clipLayer(await renderDesignRaw(design, placement, { fade: false }), placement);
}

/**
 * Gives a placed, unfaded design layer the placement's clip rectangle (where it cuts the layer: the blend stops at it,
 * the pixels are not copied) and its opacity; null when nothing of it is inside.
 */
export function clipLayer(raw: DesignLayer, placement: Placement): DesignLayer | null {
  const { data, width: w, height: h, left, top } = raw;
  const { opacity } = placement;
  const clip = {
    x: Math.round(placement.clip.x),
    y: Math.round(placement.clip.y),
    width: Math.round(placement.clip.width),
    height: Math.round(placement.clip.height),
  };
  const inside = intersectRects({ x: left, y: top, width: w, height: h }, clip);
  if (!inside) return null;
  if (inside.width === w && inside.height === h) return { data, width: w, height: h, left, top, opacity };
  return { data, width: w, height: h, left, top, opacity, clip: inside };
}

/**
 * The layer over a copy of an RGB template, in integer arithmetic over the layer's rectangle only: 4x less CPU than
 * sharp's composite, which converts the whole 2000x2500 base to floating point and back. Parts of the layer outside
 * the template are skipped. Every offset is kept a small integer (`| 0`) and the pixels are read through plain
 * Uint8Array locals: V8 then compiles the loop to integer code (a loop on values it could not prove integral took
 * 5x as long for a layer with an opacity).
 */
export function blendOver(
  base: { data: Buffer; width: number; height: number },
  layer: DesignLayer,
  out: Buffer = Buffer.allocUnsafe(base.data.length),
): Buffer {
  base.data.copy(out);
  const dst: Uint8Array = out;
  const src: Uint8Array = layer.data;
  const alphaScale = Math.round(Math.min(1, Math.max(0, layer.opacity ?? 1)) * 256) | 0;
  const left = layer.left | 0;
  const top = layer.top | 0;
  const lw = layer.width | 0;
  const bw = base.width | 0;
  const clip = layer.clip ?? { x: 0, y: 0, width: bw, height: base.height };
  const x0 = Math.max(0, left, clip.x) | 0;
  const y0 = Math.max(0, top, clip.y) | 0;
  const x1 = Math.min(bw, left + lw, clip.x + clip.width) | 0;
  const y1 = Math.min(base.height | 0, top + (layer.height | 0), clip.y + clip.height) | 0;
  for (let y = y0; y < y1; y++) {
    let s = (((y - top) * lw + (x0 - left)) * 4) | 0;
    let d = ((y * bw + x0) * 3) | 0;
    for (let x = x0; x < x1; x++, s += 4, d += 3) {
      const a = ((src[s + 3] as number) * alphaScale) >> 8;
      if (a === 0) continue;
      if (a === 255) {
        dst[d] = src[s] as number;
        dst[d + 1] = src[s + 1] as number;
        dst[d + 2] = src[s + 2] as number;
        continue;
      }
      const b = 255 - a;
      // (v + 127) / 255 rounded, without a division: (t + 128 + ((t + 128) >> 8)) >> 8 is exact for t < 65536.
      let t = (src[s] as number) * a + (dst[d] as number) * b + 128;
      dst[d] = (t + (t >> 8)) >> 8;
      t = (src[s + 1] as number) * a + (dst[d + 1] as number) * b + 128;
      dst[d + 1] = (t + (t >> 8)) >> 8;
      t = (src[s + 2] as number) * a + (dst[d + 2] as number) * b + 128;
      dst[d + 2] = (t + (t >> 8)) >> 8;
    }
  }
  return out;
}

export function mockupPlacement(
  productType: TMockupProductType,
  design: { width: number; height: number },
  adjustments: MockupAdjustments,
  templateWidth = TEMPLATE_WIDTH,
): Placement {
  return computePlacement({
    area: DESIGN_AREAS[productType],
    design,
    adjustments,
    factor: templateWidth / 400,
  });
}

type ScaledPixels = { data: Buffer; width: number; height: number };
/**
 * A batch draws one layer on every colour, and a moved design its kept layer again: its pixels are scaled for the
 * previews once (weakly held by the layer's pixels, gone with them).
 */
const scaledLayers = new WeakMap<Buffer, Map<number, Promise<ScaledPixels>>>();

/** The layer and its clip scaled by `k` for the small preview. */
async function scaleLayer(layer: DesignLayer, k: number): Promise<DesignLayer> {
  let forPixels = scaledLayers.get(layer.data);
  let job = forPixels?.get(k);
  if (!job) {
    const width = Math.max(1, Math.round(layer.width * k));
    const height = Math.max(1, Math.round(layer.height * k));
    job = sharp(layer.data, { raw: { width: layer.width, height: layer.height, channels: 4 } })
      .resize(width, height, { fit: 'fill' })
      .raw()
      .toBuffer()
      .then((data) => ({ data, width, height }));
    if (!forPixels) {
      forPixels = new Map();
      scaledLayers.set(layer.data, forPixels);
    }
    const cached = forPixels;
    cached.set(k, job);
    job.catch(() => cached.delete(k));
  }
  const scaled = await job;
  const { clip } = layer;
  const x = (v: number) => Math.round(v * k);
  return {
    ...scaled,
    left: x(layer.left),
    top: x(layer.top),
    opacity: layer.opacity ?? 1,
    ...(clip
      ? {
          clip: {
            x: x(clip.x),
            y: x(clip.y),
            width: x(clip.x + clip.width) - x(clip.x),
            height: x(clip.y + clip.height) - x(clip.y),
          },
        }
      : {}),
  };
}

/**
 * The full 2000x2500 mockup: the layer over the template, as PNG (`encode: false` stops before the encode and
 * answers the composited pixels, so the bench can tell the two apart). The composite lives only until sharp has
 * encoded it: a pooled buffer (scratch-buffers.ts).
 */
export async function composeFull(template: RawImage, layer: DesignLayer | null, encode = true): Promise<Buffer> {
  const raw = { width: template.width, height: template.height, channels: template.channels };
  if (!encode) return layer ? blend(template, layer) : template.data;
  if (!layer) return sharp(template.data, { raw }).removeAlpha().png(PNG_OPTIONS).toBuffer();
  const pixels = blend(template, layer, scratch.take(template.data.length));
  try {
    return await sharp(pixels, { raw }).removeAlpha().png(PNG_OPTIONS).toBuffer();
  } finally {
    scratch.give(pixels);
  }
}

/** blendOver for an RGB template; an RGBA one (not made by TemplateStore) goes through sharp. */
function blend(template: RawImage | NonNullable<RawImage['small']>, layer: DesignLayer, out?: Buffer): Buffer {
  if (template.channels === 3) return blendOver(template, layer, out);
  throw new Error('mockup templates are decoded to RGB');
}

/** The 512 px preview (JPEG), composited small (the layer scaled down) rather than scaled from the full render. */
export async function composePreview(template: RawImage, layer: DesignLayer | null): Promise<Buffer> {
  const small = template.small;
  if (!small) {
    const raw = { width: template.width, height: template.height, channels: template.channels };
    const pixels = layer ? blend(template, layer) : template.data;
    return sharp(pixels, { raw }).removeAlpha().resize(MOCKUP_PREVIEW_WIDTH).jpeg(PREVIEW_JPEG).toBuffer();
  }
  return composeSmallPreview(template, layer ? await scaleLayer(layer, small.width / template.width) : null);
}

/**
 * The 512 px preview (JPEG) from a layer placed at the preview's own size (mockupPlacement at the small template's
 * width): the design is resized and turned small, not scaled down from the full-size layer.
 */
export async function composeSmallPreview(template: RawImage, smallLayer: DesignLayer | null): Promise<Buffer> {
  const small = template.small;
  if (!small) throw new Error('the template has no preview-size pixels');
  const raw = { width: small.width, height: small.height, channels: 3 } as const;
  if (!smallLayer) return sharp(small.data, { raw }).jpeg(PREVIEW_JPEG).toBuffer();
  // Into a pooled buffer, given back once encoded (a fresh megabyte per render added to the collections).
  const pixels = blendOver(small, smallLayer, scratch.take(small.data.length));
  try {
    return await sharp(pixels, { raw }).jpeg(PREVIEW_JPEG).toBuffer();
  } finally {
    scratch.give(pixels);
  }
}

/** Composites a prepared layer on a template and encodes the full PNG and the 512 px JPEG preview, side by side. */
export async function composeMockup(
  template: RawImage,
  layer: DesignLayer | null,
): Promise<{ png: Buffer; preview: Buffer; width: number; height: number }> {
  const [png, preview] = await Promise.all([composeFull(template, layer), composePreview(template, layer)]);
  return { png, preview, width: template.width, height: template.height };
}
