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
import { renderDesignRaw } from '../mockups/mockup-render';
import { rotateRgba, turnedSize, turnSource } from '../mockups/rotate';

const CLEAR = { r: 0, g: 0, b: 0, alpha: 0 };

/**
 * The placed design alone at the print area's full pixel size, on a transparent background, written as PNG to
 * `outPath`. With a catalogue placement's size, the print file is the part of the design area that placement prints
 * (`printWindow`), drawn with the same placement as the mockup; without one, the product type's default print area.
 * Runs in the decode pool (it decodes the design).
 *
 * Unturned, one libvips pipeline, decode to encode (resize, crop to the print area, transparent margins, fade). Turned,
 * the design is resized in libvips and turned and faded by rotateRgba (a third of libvips' CPU for the turn, which
 * also made sharp hold the whole resized design in floating point), then given its margins and encoded; a quarter
 * turn, which sharp applies differently, is placed first and then cropped and extended. The PNG is written at zlib
 * level 1 without row filters: a fraction of level 6's time, still lossless.
 */
export async function renderPrintFile(
  productType: TMockupProductType,
  design: string,
  designSize: { width: number; height: number },
  adjustments: MockupAdjustments,
  outPath: string,
  size?: { widthPx: number; heightPx: number },
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
  if (turn % 90 !== 0) {
    // The same geometry as renderDesignRaw: the design resized to the rounded placement, turned by rotateRgba onto
    // its grown canvas, centred on the placement. Only the part of the canvas inside the print file is turned, from
    // the part of the resized design it samples (a post-resize extract: libvips resizes no more than that).
    const width = Math.max(1, Math.round(placement.width));
    const height = Math.max(1, Math.round(placement.height));
    const turned = turnedSize(width, height, turn);
    const left = Math.round(placement.centerX - turned.width / 2);
    const top = Math.round(placement.centerY - turned.height / 2);
    const inside = intersectRects({ x: left, y: top, ...turned }, canvas);
    const window = inside && { x: inside.x - left, y: inside.y - top, width: inside.width, height: inside.height };
    const part = window && turnSource({ width, height }, turn, window);
    if (!inside || !window || !part) {
      await blank();
      return { width: print.widthPx, height: print.heightPx };
    }
    const { data, info } = await sharp(design, { sequentialRead: true })
      .ensureAlpha()
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
      .extract({ left: part.x, top: part.y, width: part.width, height: part.height })
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 4) throw new Error('design did not resize to RGBA');
    const drawn = rotateRgba({ data, width: info.width, height: info.height }, turn, placement.opacity, {
      full: { width, height },
      offset: part,
      window,
    });
    await sharp(drawn.data, { raw: { width: drawn.width, height: drawn.height, channels: 4 } })
      .extend({
        left: inside.x,
        top: inside.y,
        right: print.widthPx - inside.x - inside.width,
        bottom: print.heightPx - inside.y - inside.height,
        background: CLEAR,
      })
      .png(FAST_PNG)
      .toFile(outPath);
    return { width: print.widthPx, height: print.heightPx };
  }

  if (turn === 0) {
    // No turn: one libvips pipeline, decode to encode, so its steps run side by side on the pool's threads.
    const width = Math.max(1, Math.round(placement.width));
    const height = Math.max(1, Math.round(placement.height));
    const left = Math.round(placement.centerX - width / 2);
    const top = Math.round(placement.centerY - height / 2);
    const inside = intersectRects({ x: left, y: top, width, height }, canvas);
    if (!inside) await blank();
    else {
      const margins = {
        left: inside.x,
        top: inside.y,
        right: print.widthPx - inside.x - inside.width,
        bottom: print.heightPx - inside.y - inside.height,
      };
      let pipeline = sharp(design)
        .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
        .extract({ left: inside.x - left, top: inside.y - top, width: inside.width, height: inside.height })
        .extend({ ...margins, background: CLEAR });
      if (placement.opacity >= 1) pipeline = pipeline.ensureAlpha();
      else {
        // sharp fades after the margins, in 8 bits (transparent stays transparent), and adds a missing alpha last:
        // an opaque design with no margins gets its alpha at the placement's opacity instead.
        const hasAlpha = (await sharp(design).metadata()).hasAlpha;
        const extended = Object.values(margins).some((m) => m > 0);
        pipeline =
          hasAlpha || extended
            ? pipeline.linear([1, 1, 1, placement.opacity], [0, 0, 0, 0])
            : pipeline.ensureAlpha(placement.opacity);
      }
      await pipeline.png(FAST_PNG).toFile(outPath);
    }
    return { width: print.widthPx, height: print.heightPx };
  }

  // A quarter turn: sharp turns the resize with it, as the mockup's layer does; placed first, then cropped.
  const placed = await renderDesignRaw(design, placement);
  const inside = intersectRects({ x: placed.left, y: placed.top, width: placed.width, height: placed.height }, canvas);
  if (!inside) await blank();
  else {
    // Extract and extend in one pipeline: far cheaper than compositing onto a transparent canvas.
    await sharp(placed.data, { raw: { width: placed.width, height: placed.height, channels: 4 } })
      .extract({ left: inside.x - placed.left, top: inside.y - placed.top, width: inside.width, height: inside.height })
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
