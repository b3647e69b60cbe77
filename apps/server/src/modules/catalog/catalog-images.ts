import path from 'node:path';
import type { TMockupColor } from '@podforge/contract';
import sharp from 'sharp';
import { isPhotoType, type PhotoType } from '../../integrations/printful/catalog/bundled';
import type { ProductSeed } from '../../integrations/printful/catalog/products';
import { DiskRenderCache } from '../../lib/disk-render-cache';
import {
  mug,
  TEMPLATE_DRAWING_VERSION,
  TEMPLATE_HEIGHT,
  TEMPLATE_SETS,
  TEMPLATE_WIDTH,
} from '../../lib/mockup-templates';

/**
 * Catalogue pictures of t-shirts, hoodies, mugs and posters are the mockup templates' front views, drawn in the
 * catalogue colour's own hex and rendered to PNG. Bump when the framing or the size here changes (a changed template
 * drawing is caught by TEMPLATE_DRAWING_VERSION, also part of the cache key).
 */
export const CATALOG_IMAGE_VERSION = 1;
export const CATALOG_IMAGE_WIDTH = 600;
export const CATALOG_IMAGE_HEIGHT = 750;

const HEX = /^#[0-9a-f]{6}$/;

/** What a picture shows: the template view, the colour and, for a mug with a coloured inside, the accent. */
export type PhotoSpec = { type: PhotoType; view: string; hex: string; accent?: string };

/** Garment drawings are centred on x 250 (the design areas' centre); the catalogue card centres the garment. */
const SHIFT_X: Record<PhotoType, number> = { tshirt: 50, hoodie: 50, mug: 0, poster: 0 };

export function photoSpec(seed: ProductSeed, colourHex: string): PhotoSpec | null {
  if (!isPhotoType(seed.type)) return null;
  const colour = colourHex.toLowerCase();
  if (!HEX.test(colour)) return null;
  const body = seed.bodyHex?.toLowerCase();
  switch (seed.type) {
    case 'tshirt':
      return { type: 'tshirt', view: 'tshirt-front', hex: colour };
    case 'hoodie':
      return { type: 'hoodie', view: 'hoodie-front', hex: colour };
    case 'mug':
      return body && HEX.test(body) && body !== colour
        ? { type: 'mug', view: 'mug-right', hex: body, accent: colour }
        : { type: 'mug', view: 'mug-right', hex: colour };
    case 'poster':
      // A framed poster shows its frame colour; a print without a frame is pinned to the wall.
      return seed.name.toLowerCase().includes('framed')
        ? { type: 'poster', view: 'poster-framed', hex: colour }
        : { type: 'poster', view: 'poster-pinned', hex: '#ffffff' };
  }
}

/** The template drawing as a 400 x 500 SVG, framed for a catalogue card. */
export function photoSvg(spec: PhotoSpec, label?: string): string {
  const color: TMockupColor = { id: spec.hex.slice(1), name: spec.hex, hex: spec.hex };
  const svg =
    spec.type === 'mug'
      ? mug(spec.view === 'mug-left' ? 'left' : 'right')(color, spec.accent)
      : TEMPLATE_SETS[spec.type].templates.find((t) => t.id === spec.view)?.svg(color);
  if (!svg) throw new Error(`no template ${spec.view}`);
  const dx = SHIFT_X[spec.type];
  const edits: [string, string][] = [
    [
      `width="${TEMPLATE_WIDTH}" height="${TEMPLATE_HEIGHT}" viewBox="0 0 400 500"`,
      `width="400" height="500" viewBox="${dx} 0 400 500"${label ? ` role="img" aria-label="${label.replace(/[<>&"']/g, '')}"` : ''}`,
    ],
    [
      '<rect width="400" height="500" fill="url(#backdrop)"/>',
      `<rect x="${dx}" width="400" height="500" fill="url(#backdrop)"/>`,
    ],
  ];
  return edits.reduce((out, [from, to]) => {
    if (!out.includes(from)) throw new Error(`template ${spec.view} changed its frame: ${from}`);
    return out.replace(from, to);
  }, svg);
}

/** The most colours a product's range picture shows (3 x 3). */
export const RANGE_MAX_COLOURS = 9;

/**
 * Where each colour of a range picture sits: a grid of 4:5 tiles as large as fit the picture, centred. Products
 * differ in their colours, so each product's picture is its own (#28: every tee showed the same white tee).
 */
export function rangeTiles(count: number): { left: number; top: number; width: number; height: number }[] {
  const n = Math.min(count, RANGE_MAX_COLOURS);
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const width = Math.floor(Math.min(CATALOG_IMAGE_WIDTH / cols, ((CATALOG_IMAGE_HEIGHT / rows) * 4) / 5));
  const height = Math.floor((width * 5) / 4);
  const x0 = Math.floor((CATALOG_IMAGE_WIDTH - cols * width) / 2);
  const y0 = Math.floor((CATALOG_IMAGE_HEIGHT - rows * height) / 2);
  return Array.from({ length: n }, (_, i) => ({
    left: x0 + (i % cols) * width,
    top: y0 + Math.floor(i / cols) * height,
    width,
    height,
  }));
}

/**
 * PNG renders cached on disk under `dir/v<template version>.<catalogue version>` (they survive restarts), keyed by
 * what they show, so products sharing a colour share a render. Concurrent requests for one render share the job.
 */
export class CatalogImageStore {
  private readonly cache = new DiskRenderCache();

  constructor(private readonly dir: string) {}

  private file(spec: PhotoSpec): string {
    const name = [spec.view, spec.hex.slice(1), spec.accent?.slice(1)].filter(Boolean).join('-');
    return path.join(this.dir, `v${TEMPLATE_DRAWING_VERSION}.${CATALOG_IMAGE_VERSION}`, `${name}.png`);
  }

  /**
   * A product's colour range (its catalogue colours, at most 9, in catalogue order) as one picture: each colour's
   * own render, tiled. The Product Picker's card picture.
   */
  rangePng(productId: number, specs: readonly PhotoSpec[]): Promise<Buffer> {
    const file = path.join(this.dir, `v${TEMPLATE_DRAWING_VERSION}.${CATALOG_IMAGE_VERSION}`, `range-${productId}.png`);
    return this.cache.getOrRender(file, async () => {
      const tiles = rangeTiles(specs.length);
      const layers = await Promise.all(
        // Each tile drawn at its own size: a range costs about what one full-size picture does.
        tiles.map(async (tile, i) => ({
          input: await sharp(Buffer.from(photoSvg(specs[i] as PhotoSpec)), { density: (72 * tile.width) / 400 })
            .resize(tile.width, tile.height)
            .png()
            .toBuffer(),
          left: tile.left,
          top: tile.top,
        })),
      );
      return sharp({
        create: { width: CATALOG_IMAGE_WIDTH, height: CATALOG_IMAGE_HEIGHT, channels: 3, background: '#eef0f3' },
      })
        .composite(layers)
        .png({ compressionLevel: 9, adaptiveFiltering: true })
        .toBuffer();
    });
  }

  png(spec: PhotoSpec): Promise<Buffer> {
    return this.cache.getOrRender(this.file(spec), () =>
      sharp(Buffer.from(photoSvg(spec)), { density: (72 * CATALOG_IMAGE_WIDTH) / 400 })
        .resize(CATALOG_IMAGE_WIDTH, CATALOG_IMAGE_HEIGHT)
        .png({ compressionLevel: 9, adaptiveFiltering: true })
        .toBuffer(),
    );
  }
}
