import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { DESIGN_MAX_PIXELS } from '@podforge/contract';
import { SaxesParser } from 'saxes';
import { hostileAttribute, loadsExternal } from './svg-references';

/**
 * The caps a design file must keep before anything decodes it. Header caps (pixels, longest side, decoded bytes, bit
 * depth) are read from the first bytes of a PNG or JPEG, from the root element of an SVG and from page 1 of a PDF;
 * SVG complexity caps are counted by a streaming XML scan (linear in the file, no DOM). Each refusal names the file,
 * what it has and the limit, e.g. 'design.svg has 200,000 elements; the limit is 20,000'.
 */
export const DESIGN_LIMITS = {
  /** Width x height (design.md: 100 megapixels). */
  maxPixels: DESIGN_MAX_PIXELS,
  /** Longest side in pixels: a 24x36 in poster at 300 DPI is 7,200x10,800. */
  maxSide: 20_000,
  /** Width x height x channels x bytes per sample once decoded. */
  maxDecodedBytes: 400 * 1024 * 1024,
  /** Bits per channel. */
  maxBitDepth: 16,
  svg: {
    elements: 20_000,
    depth: 100,
    pathPoints: 250_000,
    filterEffects: 50,
    useElements: 2_000,
    attributeLength: 1_000_000,
    textLength: 20_000,
    fontSize: 5_000,
  },
  pdf: {
    pages: 100,
    /** Longest side of page 1 in points (200 inches, the PDF format's own limit). */
    pageSide: 14_400,
  },
} as const;

/** A file over a cap: the message is the 422 answer as it is. */
export class DesignLimitError extends Error {
  override name = 'DesignLimitError';
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;

export type ImageHeader = { width: number; height: number; bitDepth: number; channels: number };

/** Bytes a header's image takes once decoded: width x height x channels x bytes per sample. */
export const decodedBytesOf = ({ width, height, bitDepth, channels }: ImageHeader) =>
  width * height * Math.max(1, channels) * (bitDepth > 8 ? 2 : 1);

/** Checks a header's size against the pixel, side and decoded-size caps (`what` names the file). */
export function checkImageHeader(what: string, header: ImageHeader): void {
  const { width, height, bitDepth, channels } = header;
  if (!width || !height) throw new DesignLimitError(`${what} could not be read: its header has no image size`);
  const longest = Math.max(width, height);
  if (longest > DESIGN_LIMITS.maxSide) {
    throw new DesignLimitError(
      `${what} is ${fmt(width)}x${fmt(height)} pixels: a side of ${fmt(longest)} pixels; the limit is ${fmt(DESIGN_LIMITS.maxSide)}`,
    );
  }
  const pixels = width * height;
  if (pixels > DESIGN_LIMITS.maxPixels) {
    throw new DesignLimitError(
      `${what} is ${fmt(width)}x${fmt(height)} pixels (${fmt(pixels / 1_000_000)} megapixels); the limit is ${fmt(DESIGN_LIMITS.maxPixels / 1_000_000)} megapixels`,
    );
  }
  if (bitDepth > DESIGN_LIMITS.maxBitDepth) {
    throw new DesignLimitError(`${what} has ${bitDepth} bits per channel; the limit is ${DESIGN_LIMITS.maxBitDepth}`);
  }
  const decoded = decodedBytesOf(header);
  if (decoded > DESIGN_LIMITS.maxDecodedBytes) {
    throw new DesignLimitError(
      `${what} is ${fmt(width)}x${fmt(height)} pixels at ${bitDepth} bits and ${channels} channels, ${mb(decoded)} once decoded; the limit is ${mb(DESIGN_LIMITS.maxDecodedBytes)}`,
    );
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Channels libvips decodes each PNG colour type to (a palette becomes RGB or RGBA). */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 };

/** The IHDR of a PNG: the first chunk, at byte 8. */
export function readPngHeader(what: string, head: Buffer): ImageHeader {
  if (head.length < 29 || !head.subarray(0, 8).equals(PNG_SIGNATURE) || head.toString('latin1', 12, 16) !== 'IHDR') {
    throw new DesignLimitError(`${what} is not a valid PNG image: it has no IHDR header`);
  }
  const colorType = head[25] as number;
  const channels = PNG_CHANNELS[colorType];
  if (channels === undefined) throw new DesignLimitError(`${what} is not a valid PNG image: colour type ${colorType}`);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20), bitDepth: head[24] as number, channels };
}

/** Start-of-frame markers: baseline, extended, progressive, lossless, arithmetic (not DHT C4, JPG C8, DAC CC). */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
/** How far into a JPEG its frame header may be (EXIF, ICC and thumbnails come first). */
const JPEG_HEADER_SCAN_BYTES = 4 * 1024 * 1024;

/** Walks a JPEG's marker segments up to its start-of-frame and reads size, precision and components there. */
export async function readJpegHeader(what: string, filePath: string): Promise<ImageHeader> {
  const handle = await fsp.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const limit = Math.min(size, JPEG_HEADER_SCAN_BYTES);
    const buf = Buffer.alloc(limit);
    await handle.read(buf, 0, limit, 0);
    let i = 2;
    while (i + 4 <= limit) {
      if (buf[i] !== 0xff) throw new DesignLimitError(`${what} is not a valid JPEG image: a broken segment`);
      const marker = buf[i + 1] as number;
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) break;
      const length = buf.readUInt16BE(i + 2);
      if (length < 2) throw new DesignLimitError(`${what} is not a valid JPEG image: a broken segment`);
      if (SOF.has(marker)) {
        if (i + 10 > limit) break;
        return {
          bitDepth: buf[i + 4] as number,
          height: buf.readUInt16BE(i + 5),
          width: buf.readUInt16BE(i + 7),
          channels: buf[i + 9] as number,
        };
      }
      i += 2 + length;
    }
    throw new DesignLimitError(`${what} is not a valid JPEG image: no frame header in its first ${mb(limit)}`);
  } finally {
    await handle.close();
  }
}

/** An SVG length in pixels at sharp's default 72 DPI (what librsvg renders at); null for none or percentages. */
function svgLength(value: string | undefined): number | null {
  if (!value) return null;
  const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|pt|pc|in|cm|mm|em|ex)?\s*$/i.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'px').toLowerCase();
  const per: Record<string, number> = { px: 1, pt: 1, pc: 12, in: 72, cm: 72 / 2.54, mm: 72 / 25.4, em: 12, ex: 6 };
  return n * (per[unit] ?? 1);
}

/** The size an SVG renders at: its width and height, else its viewBox. */
export function svgRootSize(attributes: Record<string, string>): { width: number; height: number } | null {
  const viewBox = (attributes.viewBox ?? attributes.viewbox ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const vb = viewBox.length === 4 && viewBox.every(Number.isFinite) ? viewBox : null;
  let width = svgLength(attributes.width);
  let height = svgLength(attributes.height);
  if (vb && (width === null || height === null)) {
    const [, , vw = 0, vh = 0] = vb;
    if (width === null && height === null) {
      width = vw;
      height = vh;
    } else if (width === null && height !== null) width = vh > 0 ? (height * vw) / vh : null;
    else if (height === null && width !== null) height = vw > 0 ? (width * vh) / vw : null;
  }
  if (width === null || height === null) return null;
  return { width, height };
}

export type SvgStats = {
  elements: number;
  depth: number;
  pathPoints: number;
  filterEffects: number;
  useElements: number;
  longestAttribute: number;
  textLength: number;
  largestFontSize: number;
  root: Record<string, string> | null;
};

const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;
const FONT_SIZE_IN_STYLE = /font-size\s*:\s*([^;]+)/i;

/**
 * Counts what makes an SVG expensive to render, in one streaming pass over the file (`chunkBytes` at a time, so a
 * 50 MB file is never one string). A file that is not well-formed XML is refused here too.
 */
export async function scanSvg(what: string, filePath: string): Promise<SvgStats> {
  const stats: SvgStats = {
    elements: 0,
    depth: 0,
    pathPoints: 0,
    filterEffects: 0,
    useElements: 0,
    longestAttribute: 0,
    textLength: 0,
    largestFontSize: 0,
    root: null,
  };
  const parser = new SaxesParser({ xmlns: false, position: false });
  let depth = 0;
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  // Entities can multiply text without bound (a billion laughs): a DOCTYPE is refused, as the sanitiser does.
  parser.on('doctype', () => {
    failure ??= new DesignLimitError(`${what} was refused: it declares a DOCTYPE or entities`);
  });
  // What the file points at, checked here first (before any DOM): the values as an XML parser resolves them.
  const refuse = (what_: string) => {
    failure ??= new DesignLimitError(`${what} was refused: it contains ${what_}`);
  };
  let inStyle = 0;
  parser.on('processinginstruction', (pi) => {
    if (pi.target.toLowerCase() === 'xml-stylesheet') refuse('an xml-stylesheet instruction');
  });
  parser.on('opentag', (tag) => {
    if (tag.name.toLowerCase().replace(/^.*:/, '') === 'style') inStyle += 1;
    stats.elements += 1;
    depth += 1;
    if (depth > stats.depth) stats.depth = depth;
    // Past the element cap the file is refused whatever else it holds: the rest is only counted, so the refusal can
    // name the total without the per-attribute work that made a 200,000-element file pass the time limit.
    if (stats.elements > DESIGN_LIMITS.svg.elements) return;
    for (const [key, value] of Object.entries(tag.attributes as Record<string, string>)) {
      const hostile = hostileAttribute(key, value);
      if (hostile) refuse(hostile);
    }
    const name = tag.name.toLowerCase().replace(/^svg:/, '');
    if (name.startsWith('fe')) stats.filterEffects += 1;
    if (name === 'use') stats.useElements += 1;
    const attributes = tag.attributes as Record<string, string>;
    if (stats.root === null) stats.root = { ...attributes };
    for (const [key, value] of Object.entries(attributes)) {
      if (value.length > stats.longestAttribute) stats.longestAttribute = value.length;
      const attr = key.toLowerCase();
      if (attr === 'd' || attr === 'points') {
        const numbers = value.match(NUMBER)?.length ?? 0;
        stats.pathPoints += Math.ceil(numbers / 2);
      } else if (attr === 'font-size' || attr === 'style') {
        const raw = attr === 'style' ? FONT_SIZE_IN_STYLE.exec(value)?.[1] : value;
        const px = svgLength(raw);
        if (px !== null && Math.abs(px) > stats.largestFontSize) stats.largestFontSize = Math.abs(px);
      }
    }
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (tag.name.toLowerCase().replace(/^.*:/, '') === 'style') inStyle -= 1;
  });
  parser.on('text', (text) => {
    stats.textLength += text.trim().length;
    if (inStyle > 0 && loadsExternal(text)) refuse('a <style> element that loads something');
  });
  parser.on('cdata', (text) => {
    stats.textLength += text.length;
    if (inStyle > 0 && loadsExternal(text)) refuse('a <style> element that loads something');
  });
  const stream = fs.createReadStream(filePath, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  for await (const chunk of stream) {
    parser.write(chunk as string);
    if (failure) break;
  }
  if (!failure) parser.close();
  stream.destroy();
  const failed = failure as Error | null;
  if (failed instanceof DesignLimitError) throw failed;
  if (failed) {
    const reason = String(failed.message)
      .split('\n')[0]
      ?.replace(/^undefined:\d+:\d+: /, '');
    throw new DesignLimitError(`${what} is not well-formed SVG: ${reason}`);
  }
  return stats;
}

/** Refuses an SVG whose size or complexity passes a cap; answers its render size in pixels. */
export function checkSvgStats(what: string, stats: SvgStats): { width: number; height: number } {
  const caps = DESIGN_LIMITS.svg;
  const over = (count: number, noun: string, limit: number) => {
    if (count > limit) throw new DesignLimitError(`${what} has ${fmt(count)} ${noun}; the limit is ${fmt(limit)}`);
  };
  over(stats.elements, 'elements', caps.elements);
  if (stats.depth > caps.depth) {
    throw new DesignLimitError(`${what} nests elements ${fmt(stats.depth)} deep; the limit is ${fmt(caps.depth)}`);
  }
  over(stats.pathPoints, 'path points', caps.pathPoints);
  over(stats.filterEffects, 'filter effects', caps.filterEffects);
  over(stats.useElements, '<use> references', caps.useElements);
  if (stats.longestAttribute > caps.attributeLength) {
    throw new DesignLimitError(
      `${what} has an attribute of ${fmt(stats.longestAttribute)} characters; the limit is ${fmt(caps.attributeLength)}`,
    );
  }
  over(stats.textLength, 'characters of text', caps.textLength);
  if (stats.largestFontSize > caps.fontSize) {
    throw new DesignLimitError(
      `${what} has a font size of ${fmt(stats.largestFontSize)} pixels; the limit is ${fmt(caps.fontSize)}`,
    );
  }
  const size = svgRootSize(stats.root ?? {});
  if (!size || !(size.width > 0) || !(size.height > 0)) {
    throw new DesignLimitError(`${what} has no size: give the <svg> a width and height or a viewBox`);
  }
  const width = Math.ceil(size.width);
  const height = Math.ceil(size.height);
  checkImageHeader(what, { width, height, bitDepth: 8, channels: 4 });
  return { width, height };
}

/**
 * The page count a PDF's page tree declares, read from the raw bytes before anything parses the file: the largest
 * `/Count` of a `/Type /Pages` dictionary in plain sight. Null when there is none (a page tree inside a compressed
 * object stream): then the decoder's own check (`checkPdfPages`) is the one that applies.
 */
export async function readPdfPageCount(filePath: string): Promise<number | null> {
  const overlap = 128 * 1024;
  let best: number | null = null;
  let carry = '';
  for await (const chunk of fs.createReadStream(filePath, { highWaterMark: 1024 * 1024 })) {
    const text = carry + (chunk as Buffer).toString('latin1');
    for (const dict of text.matchAll(/<<((?:(?!<<|>>)[\s\S])*)>>/g)) {
      const body = dict[1] ?? '';
      if (!/\/Type\s*\/Pages\b/.test(body)) continue;
      const count = /\/Count\s+(\d+)/.exec(body);
      if (count) best = Math.max(best ?? 0, Number(count[1]));
    }
    carry = text.slice(-overlap);
  }
  return best;
}

/** Refuses a PDF that declares more pages than the cap (before decoding; see readPdfPageCount). */
export function checkPdfPageCount(what: string, pages: number | null): void {
  const cap = DESIGN_LIMITS.pdf.pages;
  if (pages !== null && pages > cap)
    throw new DesignLimitError(`${what} has ${fmt(pages)} pages; the limit is ${fmt(cap)}`);
}

/** Refuses a PDF with too many pages or a page 1 larger than the cap (sizes in points). */
export function checkPdfPages(what: string, pages: number, width: number, height: number): void {
  const caps = DESIGN_LIMITS.pdf;
  if (pages > caps.pages)
    throw new DesignLimitError(`${what} has ${fmt(pages)} pages; the limit is ${fmt(caps.pages)}`);
  const longest = Math.max(width, height);
  if (!(longest > 0) || !Number.isFinite(longest)) throw new DesignLimitError(`${what} has a page 1 with no size`);
  if (longest > caps.pageSide) {
    throw new DesignLimitError(
      `${what} has a page of ${fmt(width)}x${fmt(height)} points; the limit is ${fmt(caps.pageSide)} points a side`,
    );
  }
}
