import fsp from 'node:fs/promises';
import path from 'node:path';
import { DESIGN_MAX_PIXELS, DESIGN_THUMBNAIL_MAX, type TDesignType } from '@podforge/contract';
import { fileTypeFromBuffer } from 'file-type';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { unprocessable, unsupportedMediaType } from '../../lib/errors';
import { PdfRenderError, renderPdfFirstPage } from './pdf-render';
import { HostileSvgError, sanitizeSvg } from './svg-sanitize';

// libvips defaults to one thread here; let it use the machine.
sharp.concurrency(0);

export const MIME: Record<TDesignType, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};
export const EXTENSION: Record<TDesignType, string> = { png: 'png', jpeg: 'jpg', svg: 'svg', pdf: 'pdf' };
const NAME_EXTENSIONS: Record<TDesignType, string[]> = {
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg'],
  svg: ['.svg'],
  pdf: ['.pdf'],
};

/** What a processed upload yields, ready to store: original (sanitised for SVG), print PNG and thumbnail. */
export type ProcessedDesign = {
  type: TDesignType;
  width: number;
  height: number;
  /** The original to store: the uploaded file itself, or sanitised SVG text. */
  original: { path: string } | { buffer: Buffer };
  originalBytes: number;
  print: Buffer;
  thumbnail: Buffer;
};

const SHARP_INPUT = { limitInputPixels: DESIGN_MAX_PIXELS, failOn: 'error' as const, sequentialRead: true };

/** Identifies the type from the bytes only: magic numbers for PNG, JPEG and PDF, an `<svg` root for SVG text. */
async function sniff(head: Buffer): Promise<TDesignType | null> {
  const found = await fileTypeFromBuffer(head);
  if (found?.ext === 'png') return 'png';
  if (found?.ext === 'jpg') return 'jpeg';
  if (found?.ext === 'pdf') return 'pdf';
  if (found && found.ext !== 'xml') return null;
  // SVG is text, which file-type does not identify: skip an XML declaration, comments and whitespace, then expect <svg.
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const rest = text.replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)*/i, '');
  return /^<svg[\s>]/i.test(rest) ? 'svg' : null;
}

async function thumbnailOf(png: Buffer): Promise<Buffer> {
  return sharp(png, SHARP_INPUT)
    .resize(DESIGN_THUMBNAIL_MAX, DESIGN_THUMBNAIL_MAX, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
}

function checkPixels(name: string, width: number | undefined, height: number | undefined) {
  if (!width || !height) throw unprocessable(`${name} could not be read: it has no image size`);
  if (width * height > DESIGN_MAX_PIXELS) {
    throw unprocessable(
      `${name} is ${width}x${height} pixels, more than the ${DESIGN_MAX_PIXELS / 1_000_000} megapixel limit`,
    );
  }
}

/**
 * Proves that the file at `filePath` is the PNG, JPEG, SVG or PDF it claims to be and makes its print PNG and
 * thumbnail. Refusals are AppErrors naming the file: 415 for an unknown or lying type, 422 for a file that does not
 * decode, is empty, too many pixels, or (SVG) carries active content.
 */
export async function processDesignFile(filePath: string, name: string, bytes: number): Promise<ProcessedDesign> {
  if (bytes === 0) throw unprocessable(`${name} is empty (0 bytes)`);
  const handle = await fsp.open(filePath, 'r');
  const head = Buffer.alloc(Math.min(bytes, 8192));
  try {
    await handle.read(head, 0, head.length, 0);
  } finally {
    await handle.close();
  }
  const type = await sniff(head);
  if (!type) throw unsupportedMediaType(`${name} is not a PNG, JPEG, SVG or PDF file (checked by its content)`);
  const extension = path.extname(name).toLowerCase();
  if (!NAME_EXTENSIONS[type].includes(extension)) {
    throw unsupportedMediaType(
      `${name} is a ${type.toUpperCase()} file by its content, but its name ends in "${extension || '(nothing)'}"`,
    );
  }

  if (type === 'png' || type === 'jpeg') {
    let meta: Metadata;
    try {
      // Only the header is read here, so the pixel limit is checked by us below with a clear message.
      meta = await sharp(filePath, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
    } catch {
      throw unprocessable(`${name} is not a valid ${type.toUpperCase()} image`);
    }
    checkPixels(name, meta.width, meta.height);
    let print: { data: Buffer; info: OutputInfo };
    try {
      // Decoding all of it proves it is whole (a truncated file fails here); rotate() applies EXIF orientation.
      print = await sharp(filePath, SHARP_INPUT)
        .rotate()
        .png({ compressionLevel: 6, effort: 1 })
        .toBuffer({ resolveWithObject: true });
    } catch {
      throw unprocessable(`${name} is not a valid ${type.toUpperCase()} image: it could not be decoded`);
    }
    return {
      type,
      width: print.info.width,
      height: print.info.height,
      original: { path: filePath },
      originalBytes: bytes,
      print: print.data,
      thumbnail: await thumbnailOf(print.data),
    };
  }

  if (type === 'svg') {
    let clean: string;
    try {
      clean = sanitizeSvg(await fsp.readFile(filePath, 'utf8'));
    } catch (error) {
      if (error instanceof HostileSvgError) throw unprocessable(`${name} was refused: ${error.message}`);
      throw error;
    }
    const buffer = Buffer.from(clean, 'utf8');
    let print: { data: Buffer; info: OutputInfo };
    try {
      const meta = await sharp(buffer, { ...SHARP_INPUT, limitInputPixels: false }).metadata();
      checkPixels(name, meta.width, meta.height);
      print = await sharp(buffer, SHARP_INPUT).png().toBuffer({ resolveWithObject: true });
    } catch (error) {
      if (error instanceof Error && error.name === 'AppError') throw error;
      throw unprocessable(`${name} is not a valid SVG image: it could not be rendered`);
    }
    return {
      type,
      width: print.info.width,
      height: print.info.height,
      original: { buffer },
      originalBytes: buffer.length,
      print: print.data,
      thumbnail: await thumbnailOf(print.data),
    };
  }

  let rendered: { png: Buffer; width: number; height: number };
  try {
    rendered = await renderPdfFirstPage(await fsp.readFile(filePath));
  } catch (error) {
    if (error instanceof PdfRenderError)
      throw unprocessable(`${name} is not a PDF that can be rendered: ${error.message}`);
    throw error;
  }
  return {
    type,
    width: rendered.width,
    height: rendered.height,
    original: { path: filePath },
    originalBytes: bytes,
    print: rendered.png,
    thumbnail: await thumbnailOf(rendered.png),
  };
}
