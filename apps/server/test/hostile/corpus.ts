import zlib from 'node:zlib';
import sharp from 'sharp';
import { pdfDocument } from '../../src/modules/designs/pdf-document';
import { jpegOf, pdfOf, pngOf, sixteenBitPng, svgOf, zerosZlib, zTxtBombPng } from '../support/design-fixtures';

const MIB = 1024 * 1024;

/**
 * The hostile corpus: files made on the fly (nothing big is committed) that try to take the upload pipeline down —
 * pixel bombs, SVG work bombs, deep nesting, polyglots, truncated and bit-flipped images and PDFs, oversize files
 * and odd names. `expect` says what a correct server answers: 'refused' (a 4xx, with `reason` in its text when
 * given), 'accepted' (201), or 'either' (a file that is legal by the caps but costly or damaged: accepted, or
 * refused at a limit, but never a 5xx and never slow).
 */
export type HostileFile = {
  name: string;
  kind: string;
  expect: 'refused' | 'accepted' | 'either';
  reason?: RegExp;
  make: () => Buffer | Promise<Buffer>;
};

/** A small seeded PRNG (mulberry32), so a run is repeatable. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A PNG whose header says width x height at `bitDepth` and `colorType`, with `rows` as its (small) pixel data. */
export function pngHeaderOnly(
  width: number,
  height: number,
  bitDepth = 8,
  colorType = 0,
  idat: Buffer = zlib.deflateSync(Buffer.alloc(64)),
  extra: Buffer[] = [],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width >>> 0, 0);
  ihdr.writeUInt32BE(height >>> 0, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType;
  const plte = colorType === 3 ? [chunk('PLTE', Buffer.alloc(3 * 16, 0x80))] : [];
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...plte,
    ...extra,
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real 1-bit greyscale PNG of width x height, all zero: a few KB that decode to width x height pixels. */
function oneBitBomb(width: number, height: number): Buffer {
  const rowBytes = 1 + Math.ceil(width / 8);
  return pngHeaderOnly(width, height, 1, 0, zlib.deflateSync(Buffer.alloc(rowBytes * height), { level: 9 }));
}

/** A JPEG whose frame header is rewritten to claim width x height. */
async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await jpegOf(16, 16));
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(height, i + 5);
      jpeg.writeUInt16BE(width, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF in the sample JPEG');
}

const SVG_OPEN = (attrs = 'width="200" height="200" viewBox="0 0 200 200"') =>
  `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attrs}>`;

function svg(body: string, attrs?: string): Buffer {
  return Buffer.from(`${SVG_OPEN(attrs)}${body}</svg>`);
}

/** A PDF of `pages` pages of width x height points (one content stream shared). */
function pdfPages(pages: number, width: number, height: number, content = '0 0 1 rg 10 10 50 50 re f'): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  for (let i = 0; i < pages; i++) {
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 3 0 R >>`);
  }
  return Buffer.from(pdfDocument(objects), 'latin1');
}

/** A nested SVG document as a data: URL, which librsvg would render unsanitised if it ever got it. */
const NESTED = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>',
).toString('base64')}`;

/**
 * Issue 25: references hidden from a plain `url(` check by CSS escapes, XML entities and comments, in attributes, a
 * style attribute, a <style> sheet and links. Each is refused, naming what it carries.
 */
export function cssEscapedSvgs(): HostileFile[] {
  const cases: [string, string][] = [
    ['svg-css-escape.svg', `<rect width="10" height="10" fill="u\\72l(${NESTED})"/>`],
    ['svg-css-escape-6.svg', `<rect width="10" height="10" fill="\\000075rl(${NESTED})"/>`],
    ['svg-css-escape-paren.svg', `<rect width="10" height="10" fill="url\\28 ${NESTED})"/>`],
    ['svg-entity-url.svg', `<rect width="10" height="10" fill="&#x75;rl(${NESTED})"/>`],
    ['svg-comment-url.svg', `<rect width="10" height="10" fill="url(/**/'${NESTED}')"/>`],
    ['svg-comment-name.svg', `<rect width="10" height="10" filter="ur/**/l(${NESTED})"/>`],
    ['svg-style-attr-escape.svg', `<rect width="10" height="10" style="fill:u\\72l(${NESTED})"/>`],
    ['svg-style-sheet-escape.svg', `<style>rect{fill:u\\72l(${NESTED})}</style><rect width="10" height="10"/>`],
    ['svg-image-data.svg', `<image href="${NESTED}" width="10" height="10"/>`],
    ['svg-xlink-entity.svg', `<image xlink:href="&#100;ata:image/png;base64,AAAA" width="10" height="10"/>`],
    ['svg-mask-external.svg', `<rect width="10" height="10" mask="url(http://198.51.100.7/m.svg#m)"/>`],
    ['svg-xml-stylesheet.svg', ''],
  ];
  return cases.map(([name, body]) => ({
    name,
    kind: 'css-escaped reference',
    expect: 'refused' as const,
    reason:
      /was refused: it contains (a url\(\) that is not a fragment|a link that is not a fragment|a <style> element|an xml-stylesheet)/,
    make: () =>
      name === 'svg-xml-stylesheet.svg'
        ? Buffer.from(
            `<?xml-stylesheet type="text/css" href="${NESTED}"?>${SVG_OPEN()}<rect width="10" height="10"/></svg>`,
          )
        : svg(body),
  }));
}

/** The named bombs: each kind the issue lists, once. */
export function namedBombs(): HostileFile[] {
  const million = () => {
    const parts: string[] = ['M0 0'];
    for (let i = 1; i < 1_000_000; i++) parts.push(`L${i % 200} ${(i * 7) % 200}`);
    return svg(`<path d="${parts.join(' ')}" stroke="black" fill="none"/>`);
  };
  const circles = (n: number) => {
    const body: string[] = [];
    for (let i = 0; i < n; i++) body.push(`<circle cx="${i % 200}" cy="${(i * 3) % 200}" r="2"/>`);
    return svg(body.join(''));
  };
  const chainedFilters = () => {
    const fe: string[] = [];
    for (let i = 0; i < 200; i++)
      fe.push(`<feGaussianBlur stdDeviation="5" in="${i ? `b${i - 1}` : 'SourceGraphic'}" result="b${i}"/>`);
    return svg(`<defs><filter id="f">${fe.join('')}</filter></defs><rect width="200" height="200" filter="url(#f)"/>`);
  };
  const nested = (depth: number) => svg(`${'<g>'.repeat(depth)}<rect width="10" height="10"/>${'</g>'.repeat(depth)}`);
  const useBomb = () => {
    let defs = '<g id="l0"><rect width="1" height="1"/></g>';
    for (let i = 1; i < 10; i++) {
      defs += `<g id="l${i}">${Array.from({ length: 10 }, (_, k) => `<use xlink:href="#l${i - 1}" x="${k}"/>`).join('')}</g>`;
    }
    return svg(`<defs>${defs}</defs><use xlink:href="#l9"/>`);
  };
  return [
    {
      name: 'bomb-1bit-10000x10000.png',
      kind: 'pixel bomb',
      expect: 'either',
      make: () => oneBitBomb(10_000, 10_000),
    },
    {
      name: 'bomb-1x100000000.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /side of 100,000,000 pixels; the limit is 20,000/,
      make: () => pngHeaderOnly(1, 100_000_000),
    },
    {
      name: 'bomb-100000000x1.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /side of 100,000,000 pixels; the limit is 20,000/,
      make: () => pngHeaderOnly(100_000_000, 1),
    },
    {
      name: 'bomb-16bit-8000x8000.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /8,000x8,000 pixels at 16 bits and 4 channels, 488 MB once decoded; the limit is 400 MB/,
      make: () => pngHeaderOnly(8000, 8000, 16, 6),
    },
    {
      name: 'bomb-2pow31.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /46,341x46,341 pixels/,
      make: () => pngHeaderOnly(46_341, 46_341),
    },
    {
      name: 'bomb-20000x20000.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /400 megapixels\); the limit is 100 megapixels/,
      make: () => pngHeaderOnly(20_000, 20_000),
    },
    {
      name: 'bomb-palette-10000x10000.png',
      kind: 'pixel bomb',
      expect: 'either',
      make: () => pngHeaderOnly(10_000, 10_000, 8, 3),
    },
    {
      name: 'bomb-zero-size.png',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /no image size/,
      make: () => pngHeaderOnly(0, 0),
    },
    // Issue 25: metadata that inflates far past its file. 1 MB is the cap for all compressed chunks together.
    {
      name: 'bomb-ztxt.png',
      kind: 'metadata bomb',
      expect: 'refused',
      reason: /metadata \(zTXt chunks\) that inflates to more than 1 MB; the limit is 1 MB/,
      make: () => zTxtBombPng(1024 ** 3),
    },
    {
      name: 'bomb-itxt.png',
      kind: 'metadata bomb',
      expect: 'refused',
      reason: /metadata \(iTXt chunks\)/,
      make: () =>
        pngHeaderOnly(16, 16, 8, 0, zlib.deflateSync(Buffer.alloc(17 * 16)), [
          chunk('iTXt', Buffer.concat([Buffer.from('Description\0\x01\0en\0\0', 'latin1'), zerosZlib(256 * MIB)])),
        ]),
    },
    {
      name: 'bomb-iccp.png',
      kind: 'metadata bomb',
      expect: 'refused',
      reason: /metadata \(iCCP chunks\)/,
      make: () =>
        pngHeaderOnly(16, 16, 8, 0, zlib.deflateSync(Buffer.alloc(17 * 16)), [
          chunk('iCCP', Buffer.concat([Buffer.from('icc\0\0', 'latin1'), zerosZlib(256 * MIB)])),
        ]),
    },
    {
      // Many small zTXt chunks, each under the cap, over it together.
      name: 'bomb-ztxt-many.png',
      kind: 'metadata bomb',
      expect: 'refused',
      reason: /metadata \(zTXt chunks\)/,
      make: () => {
        const one = chunk('zTXt', Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), zerosZlib(512 * 1024)]));
        return pngHeaderOnly(16, 16, 8, 0, zlib.deflateSync(Buffer.alloc(17 * 16)), Array(40).fill(one));
      },
    },
    {
      // 0.5 MB, legal by the caps (338 MB decoded; the limit is 400 MB): decoded in the pool, within its limits.
      name: 'deep-16bit-6500x6500.png',
      kind: 'pixel bomb',
      expect: 'either',
      make: () => sixteenBitPng(6500),
    },
    {
      name: 'bomb-65500x65500.jpg',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /65,500x65,500 pixels/,
      make: () => jpegClaiming(65_500, 65_500),
    },
    {
      name: 'bomb-jpeg-zero-height.jpg',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /no image size/,
      make: () => jpegClaiming(100, 0),
    },
    {
      name: 'svg-million-points.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /has 1,000,000 path points; the limit is 250,000/,
      make: million,
    },
    {
      name: 'svg-200000-elements.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /has 200,000 elements; the limit is 20,000/,
      make: () => circles(199_999),
    },
    {
      name: 'svg-200-filters.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /has 200 filter effects; the limit is 50/,
      make: chainedFilters,
    },
    {
      name: 'svg-5000-nested.svg',
      kind: 'deep nesting',
      expect: 'refused',
      reason: /nests elements 5,002 deep; the limit is 100/,
      make: () => nested(5000),
    },
    {
      name: 'svg-5mb-attribute.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /an attribute of 5,000,000 characters; the limit is 1,000,000/,
      make: () => svg(`<rect width="10" height="10" class="${'a'.repeat(5_000_000)}"/>`),
    },
    {
      name: 'svg-huge-font.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /font size of 1,000,000 pixels; the limit is 5,000/,
      make: () => svg('<text x="0" y="100" font-size="1000000">W</text>'),
    },
    {
      name: 'svg-huge-font-style.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /font size of 900,000 pixels/,
      make: () => svg('<text x="0" y="100" style="font-size: 900000px">W</text>'),
    },
    {
      name: 'svg-100000x100000.svg',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /side of 100,000 pixels/,
      make: () => svg('<rect width="10" height="10"/>', 'width="100000" height="100000"'),
    },
    {
      name: 'svg-viewbox-only.svg',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /side of 1,000,000,000 pixels/,
      make: () => svg('<rect width="10" height="10"/>', 'viewBox="0 0 1000000000 1000000000"'),
    },
    {
      name: 'svg-no-size.svg',
      kind: 'svg',
      expect: 'refused',
      reason: /has no size/,
      make: () => svg('<rect width="10" height="10"/>', ''),
    },
    {
      name: 'svg-billion-laughs.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /DOCTYPE or entities/,
      make: () => {
        let ents = '<!ENTITY l0 "lol">';
        for (let i = 1; i < 10; i++) ents += `<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`;
        return Buffer.from(`<?xml version="1.0"?><!DOCTYPE svg [${ents}]>${SVG_OPEN()}<text>&l9;</text></svg>`);
      },
    },
    { name: 'svg-use-bomb.svg', kind: 'svg work bomb', expect: 'either', make: useBomb },
    {
      name: 'svg-blur-huge.svg',
      kind: 'svg work bomb',
      expect: 'either',
      make: () =>
        svg(
          '<defs><filter id="f" x="-50" y="-50" width="100" height="100"><feGaussianBlur stdDeviation="100000"/></filter></defs><rect width="2000" height="2000" filter="url(#f)"/>',
          'width="4000" height="4000"',
        ),
    },
    {
      name: 'svg-pattern-tiles.svg',
      kind: 'svg work bomb',
      expect: 'either',
      make: () =>
        svg(
          '<defs><pattern id="p" width="0.01" height="0.01" patternUnits="userSpaceOnUse"><rect width="0.005" height="0.005"/></pattern></defs><rect width="8000" height="8000" fill="url(#p)"/>',
          'width="8000" height="8000"',
        ),
    },
    {
      name: 'svg-1mb-text.svg',
      kind: 'svg work bomb',
      expect: 'refused',
      reason: /1,000,000 characters of text; the limit is 20,000/,
      make: () => svg(`<text x="0" y="20">${'W'.repeat(1_000_000)}</text>`),
    },
    {
      name: 'svg-script.svg',
      kind: 'active content',
      expect: 'refused',
      reason: /script/,
      make: () => svg('<script>alert(1)</script>'),
    },
    {
      name: 'svg-external-image.svg',
      kind: 'active content',
      expect: 'refused',
      reason: /not a fragment/,
      make: () => svg('<image href="http://198.51.100.7/x.png" width="10" height="10"/>'),
    },
    ...cssEscapedSvgs(),
    {
      name: 'svg-broken.svg',
      kind: 'truncated',
      expect: 'refused',
      reason: /not well-formed SVG/,
      make: () => Buffer.from(`${SVG_OPEN()}<rect width="10" height=`),
    },
    {
      name: 'pdf-huge-page.pdf',
      kind: 'pixel bomb',
      expect: 'refused',
      reason: /page of 100,000x100,000 points; the limit is 14,400 points a side/,
      make: () => pdfPages(1, 100_000, 100_000),
    },
    {
      name: 'pdf-5000-pages.pdf',
      kind: 'pdf bomb',
      expect: 'refused',
      reason: /has 5,000 pages; the limit is 100/,
      make: () => pdfPages(5000, 200, 200),
    },
    {
      name: 'pdf-million-ops.pdf',
      kind: 'pdf bomb',
      expect: 'either',
      make: () =>
        pdfPages(1, 600, 600, Array.from({ length: 200_000 }, (_, i) => `${i % 500} ${i % 400} 3 3 re f`).join('\n')),
    },
    {
      name: 'polyglot-png-zip.png',
      kind: 'polyglot',
      expect: 'accepted',
      make: async () => Buffer.concat([await pngOf(32, 32), Buffer.from('PK\u0003\u0004 not really a zip')]),
    },
    {
      name: 'polyglot-png-html.png',
      kind: 'polyglot',
      expect: 'accepted',
      make: async () => Buffer.concat([await pngOf(32, 32), Buffer.from('<html><script>alert(1)</script></html>')]),
    },
    {
      name: 'polyglot-gif.png',
      kind: 'renamed type',
      expect: 'refused',
      reason: /not a PNG, JPEG, SVG or PDF/,
      make: () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .gif()
          .toBuffer(),
    },
    {
      name: 'polyglot-html.svg',
      kind: 'renamed type',
      expect: 'refused',
      reason: /not a PNG, JPEG, SVG or PDF/,
      make: () => Buffer.from('<!doctype html><html><body onload="alert(1)"></body></html>'),
    },
    {
      name: 'polyglot-svg-as.png',
      kind: 'renamed type',
      expect: 'refused',
      reason: /SVG file by its content/,
      make: () => svgOf(10, 10),
    },
    {
      name: 'polyglot-pdf-js.pdf',
      kind: 'polyglot',
      expect: 'either',
      make: () =>
        Buffer.from(
          pdfOf(100, 100)
            .toString('latin1')
            .replace('/Type /Catalog', '/Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >>'),
          'latin1',
        ),
    },
    { name: 'empty.png', kind: 'truncated', expect: 'refused', reason: /empty/, make: () => Buffer.alloc(0) },
  ];
}

/** Files with odd names around a valid PNG, JPEG or SVG. */
export function oddNames(): HostileFile[] {
  const png = () => pngOf(24, 24);
  return [
    { name: '../../../etc/passwd.png', kind: 'odd name', expect: 'accepted', make: png },
    { name: `${'a'.repeat(400)}.png`, kind: 'odd name', expect: 'accepted', make: png },
    { name: 'ünïcødé 設計 🎨.png', kind: 'odd name', expect: 'accepted', make: png },
    { name: 'CON.png', kind: 'odd name', expect: 'accepted', make: png },
    { name: 'UPPER.PNG', kind: 'odd name', expect: 'accepted', make: png },
    { name: 'tab\tin\tname.png', kind: 'odd name', expect: 'accepted', make: png },
    { name: 'double.svg.png', kind: 'odd name', expect: 'accepted', make: png },
    { name: 'no-extension', kind: 'odd name', expect: 'refused', reason: /name ends in/, make: png },
    { name: 'photo.jpeg.exe', kind: 'odd name', expect: 'refused', reason: /name ends in/, make: () => jpegOf(8, 8) },
    { name: 'semi;colon, comma.svg', kind: 'odd name', expect: 'accepted', make: () => svgOf(10, 10) },
  ];
}

/** `count` damaged copies of small valid files: cut at a random point, or with 1 to 16 random bytes changed. */
export async function mutations(count: number, seed = 14): Promise<HostileFile[]> {
  const rand = random(seed);
  const bases: { ext: string; data: Buffer }[] = [
    { ext: 'png', data: await pngOf(64, 48) },
    { ext: 'jpg', data: await jpegOf(64, 48) },
    { ext: 'svg', data: svgOf(64, 48, '<circle cx="20" cy="20" r="10" fill="red"/><path d="M0 0 L10 10 L20 0 Z"/>') },
    { ext: 'pdf', data: pdfOf(120, 90) },
  ];
  const out: HostileFile[] = [];
  for (let i = 0; i < count; i++) {
    const base = bases[i % bases.length] as { ext: string; data: Buffer };
    const truncate = rand() < 0.4;
    const data = Buffer.from(base.data);
    let kind: string;
    let made: Buffer;
    if (truncate) {
      kind = 'truncated';
      made = data.subarray(0, 1 + Math.floor(rand() * (data.length - 1)));
    } else {
      kind = 'bit-flipped';
      const flips = 1 + Math.floor(rand() * 16);
      for (let f = 0; f < flips; f++) {
        const at = Math.floor(rand() * data.length);
        data[at] = (data[at] as number) ^ (1 << Math.floor(rand() * 8));
      }
      made = data;
    }
    out.push({ name: `${kind}-${i}.${base.ext}`, kind, expect: 'either', make: () => made });
  }
  return out;
}

/** Over the size limit of each call: 413 naming the limit. */
export function oversize(limitBytes: number): HostileFile {
  return {
    name: 'oversize.png',
    kind: 'oversize',
    expect: 'refused',
    reason: /is larger than/,
    make: async () => Buffer.concat([await pngOf(8, 8), Buffer.alloc(limitBytes, 0x20)]),
  };
}
