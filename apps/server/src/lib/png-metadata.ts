import zlib from 'node:zlib';

/**
 * A PNG's ancillary chunks without trusting them: the compressed ones (zTXt, compressed iTXt, iCCP) are inflated
 * within one budget for the whole file (`PNG_METADATA_MAX_BYTES`), so a 1 MB file whose zTXt inflates to 1 GiB costs
 * a megabyte and is refused. The decode worker checks every PNG with it before sharp (libpng) reads the file, and
 * Analyze Image reads the file's words with it.
 */

/** What all of a PNG's compressed metadata may inflate to, together. */
export const PNG_METADATA_MAX_BYTES = 1024 * 1024;

/** A PNG whose compressed metadata inflates past the budget; `chunk` is the chunk type where it did. */
export class PngMetadataTooLarge extends Error {
  override name = 'PngMetadataTooLarge';
  constructor(
    readonly chunk: string,
    readonly limitBytes: number,
  ) {
    super(`its ${chunk} metadata inflates to more than ${limitBytes} bytes`);
  }
}

const COMPRESSED = new Set(['zTXt', 'iTXt', 'iCCP']);

/**
 * Walks the chunks of `png` and answers its text chunks (tEXt, zTXt, iTXt) by lower-case keyword. Every compressed
 * chunk is inflated (iCCP too, though its profile is not kept), all of them within `maxInflated` bytes together:
 * past that, PngMetadataTooLarge. A damaged compressed chunk is skipped (it says nothing).
 */
export function readPngMetadata(png: Buffer, maxInflated = PNG_METADATA_MAX_BYTES): Map<string, string> {
  const texts = new Map<string, string>();
  let budget = maxInflated;
  const inflate = (type: string, data: Buffer): Buffer | null => {
    try {
      // maxOutputLength stops zlib there: the bomb is never inflated further than the budget left.
      const out = zlib.inflateSync(data, { maxOutputLength: Math.max(1, budget + 1) });
      if (out.length > budget) throw new PngMetadataTooLarge(type, maxInflated);
      budget -= out.length;
      return out;
    } catch (error) {
      if (error instanceof PngMetadataTooLarge) throw error;
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new PngMetadataTooLarge(type, maxInflated);
      return null;
    }
  };
  let at = 8;
  while (at + 12 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, Math.min(png.length, at + 8 + length));
    at += 12 + length;
    if (type === 'IEND') break;
    if (type !== 'tEXt' && !COMPRESSED.has(type)) continue;
    const nul = data.indexOf(0);
    if (nul <= 0 || nul > 79) continue;
    const keyword = data.toString('latin1', 0, nul).toLowerCase();
    if (type === 'tEXt') texts.set(keyword, data.toString('latin1', nul + 1));
    else if (type === 'zTXt') {
      const text = inflate(type, data.subarray(nul + 2));
      if (text) texts.set(keyword, text.toString('latin1'));
    } else if (type === 'iCCP') inflate(type, data.subarray(nul + 2));
    else {
      const compressed = data[nul + 1] === 1;
      const lang = data.indexOf(0, nul + 3);
      const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
      if (translated < 0) continue;
      const raw = data.subarray(translated + 1);
      const text = compressed ? inflate(type, raw) : raw;
      if (text) texts.set(keyword, text.toString('utf8'));
    }
  }
  return texts;
}
