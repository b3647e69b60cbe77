import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TDesignType } from '@podforge/contract';
import { fileTypeFromBuffer } from 'file-type';
import { unprocessable, unsupportedMediaType } from '../../lib/errors';
import {
  checkImageHeader,
  checkPdfPageCount,
  DesignLimitError,
  decodedBytesOf,
  readJpegHeader,
  readPdfPageCount,
  readPngHeader,
} from './design-limits';

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

/**
 * What the decode worker makes of one file, as files under the job's `outDir` (never big buffers through the
 * parent): the print PNG, the thumbnail, and for SVG (or a resized AI image) the original to store.
 */
export type DecodedDesign = {
  width: number;
  height: number;
  printPath: string;
  /**
   * The working copy: the print PNG at most DESIGN_WORKING_MAX px a side, quick to decode, which mockups are
   * rendered from (a 2000x2500 mockup never shows more of a design than that).
   */
  workingPath: string;
  thumbnailPath: string;
  /** The original to store when it is not the uploaded file itself: sanitised SVG, or a resized AI image. */
  originalPath: string | null;
  /**
   * The design is vector (an SVG, or a PDF whose page 1 paints no raster image: PDF_IMAGE_OPS in pdf-render.ts): its
   * stored original is drawn again at a print file's own size, so it is print-ready at any size.
   */
  vector: boolean;
  /** Milliseconds per step in the decoder (the upload's Server-Timing header shows them). */
  timings?: Record<string, number>;
};

/** One file for the decode worker: already sniffed and through the header caps. */
export type DesignDecodeJob = {
  type: TDesignType;
  name: string;
  inputPath: string;
  outDir: string;
  /** Scale a PNG to this square (cover), as an AI images API answer of another size is. */
  fitSquare?: number;
  /** Bytes the file's header says it decodes to (PNG, JPEG), which the pool reserves memory for. */
  decodedBytes?: number;
};

/** What the first step found: the type by the bytes and, for PNG and JPEG, the header's decoded size. */
export type InspectedDesign = { type: TDesignType; decodedBytes?: number };

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

/**
 * First step of an upload, in the request's process and cheap: proves the type by the bytes (415 for an unknown or
 * lying type) and, for PNG and JPEG, reads size and bit depth from the header and refuses a file over the caps
 * (422 naming the limit) before anything decodes it; for a PDF, the page count its page tree declares. SVG caps and a
 * PDF's page size are checked by the decode worker, which has to parse them.
 */
export async function inspectDesignFile(filePath: string, name: string, bytes: number): Promise<InspectedDesign> {
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
  try {
    if (type === 'pdf') checkPdfPageCount(name, await readPdfPageCount(filePath));
    if (type !== 'png' && type !== 'jpeg') return { type };
    const header = type === 'png' ? readPngHeader(name, head) : await readJpegHeader(name, filePath);
    checkImageHeader(name, header);
    return { type, decodedBytes: decodedBytesOf(header) };
  } catch (error) {
    if (error instanceof DesignLimitError) throw unprocessable(error.message);
    throw error;
  }
}
