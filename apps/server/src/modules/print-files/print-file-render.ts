import fsp from 'node:fs/promises';
import {
  computePlacement,
  DESIGN_AREAS,
  intersectRects,
  type MockupAdjustments,
  printAreaFor,
  printWindow,
  type TMockupProductType,
} from '@podforge/contract';
import sharp from 'sharp';
import { FAST_PNG } from '../designs/design-decode';
import { renderPdfFirstPage } from '../designs/pdf-render';
import { type DesignPixels, renderDesignRaw } from '../mockups/mockup-render';
import { type RgbaImage, rotateRgba, turnedSize, turnSource } from '../mockups/rotate';

const CLEAR = { r: 0, g: 0, b: 0, alpha: 0 };
/**
 * The largest part of a print file (in pixels) turned in JavaScript, which holds the resized part of the design and
 * the turned pixels at once (about 10 bytes per pixel of the file's part): within the decoder's memory limit up to
 * this size (a 4500x5400 t-shirt file is 24.3 million). A 7200x10800 poster goes through libvips, which streams it.
 */
const JS_TURN_MAX_PIXELS = 32_000_000;
/**
 * The most pixels a vector design is drawn at for a print file: its placed size up to this (a t-shirt's 4500x5400
 * file places it at about 20 million); past it (a poster placed at twice its size) it is drawn at this and resized.
 */
export const VECTOR_MAX_PIXELS = 40_000_000;

/** A vector design's stored original (the sanitised SVG, or the PDF), drawn again at each print file's own size. */
export type VectorSource = { kind: 'svg' | 'pdf'; path: string };

/**
 * The vector original drawn at `width` x `height` (the placed size, within VECTOR_MAX_PIXELS) as RGBA pixels: what
 * the steps below resize (by nothing, or by a pixel's rounding) instead of upscaling the stored print PNG.
 */
async function drawVector(
  vector: VectorSource,
  designSize: { width: number; height: number },
  width: number,
  height: number,
): Promise<DesignPixels> {
  const fit = Math.min(1, Math.sqrt(VECTOR_MAX_PIXELS / (width * height)));
  const w = Math.max(1, Math.round(width * fit));
  const h = Math.max(1, Math.round(height * fit));
  if (vector.kind === 'pdf') {
    const page = await renderPdfFirstPage(await fsp.readFile(vector.path), {
      maxSide: Math.max(w, h),
      maxDpi: Number.POSITIVE_INFINITY,
      // The pool's wall-clock limit governs (it kills the whole decoder); this is only a backstop.
      timeoutMs: 10 * 60_000,
    });
    return { data: page.pixels, width: page.width, height: page.height };
  }
  // The stored SVG was drawn at 72 DPI for the design's size: drawn at the density that gives the placed size.
  const density = (72 * w) / Math.max(1, designSize.width);
  const { data, info } = await sharp(vector.path, { density, limitInputPixels: VECTOR_MAX_PIXELS * 2 })
    .resize(w, h, { fit: 'fill' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A sharp pipeline over a design file or decoded RGBA pixels. */
const open = (design: string | DesignPixels, options: { sequentialRead?: boolean } = {}) =>
  typeof design === 'string'
    ? sharp(design, options)
    : sharp(design.data, { raw: { width: design.width, height: design.height, channels: 4 } });

/**
 * Source pixels per placed pixel within which the resize is folded into the turn (bilinear from the design's own
 * pixels, as the turn samples): a print design placed at its size or reduced by up to a third (the bench's 4500x5400
 * at 90%: 1.11). Outside it libvips resizes first (lanczos3): an enlargement stays sharper, a strong reduction free
 * of aliasing. Folded, artwork differs from the resize-then-turn by a fraction of a level on average (0.16 of 255
 * on the bench's design); per-pixel noise, which lanczos3 keeps crisper, by 3 to 4 levels.
 */
export const FOLD_SCALE = { min: 1, max: 1.5 } as const;

/**
 * A design turned by other than a quarter into `cut` of its turned canvas, faded, given its margins and written as
 * PNG. Only the part of the design the cut samples is decoded to memory (`turnSource`). Near its placed size the
 * design is turned from its own pixels with the resize folded into the turn (one pass, no resized copy: the resize
 * was a third of the file's CPU); else resized in libvips first. A cut in a corner may sample nothing.
 */
async function turnInJs(
  design: string | DesignPixels,
  placed: { width: number; height: number },
  turn: number,
  opacity: number,
  cut: { x: number; y: number; width: number; height: number },
  margins: { left: number; top: number; right: number; bottom: number },
  outPath: string,
): Promise<void> {
  const source =
    typeof design === 'string'
      ? await sharp(design)
          .metadata()
          .then((m) => ({ width: m.width, height: m.height }))
      : design;
  const scale = { x: source.width / placed.width, y: source.height / placed.height };
  const fold = [scale.x, scale.y].every((k) => k >= FOLD_SCALE.min && k <= FOLD_SCALE.max);
  const part = fold ? turnSource(placed, turn, cut, scale) : turnSource(placed, turn, cut);
  if (!part) {
    await sharp({ create: { width: cut.width, height: cut.height, channels: 4, background: CLEAR } })
      .extend({ ...margins, background: CLEAR })
      .png(FAST_PNG)
      .toFile(outPath);
    return;
  }
  let pixels: RgbaImage;
  if (fold && typeof design !== 'string') pixels = design;
  else {
    let pipeline = open(design, { sequentialRead: true }).ensureAlpha();
    if (!fold) pipeline = pipeline.resize(placed.width, placed.height, { fit: 'fill', kernel: 'lanczos3' });
    const { data, info } = await pipeline
      .extract({ left: part.x, top: part.y, width: part.width, height: part.height })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4 || data.length !== info.width * info.height * 4) {
      throw new Error('design did not decode to 8-bit RGBA');
    }
    pixels = { data, width: info.width, height: info.height };
  }
  const whole = pixels === design;
  const drawn = rotateRgba(pixels, turn, opacity, {
    full: placed,
    offset: whole ? { x: 0, y: 0 } : part,
    window: cut,
    ...(fold ? { scale } : {}),
  });
  await sharp(drawn.data, { raw: { width: drawn.width, height: drawn.height, channels: 4 } })
    .extend({ ...margins, background: CLEAR })
    .png(FAST_PNG)
    .toFile(outPath);
}

/**
 * The placed design alone at the print area's full pixel size, on a transparent background, written as PNG to
 * `outPath`. With a catalogue placement's size, the print file is the part of the design area that placement prints
 * (`printWindow`), drawn with the same placement as the mockup; without one, the product type's default print area.
 * Runs in the decode pool (it decodes the design).
 *
 * Unturned, one libvips pipeline, decode to encode (resize, crop to the print area, transparent margins, fade). Turned,
 * the design is turned and faded by rotateRgba (a third of libvips' CPU for the turn; near its placed size with the
 * resize folded in, `turnInJs`), then given its margins and encoded; a part larger than JS_TURN_MAX_PIXELS is turned in the one libvips pipeline
 * instead. A quarter turn, which sharp applies differently, is placed first and then cropped and extended. The PNG
 * is written at zlib level 1 without row filters: a fraction of level 6's time, still lossless.
 */
export async function renderPrintFile(
  productType: TMockupProductType,
  designFile: string,
  designSize: { width: number; height: number },
  adjustments: MockupAdjustments,
  outPath: string,
  size?: { widthPx: number; heightPx: number },
  vector?: VectorSource,
): Promise<{ width: number; height: number }> {
  const print = size ?? printAreaFor(productType);
  const area = DESIGN_AREAS[productType];
  const window = printWindow(area, print);
  const placement = computePlacement({
    area,
    design: designSize,
    adjustments,
    factor: print.widthPx / window.width,
    origin: { x: window.x, y: window.y },
  });
  const canvas = { x: 0, y: 0, width: print.widthPx, height: print.heightPx };
  const blank = () =>
    sharp({ create: { width: print.widthPx, height: print.heightPx, channels: 4, background: CLEAR } })
      .png(FAST_PNG)
      .toFile(outPath);

  const turn = placement.rotation % 360;
  // A vector design is drawn at its placed size (sharp at any size); a raster one is resized from its print PNG.
  const placed = { width: Math.max(1, Math.round(placement.width)), height: Math.max(1, Math.round(placement.height)) };
  const design: string | DesignPixels = vector
    ? await drawVector(vector, designSize, placed.width, placed.height)
    : designFile;
  if (turn % 90 !== 0 || turn === 0) {
    // The same geometry as renderDesignRaw: the design resized to the rounded placement, turned (the canvas grows to
    // round(w|cos| + h|sin|) by round(w|sin| + h|cos|), `turnedSize`), centred on the placement.
    const { width, height } = placed;
    const turned = turnedSize(width, height, turn);
    const left = Math.round(placement.centerX - turned.width / 2);
    const top = Math.round(placement.centerY - turned.height / 2);
    const inside = intersectRects({ x: left, y: top, ...turned }, canvas);
    if (!inside) {
      await blank();
      return { width: print.widthPx, height: print.heightPx };
    }
    // The cut of the turned canvas inside the print file.
    const cut = { x: inside.x - left, y: inside.y - top, width: inside.width, height: inside.height };
    const margins = {
      left: inside.x,
      top: inside.y,
      right: print.widthPx - inside.x - inside.width,
      bottom: print.heightPx - inside.y - inside.height,
    };
    if (turn !== 0 && cut.width * cut.height <= JS_TURN_MAX_PIXELS) {
      await turnInJs(design, { width, height }, turn, placement.opacity, cut, margins, outPath);
      return { width: print.widthPx, height: print.heightPx };
    }
    // Unturned, or a cut too large for the JavaScript turn: one libvips pipeline, decode to encode.
    let pipeline = open(design).resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    if (turn !== 0) pipeline = pipeline.rotate(turn, { background: CLEAR });
    pipeline = pipeline
      .extract({ left: cut.x, top: cut.y, width: cut.width, height: cut.height })
      .extend({ ...margins, background: CLEAR });
    if (placement.opacity >= 1) pipeline = pipeline.ensureAlpha();
    else {
      // sharp fades after the margins, in 8 bits (transparent stays transparent), and adds a missing alpha last:
      // an opaque design with no margins and no turn gets its alpha at the placement's opacity instead.
      const hasAlpha = typeof design === 'string' ? (await sharp(design).metadata()).hasAlpha : true;
      const extended = turn !== 0 || Object.values(margins).some((m) => m > 0);
      pipeline =
        hasAlpha || extended
          ? pipeline.linear([1, 1, 1, placement.opacity], [0, 0, 0, 0])
          : pipeline.ensureAlpha(placement.opacity);
    }
    await pipeline.png(FAST_PNG).toFile(outPath);
    return { width: print.widthPx, height: print.heightPx };
  }

  // A quarter turn: sharp turns the resize with it, as the mockup's layer does; placed first, then cropped.
  const layer = await renderDesignRaw(design, placement);
  const inside = intersectRects({ x: layer.left, y: layer.top, width: layer.width, height: layer.height }, canvas);
  if (!inside) await blank();
  else {
    // Extract and extend in one pipeline: far cheaper than compositing onto a transparent canvas.
    await sharp(layer.data, { raw: { width: layer.width, height: layer.height, channels: 4 } })
      .extract({ left: inside.x - layer.left, top: inside.y - layer.top, width: inside.width, height: inside.height })
      .extend({
        left: inside.x,
        top: inside.y,
        right: print.widthPx - inside.x - inside.width,
        bottom: print.heightPx - inside.y - inside.height,
        background: CLEAR,
      })
      .png(FAST_PNG)
      .toFile(outPath);
  }
  return { width: print.widthPx, height: print.heightPx };
}
