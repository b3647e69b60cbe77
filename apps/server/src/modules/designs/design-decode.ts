import fsp from 'node:fs/promises';
import path from 'node:path';
import { DESIGN_MAX_PIXELS, DESIGN_THUMBNAIL_MAX } from '@podforge/contract';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { DecodeRefusal } from '../../decode/decode-kind';
import { PNG_METADATA_MAX_BYTES, PngMetadataTooLarge, readPngMetadata } from '../../lib/png-metadata';
import type { DecodedDesign, DesignDecodeJob } from './design-files';
import {
  checkImageHeader,
  checkPdfPages,
  checkSvgStats,
  DESIGN_LIMITS,
  DesignLimitError,
  scanSvg,
} from './design-limits';
import { PdfLimitError, PdfRenderError, type RenderedPage, renderPdfFirstPage } from './pdf-render';

/**
 * The decode step, run only inside the decode worker (a child process, see decode-pool.ts); the server process never
 * loads it, nor sharp's decoders for user files, jsdom or pdf.js.
 */

const SHARP_INPUT = { limitInputPixels: DESIGN_MAX_PIXELS, failOn: 'error' as const, sequentialRead: true };

/** Awaits `work` and records how long it took under `name`. */
async function timed<T>(timings: Record<string, number>, name: string, work: Promise<T>): Promise<T> {
  const t = performance.now();
  const result = await work;
  timings[name] = performance.now() - t;
  return result;
}

/** A refusal the decode worker answers with (a 422 naming the file), as opposed to a crash. */
export class DesignRefusal extends DecodeRefusal {
  override name = 'DesignRefusal';
}

/** The SVG sanitiser (jsdom, about a second to load), loaded by a decoder before its first SVG: see DESIGN_DECODE. */
export const loadSvgSanitiser = () => import('./svg-sanitize');

/** Longest side of a design's working copy: the largest a 2000x2500 mockup draws a design at 100%. */
export const DESIGN_WORKING_MAX = 2000;

/**
 * PNG as the pool writes it: zlib level 1, no row filters, and no `effort`, which in sharp turns on palette
 * quantisation: with it a 4500x5400 print PNG took 3.3 s of CPU and came out as 256 colours.
 */
export const FAST_PNG = { compressionLevel: 1, adaptiveFiltering: false } as const;

/**
 * The working copy and the thumbnail from one resize: the design at working size is kept as raw pixels, encoded as
 * the working PNG and scaled to the thumbnail side by side (the thumbnail was drawn from the working PNG, which
 * decoded it again). `input` is a file (`rotate()` applies EXIF orientation, as the print PNG does) or a rendered
 * PDF page's raw pixels.
 */
async function workingCopyAndThumbnail(
  input: string | { pixels: Buffer; width: number; height: number },
  workingPath: string,
  thumbnailPath: string,
  timings: Record<string, number> = {},
) {
  let t = performance.now();
  const fits = typeof input !== 'string' && Math.max(input.width, input.height) <= DESIGN_WORKING_MAX;
  const { data, info } = fits
    ? { data: input.pixels, info: { width: input.width, height: input.height, channels: 4 } }
    : await (typeof input === 'string'
        ? sharp(input, SHARP_INPUT).rotate()
        : sharp(input.pixels, { raw: { width: input.width, height: input.height, channels: 4 } })
      )
        .resize(DESIGN_WORKING_MAX, DESIGN_WORKING_MAX, { fit: 'inside', withoutEnlargement: true })
        .raw()
        .toBuffer({ resolveWithObject: true });
  timings.resize = performance.now() - t;
  t = performance.now();
  const working = () =>
    sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 } });
  await Promise.all([
    working()
      .png(FAST_PNG)
      .toFile(workingPath)
      .then(() => {
        timings.working = performance.now() - t;
      }),
    working()
      .resize(DESIGN_THUMBNAIL_MAX, DESIGN_THUMBNAIL_MAX, { fit: 'inside', withoutEnlargement: true })
      .png()
      .toFile(thumbnailPath)
      .then(() => {
        timings.thumbnail = performance.now() - t;
      }),
  ]);
}

/** The design's working copy (see DecodedDesign.workingPath), written to `workingPath`. */
export function writeWorkingCopy(input: string, workingPath: string) {
  return sharp(input, SHARP_INPUT)
    .rotate()
    .resize(DESIGN_WORKING_MAX, DESIGN_WORKING_MAX, { fit: 'inside', withoutEnlargement: true })
    .png(FAST_PNG)
    .toFile(workingPath);
}

/** Refuses a PNG whose compressed metadata chunks inflate past PNG_METADATA_MAX_BYTES together (a zTXt bomb). */
function checkPngMetadata(name: string, png: Buffer) {
  try {
    readPngMetadata(png);
  } catch (error) {
    if (!(error instanceof PngMetadataTooLarge)) throw error;
    const limit = `${PNG_METADATA_MAX_BYTES / 1024 / 1024} MB`;
    throw new DesignRefusal(
      `${name} has metadata (${error.chunk} chunks) that inflates to more than ${limit}; the limit is ${limit}`,
    );
  }
}

/**
 * Decodes one file as the decode worker does (in a child process, see decode-pool.ts): proves it is whole and
 * makes the print PNG and the thumbnail under `job.outDir`. SVG: complexity and size caps from a streaming scan,
 * then sanitised, then rendered. PDF: page count and size checked before page 1 is rendered. Throws DesignRefusal
 * with the 422 text.
 */
export async function decodeDesign(job: DesignDecodeJob): Promise<DecodedDesign> {
  const { name, type, outDir } = job;
  const printPath = path.join(outDir, 'print.png');
  const workingPath = path.join(outDir, 'working.png');
  const thumbnailPath = path.join(outDir, 'thumbnail.png');
  const timings: Record<string, number> = {};
  const started = performance.now();
  try {
    if (type === 'png' || type === 'jpeg') {
      // Before libpng sees it: compressed metadata (zTXt, iTXt, iCCP) inflates within 1 MB in all, or is refused.
      if (type === 'png') checkPngMetadata(name, await fsp.readFile(job.inputPath));
      let meta: Metadata;
      try {
        meta = await sharp(job.inputPath, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
      } catch {
        throw new DesignRefusal(`${name} is not a valid ${type.toUpperCase()} image`);
      }
      checkImageHeader(name, {
        width: meta.width ?? 0,
        height: meta.height ?? 0,
        bitDepth: meta.depth === 'ushort' ? 16 : 8,
        channels: meta.channels ?? 4,
      });
      timings.header = performance.now() - started;
      let originalPath: string | null = null;
      let source = job.inputPath;
      const invalid = () =>
        new DesignRefusal(`${name} is not a valid ${type.toUpperCase()} image: it could not be decoded`);
      if (job.fitSquare && (meta.width !== job.fitSquare || meta.height !== job.fitSquare)) {
        originalPath = path.join(outDir, 'original.png');
        await sharp(job.inputPath, SHARP_INPUT)
          .resize(job.fitSquare, job.fitSquare, { fit: 'cover' })
          .png()
          .toFile(originalPath)
          .catch(() => {
            throw invalid();
          });
        source = originalPath;
      }
      // A PNG that needs no turning is its own print PNG: re-encoding 24 megapixels is most of an upload's time
      // and adds nothing. It is still decoded whole (the working copy reads every row), which proves it is whole.
      const keepsItself = type === 'png' && (meta.orientation ?? 1) === 1;
      const printing = keepsItself
        ? Promise.resolve(
            originalPath
              ? { width: job.fitSquare ?? 0, height: job.fitSquare ?? 0 }
              : { width: meta.width ?? 0, height: meta.height ?? 0 },
          )
        : timed(timings, 'print', sharp(source, SHARP_INPUT).rotate().png(FAST_PNG).toFile(printPath));
      let size: { width: number; height: number };
      try {
        // Both read the whole file (a truncated one fails here), side by side.
        [size] = await Promise.all([printing, workingCopyAndThumbnail(source, workingPath, thumbnailPath, timings)]);
      } catch {
        throw invalid();
      }
      return {
        width: size.width,
        height: size.height,
        printPath: keepsItself ? source : printPath,
        workingPath,
        thumbnailPath,
        originalPath,
        vector: false,
        timings,
      };
    }

    if (type === 'svg') {
      const { width, height } = checkSvgStats(name, await scanSvg(name, job.inputPath));
      // Loaded before this file's clock started (the SVG_SANITISER preparation); here it is only looked up.
      const { HostileSvgError, sanitizeSvg } = await import('./svg-sanitize');
      let clean: string;
      try {
        clean = sanitizeSvg(await fsp.readFile(job.inputPath, 'utf8'));
      } catch (error) {
        if (error instanceof HostileSvgError) throw new DesignRefusal(`${name} was refused: ${error.message}`);
        throw error;
      }
      const originalPath = path.join(outDir, 'original.svg');
      await fsp.writeFile(originalPath, clean);
      let info: OutputInfo;
      try {
        info = await sharp(originalPath, SHARP_INPUT).png(FAST_PNG).toFile(printPath);
      } catch {
        throw new DesignRefusal(`${name} is not a valid SVG image: it could not be rendered (${width}x${height})`);
      }
      await workingCopyAndThumbnail(printPath, workingPath, thumbnailPath);
      // Vector: a print file draws the sanitised original again at its own size (print-file-render.ts).
      return {
        width: info.width,
        height: info.height,
        printPath,
        workingPath,
        thumbnailPath,
        originalPath,
        vector: true,
      };
    }

    let rendered: RenderedPage;
    try {
      // The pool's wall-clock limit governs (it kills this whole process); the renderer's own is only a backstop.
      rendered = await timed(
        timings,
        'render',
        renderPdfFirstPage(await fsp.readFile(job.inputPath), {
          limits: DESIGN_LIMITS.pdf,
          timeoutMs: 10 * 60_000,
          vectorMaxSide: DESIGN_WORKING_MAX,
        }),
      );
    } catch (error) {
      if (error instanceof PdfLimitError) checkPdfPages(name, error.pages, error.width, error.height);
      if (error instanceof PdfRenderError || error instanceof PdfLimitError) {
        throw new DesignRefusal(`${name} is not a PDF that can be rendered: ${error.message}`);
      }
      throw error;
    }
    const { pixels, width, height, vector } = rendered;
    if (vector) {
      // A vector page, drawn at the working size: it is its own print PNG (its print files are drawn from the PDF).
      await workingCopyAndThumbnail({ pixels, width, height }, workingPath, thumbnailPath, timings);
      return { width, height, printPath: workingPath, workingPath, thumbnailPath, originalPath: null, vector, timings };
    }
    // A raster page's pixels, decoded once: the print PNG and the working copy are drawn from them side by side.
    await Promise.all([
      timed(
        timings,
        'print',
        sharp(pixels, { raw: { width, height, channels: 4 } })
          .png(FAST_PNG)
          .toFile(printPath),
      ),
      workingCopyAndThumbnail({ pixels, width, height }, workingPath, thumbnailPath, timings),
    ]);
    return { width, height, printPath, workingPath, thumbnailPath, originalPath: null, vector, timings };
  } catch (error) {
    if (error instanceof DesignLimitError) throw new DesignRefusal(error.message);
    throw error;
  }
}
