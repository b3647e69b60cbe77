import zlib from 'node:zlib';
import sharp from 'sharp';
import { pdfDocument } from '../../src/modules/designs/pdf-document';

/** Small real files of every accepted type, and hostile ones, made on the fly. */
export const pngOf = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
    .png()
    .toBuffer();

export const jpegOf = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

export const svgOf = (width: number, height: number, inner = '') =>
  Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#3366cc"/>${inner}</svg>`,
  );

/**
 * A valid one-page PDF with a blue filled rectangle 10 pt inside its edges; the page is `width` x `height` points.
 * The margin is painted by nothing (transparent), or with `whitePage` by a white rectangle over the whole page.
 */
export function pdfOf(width: number, height: number, options: { whitePage?: boolean } = {}): Buffer {
  const page = options.whitePage ? `1 1 1 rg 0 0 ${width} ${height} re f ` : '';
  const content = `${page}0 0 1 rg 10 10 ${width - 20} ${height - 20} re f`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  return Buffer.from(pdfDocument(objects), 'latin1');
}

/**
 * A one-page PDF (`side` x `side` points) whose art is one embedded raster image of `pixels` x `pixels` (solid
 * orange, uncompressed RGB) drawn over the whole page: a raster PDF, rated by its pixels.
 */
export function rasterPdfOf(side: number, pixels: number): Buffer {
  const image = Buffer.alloc(pixels * pixels * 3);
  for (let i = 0; i < image.length; i += 3) image.set([240, 130, 20], i);
  const content = `q ${side} 0 0 ${side} 0 0 cm /Im1 Do Q`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${side} ${side}] /Contents 4 0 R /Resources << /XObject << /Im1 5 0 R >> >> >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width ${pixels} /Height ${pixels} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Length ${image.length} >>\nstream\n${image.toString('latin1')}\nendstream`,
  ];
  return Buffer.from(pdfDocument(objects), 'latin1');
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG whose header claims width x height but whose data is a few bytes: a pixel bomb of a few KB. */
export function pixelBombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = zlib.deflateSync(Buffer.alloc((width + 1) * 4));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A zlib stream that inflates to `bytes` zeros, made without ever holding them: 1 MiB blocks deflated once and
 * repeated (each ends on a sync flush, so they chain), a final empty block, and the Adler-32 of n zeros. 1 GiB
 * comes to about 1 MB.
 */
export function zerosZlib(bytes: number): Buffer {
  const MIB = 1024 * 1024;
  const raw = (n: number) =>
    zlib.deflateRawSync(Buffer.alloc(n), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  const whole = Math.floor(bytes / MIB);
  const block = raw(MIB);
  const parts: Buffer[] = [Buffer.from([0x78, 0xda])];
  for (let i = 0; i < whole; i++) parts.push(block);
  if (bytes % MIB) parts.push(raw(bytes % MIB));
  // A final fixed-Huffman block holding only its end marker.
  parts.push(Buffer.from([0x03, 0x00]));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  parts.push(adler);
  return Buffer.concat(parts);
}

/** A real 16x16 PNG with a zTXt Comment chunk that inflates to `inflatedBytes` (issue 25: 1 GiB in 1 MB). */
export function zTxtBombPng(inflatedBytes: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(16, 0);
  ihdr.writeUInt32BE(16, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), zerosZlib(inflatedBytes)])),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(17 * 16))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real, whole `size` x `size` RGBA PNG at 16 bits, all zero: about 0.5 MB that decodes to 338 MB at 6500 px. */
export function sixteenBitPng(size: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 16;
  ihdr[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zerosZlib(size * (1 + size * 8))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export type Part = { field: string; filename: string; content: Buffer; contentType?: string };
/** A text field (no file name). */
export type TextPart = { field: string; value: string };

/** A multipart/form-data body for app.inject. */
export function multipart(parts: (Part | TextPart)[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----podforge${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      pieces.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`),
      );
      continue;
    }
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(pieces), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
