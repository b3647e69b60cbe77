import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { scratch } from './scratch-buffers';

/**
 * The full mockup's PNG, re-compressing only the rows the design changed. A mockup is its template with the design
 * over one band of rows, so the PNG is written in bands of BAND_ROWS rows, each deflated on its own (ending on a
 * byte boundary, as pigz does) and stored as its own IDAT chunk: a band the design does not touch is the template's,
 * compressed once per template and reused by every mockup on it; only the touched bands are deflated, side by side
 * on the thread pool. Filter "none" and zlib level 2, as sharp wrote it (the same pixels, a file of about the same
 * size); no library writes a PNG from partly pre-compressed rows.
 */

export const BAND_ROWS = 32;
const LEVEL = 2;
const deflateRaw = promisify(zlib.deflateRaw) as (buf: Uint8Array, options: zlib.ZlibOptions) => Promise<Buffer>;
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const ADLER_BASE = 65521;

/** A deflated band: its IDAT chunk (length, type, data, CRC) and the Adler-32 of its filtered rows. */
type Band = { chunk: Buffer; adler: number; length: number };

/** What one template keeps between mockups: its bands, deflated the first time a mockup leaves them untouched. */
export type BandCache = Map<number, Promise<Band>>;

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  out.set(data, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  const n = data.length;
  let i = 0;
  while (i < n) {
    // 5552 bytes is the most that can be summed before b can pass 2^32 (zlib's NMAX).
    const end = Math.min(n, i + 5552);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib's adler32_combine: the checksum of A then B from A's, B's and B's length. */
function adlerCombine(adler1: number, adler2: number, length2: number): number {
  const rem = length2 % ADLER_BASE;
  let sum1 = adler1 & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (adler2 & 0xffff) + ADLER_BASE - 1;
  sum2 += ((adler1 >>> 16) & 0xffff) + ((adler2 >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** Rows [from, to) of an RGB image, each behind its filter byte (0, none), deflated to a byte boundary. */
async function deflateRows(pixels: Buffer, width: number, from: number, to: number): Promise<Band> {
  const stride = width * 3;
  const filtered = scratch.take((to - from) * (stride + 1));
  try {
    for (let row = from, at = 0; row < to; row++, at += stride + 1) {
      filtered[at] = 0;
      pixels.copy(filtered, at + 1, row * stride, (row + 1) * stride);
    }
    // A sync flush ends the band on a byte boundary with no final block, so bands deflated apart concatenate.
    const data = await deflateRaw(filtered, {
      level: LEVEL,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
      // Output in a few large pieces: the default 16 KB would call back to this thread for every 16 KB.
      chunkSize: 256 * 1024,
    });
    return { chunk: chunk('IDAT', data), adler: adler32(filtered), length: filtered.length };
  } finally {
    scratch.give(filtered);
  }
}

/**
 * Encodes `pixels` (RGB, `width` x `height`) as PNG. Rows outside [changedTop, changedBottom) must equal the
 * template's, whose bands `cache` keeps (made here from `template` when first needed).
 */
export async function encodeMockupPng(
  pixels: Buffer,
  template: Buffer,
  width: number,
  height: number,
  changed: { top: number; bottom: number } | null,
  cache: BandCache,
): Promise<Buffer> {
  const count = Math.ceil(height / BAND_ROWS);
  // Touched bands are deflated in a few runs (one per thread-pool thread, about), untouched ones come from the cache.
  const first = changed ? Math.max(0, Math.floor(changed.top / BAND_ROWS)) : count;
  const last = changed ? Math.min(count, Math.ceil(changed.bottom / BAND_ROWS)) : count;
  const pieces: Promise<Band>[] = [];
  for (let band = 0; band < first; band++) pieces.push(templateBand(template, width, height, band, cache));
  const runs = Math.min(4, Math.max(0, last - first));
  for (let r = 0; r < runs; r++) {
    const from = first + Math.floor(((last - first) * r) / runs);
    const to = first + Math.floor(((last - first) * (r + 1)) / runs);
    pieces.push(deflateRows(pixels, width, from * BAND_ROWS, Math.min(height, to * BAND_ROWS)));
  }
  for (let band = Math.max(first, last); band < count; band++) {
    pieces.push(templateBand(template, width, height, band, cache));
  }
  const bands = await Promise.all(pieces);
  let adler = 1;
  for (const band of bands) adler = adlerCombine(adler, band.adler, band.length);

  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  // A zlib header (deflate, 32 KB window, "fast" level) before the bands; a final empty block and the checksum after.
  const end = Buffer.from([0x03, 0x00, 0, 0, 0, 0]);
  end.writeUInt32BE(adler, 2);
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', Buffer.from([0x78, 0x5e])),
    ...bands.map((b) => b.chunk),
    chunk('IDAT', end),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function templateBand(template: Buffer, width: number, height: number, band: number, cache: BandCache) {
  let hit = cache.get(band);
  if (!hit) {
    hit = deflateRows(template, width, band * BAND_ROWS, Math.min(height, (band + 1) * BAND_ROWS));
    hit.catch(() => cache.delete(band));
    cache.set(band, hit);
  }
  return hit;
}
