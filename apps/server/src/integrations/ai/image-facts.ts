import fsp from 'node:fs/promises';
import type { TImageAnalysis } from '@podforge/contract';
import sharp from 'sharp';
import { readPngMetadata } from '../../lib/png-metadata';
import { cleanDesignName } from './words';

/** Colour names a seller uses, with a typical value each; a pixel takes the name of the nearest one. */
const NAMED_COLOURS: readonly { name: string; rgb: [number, number, number] }[] = [
  { name: 'black', rgb: [0, 0, 0] },
  { name: 'charcoal', rgb: [54, 54, 58] },
  { name: 'grey', rgb: [128, 128, 128] },
  { name: 'silver', rgb: [192, 192, 192] },
  { name: 'white', rgb: [255, 255, 255] },
  { name: 'cream', rgb: [245, 235, 205] },
  { name: 'red', rgb: [220, 30, 30] },
  { name: 'dark red', rgb: [130, 20, 25] },
  { name: 'pink', rgb: [245, 150, 185] },
  { name: 'magenta', rgb: [215, 30, 150] },
  { name: 'orange', rgb: [245, 130, 30] },
  { name: 'brown', rgb: [120, 75, 40] },
  { name: 'tan', rgb: [205, 170, 125] },
  { name: 'yellow', rgb: [250, 215, 40] },
  { name: 'gold', rgb: [212, 165, 55] },
  { name: 'olive', rgb: [120, 120, 40] },
  { name: 'lime', rgb: [160, 215, 50] },
  { name: 'green', rgb: [40, 150, 60] },
  { name: 'dark green', rgb: [20, 75, 40] },
  { name: 'teal', rgb: [20, 140, 140] },
  { name: 'turquoise', rgb: [60, 210, 200] },
  { name: 'light blue', rgb: [140, 195, 240] },
  { name: 'blue', rgb: [35, 90, 210] },
  { name: 'navy', rgb: [20, 30, 90] },
  { name: 'purple', rgb: [120, 50, 170] },
  { name: 'lavender', rgb: [185, 160, 225] },
];

/** 'Redmean' distance: cheap, and closer to how colours look than plain RGB distance. */
function distance(a: readonly number[], b: readonly number[]): number {
  const r = ((a[0] as number) + (b[0] as number)) / 2;
  const dr = (a[0] as number) - (b[0] as number);
  const dg = (a[1] as number) - (b[1] as number);
  const db = (a[2] as number) - (b[2] as number);
  return (2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db;
}

export function colourName(rgb: readonly number[]): string {
  let best = NAMED_COLOURS[0] as (typeof NAMED_COLOURS)[number];
  for (const c of NAMED_COLOURS) if (distance(rgb, c.rgb) < distance(rgb, best.rgb)) best = c;
  return best.name;
}

const hex = (rgb: readonly number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** Relative luminance (0 black - 1 white) of an sRGB colour. */
function luminance([r, g, b]: readonly number[]): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r as number) + 0.7152 * lin(g as number) + 0.0722 * lin(b as number);
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** '4:5' for 4000x5000; a near-common ratio when the sides have no small common divisor. */
function aspectOf(width: number, height: number): string {
  const common: [number, number][] = [
    [1, 1],
    [4, 5],
    [5, 4],
    [3, 4],
    [4, 3],
    [2, 3],
    [3, 2],
    [9, 16],
    [16, 9],
    [1, 2],
    [2, 1],
  ];
  const g = gcd(width, height);
  if (width / g <= 20 && height / g <= 20) return `${width / g}:${height / g}`;
  const ratio = width / height;
  const near = common.find(([w, h]) => Math.abs(w / h - ratio) / ratio < 0.02);
  return near ? `${near[0]}:${near[1]}` : `${(ratio).toFixed(2)}:1`;
}

/** The design's own words about itself, from the file's metadata. */
export type ImageMetadata = TImageAnalysis['metadata'];

const clean = (text: string | undefined | null) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, 300) : null;
};

const decodeXml = (text: string) =>
  text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const keywordList = (text: string | null) =>
  (text ?? '')
    .split(/[,;]+/)
    .map((k) => k.trim().toLowerCase())
    .filter(Boolean)
    .slice(0, 20);

/**
 * What a file says about itself: PNG text chunks (Title, Description, Keywords, Comment), an SVG's <title> and
 * <desc>, a JPEG's XMP dc:title / dc:description / dc:subject. Run in the decode worker (see analyze-image-job.ts):
 * a PNG's compressed chunks are inflated within PNG_METADATA_MAX_BYTES in all (PngMetadataTooLarge past it).
 */
export async function readMetadata(
  file: { type: 'png' | 'jpeg' | 'svg' | 'pdf'; path: string } | { type: 'svg'; text: string },
): Promise<ImageMetadata> {
  const none: ImageMetadata = { title: null, description: null, keywords: [] };
  if ('text' in file) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(file.text)?.[1];
    const desc = /<desc[^>]*>([\s\S]*?)<\/desc>/i.exec(file.text)?.[1];
    return {
      title: clean(title ? decodeXml(title) : null),
      description: clean(desc ? decodeXml(desc) : null),
      keywords: [],
    };
  }
  if (file.type === 'png') {
    const chunks = readPngMetadata(await fsp.readFile(file.path));
    return {
      title: clean(chunks.get('title')),
      description: clean(chunks.get('description') ?? chunks.get('comment')),
      keywords: keywordList(clean(chunks.get('keywords'))),
    };
  }
  if (file.type !== 'jpeg') return none;
  // The header caps were checked before this runs; metadata() reads the header and segments, not the pixels.
  const meta = await sharp(file.path, { limitInputPixels: false }).metadata();
  const xmp = meta.xmp?.toString('utf8') ?? '';
  if (!xmp) return none;
  const field = (name: string) => {
    const block = new RegExp(`<dc:${name}[^>]*>([\\s\\S]*?)</dc:${name}>`, 'i').exec(xmp)?.[1] ?? '';
    const items = [...block.matchAll(/<rdf:li[^>]*>([\s\S]*?)<\/rdf:li>/gi)].map((m) => decodeXml(m[1] ?? '').trim());
    return items.length ? items : block ? [decodeXml(block).trim()] : [];
  };
  return {
    title: clean(field('title')[0]),
    description: clean(field('description')[0]),
    keywords: field('subject')
      .map((k) => k.toLowerCase())
      .filter(Boolean)
      .slice(0, 20),
  };
}

/**
 * Reads a design's picture: its dominant colours by name, how much of it is transparent, its proportions, and
 * whether it shows up on light or dark garments (a design of light colours disappears on a white shirt).
 * `picture` is the design's decoded picture as a PNG (its working copy: at most 2000 px a side), `size` the design's
 * own size in pixels, `name` its file name. Run in the decode worker (see analyze-image-job.ts).
 */
export async function readImageFacts(
  picture: string | Buffer,
  size: { width: number; height: number },
  name: string,
  metadata: ImageMetadata,
): Promise<TImageAnalysis> {
  const { width, height } = size;
  const { data, info } = await sharp(picture)
    .ensureAlpha()
    .resize(64, 64, { fit: 'inside', kernel: 'nearest' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const buckets = new Map<string, { count: number; sum: [number, number, number] }>();
  let visible = 0;
  let transparentPixels = 0;
  let lumSum = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const alpha = data[i + 3] as number;
    if (alpha < 128) {
      transparentPixels++;
      continue;
    }
    const rgb: [number, number, number] = [data[i] as number, data[i + 1] as number, data[i + 2] as number];
    visible++;
    lumSum += luminance(rgb);
    const colour = colourName(rgb);
    const bucket = buckets.get(colour) ?? { count: 0, sum: [0, 0, 0] };
    bucket.count++;
    bucket.sum = [bucket.sum[0] + rgb[0], bucket.sum[1] + rgb[1], bucket.sum[2] + rgb[2]];
    buckets.set(colour, bucket);
  }
  const total = info.width * info.height;
  const colors = [...buckets.entries()]
    .map(([colour, b]) => ({
      name: colour,
      hex: hex(b.sum.map((s) => s / b.count)),
      share: Math.round((b.count / Math.max(1, visible)) * 1000) / 1000,
    }))
    .filter((c) => c.share >= 0.05)
    .sort((a, b) => b.share - a.share)
    .slice(0, 4);
  const transparentShare = Math.round((transparentPixels / Math.max(1, total)) * 1000) / 1000;
  const meanLum = visible ? lumSum / visible : 0.5;
  const ratio = width / Math.max(1, height);
  return {
    width,
    height,
    orientation: Math.abs(ratio - 1) < 0.05 ? 'square' : ratio > 1 ? 'landscape' : 'portrait',
    aspect: width && height ? aspectOf(width, height) : '1:1',
    colors,
    transparentShare,
    transparent: transparentShare >= 0.02,
    // A design mostly light in colour needs a dark garment to be seen, and the other way round. An opaque design
    // (its own background) shows on either.
    garmentFit: transparentShare < 0.02 ? 'any' : meanLum > 0.6 ? 'dark' : meanLum < 0.3 ? 'light' : 'any',
    nameWords: cleanDesignName(name),
    metadata,
  };
}

/** The analysis in plain sentences, for a listing's first paragraph and a model's prompt. */
export function describeImage(facts: TImageAnalysis): string {
  const colours = facts.colors.map((c) => c.name);
  const colourText =
    colours.length === 0
      ? ''
      : colours.length === 1
        ? `in ${colours[0]}`
        : `in ${colours.slice(0, -1).join(', ')} and ${colours[colours.length - 1]}`;
  const shape = facts.orientation === 'square' ? 'square' : `${facts.orientation} (${facts.aspect})`;
  const background = facts.transparent ? 'on a transparent background' : 'with its own background';
  const fit =
    facts.garmentFit === 'light'
      ? ' It shows up best on light colours.'
      : facts.garmentFit === 'dark'
        ? ' It shows up best on dark colours.'
        : '';
  return `A ${shape} design ${colourText} ${background}.${fit}`.replace(/\s+/g, ' ').replace(' .', '.');
}
