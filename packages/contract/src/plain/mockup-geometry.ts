/**
 * The one placement model shared by the browser preview (canvas) and the server renderer (sharp), so what the
 * seller sees is what is rendered. Pure functions only: no DOM, no sharp. All inputs are in the spec's 400x500
 * canvas space; `factor` converts canvas units into output pixels (1 for the preview, 5 for a 2000x2500 template).
 */

export const MOCKUP_CANVAS = { width: 400, height: 500 } as const;

export type Rect = { x: number; y: number; width: number; height: number };

export type MockupAdjustments = {
  /** Percent of the size that fits the design area. */
  scale: number;
  /** Degrees, clockwise. */
  rotation: number;
  /** Offset of the design's centre from the design area's centre, in canvas units. */
  x: number;
  y: number;
  /** Percent. */
  opacity: number;
};

/** Spec section 5 'Sliders'. */
export const ADJUSTMENT_LIMITS = {
  scale: { min: 10, max: 200, step: 5 },
  rotation: { min: -180, max: 180, step: 5 },
  x: { min: -100, max: 100, step: 1 },
  y: { min: -100, max: 100, step: 1 },
  opacity: { min: 10, max: 100, step: 5 },
} as const satisfies Record<keyof MockupAdjustments, { min: number; max: number; step: number }>;

export const DEFAULT_ADJUSTMENTS: MockupAdjustments = { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 };

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Brings every adjustment into its slider's range (a non-number becomes the default). */
export function clampAdjustments(input: Partial<MockupAdjustments>): MockupAdjustments {
  const out = { ...DEFAULT_ADJUSTMENTS };
  for (const key of Object.keys(ADJUSTMENT_LIMITS) as (keyof MockupAdjustments)[]) {
    const value = input[key];
    const { min, max } = ADJUSTMENT_LIMITS[key];
    out[key] = typeof value === 'number' && Number.isFinite(value) ? clamp(value, min, max) : DEFAULT_ADJUSTMENTS[key];
  }
  return out;
}

/** The largest size with the design's aspect ratio that fits inside `box` (CSS `object-fit: contain`). */
export function fitContain(box: { width: number; height: number }, image: { width: number; height: number }) {
  const ratio = Math.min(box.width / image.width, box.height / image.height);
  return { width: image.width * ratio, height: image.height * ratio };
}

/** Width and height of the axis-aligned box around a w x h rectangle rotated by `degrees`. */
export function rotatedBounds(width: number, height: number, degrees: number) {
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(rad));
  const sin = Math.abs(Math.sin(rad));
  return { width: width * cos + height * sin, height: width * sin + height * cos };
}

export function intersectRects(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  if (right <= x || bottom <= y) return null;
  return { x, y, width: right - x, height: bottom - y };
}

export type Placement = {
  /** The design area in output pixels: the design is clipped to it. */
  clip: Rect;
  /** Size the design is drawn at, before rotation, in output pixels. */
  width: number;
  height: number;
  /** Centre of the drawn design in output pixels. */
  centerX: number;
  centerY: number;
  rotation: number;
  /** 0..1 */
  opacity: number;
  /** Axis-aligned box of the rotated design in output pixels. */
  bounds: Rect;
};

/**
 * Where and how a design is drawn: fitted into the design area, scaled, moved by the offset, rotated around its
 * centre, faded by the opacity and clipped to the design area.
 */
export function computePlacement(options: {
  area: Rect;
  design: { width: number; height: number };
  adjustments: Partial<MockupAdjustments>;
  /** Output pixels per canvas unit. */
  factor?: number;
  /** Where the canvas origin lands in the output (the print file puts the design area at 0,0). */
  origin?: { x: number; y: number };
}): Placement {
  const factor = options.factor ?? 1;
  const origin = options.origin ?? { x: 0, y: 0 };
  const adj = clampAdjustments(options.adjustments);
  const clip: Rect = {
    x: (options.area.x - origin.x) * factor,
    y: (options.area.y - origin.y) * factor,
    width: options.area.width * factor,
    height: options.area.height * factor,
  };
  const fitted = fitContain(clip, options.design);
  const width = fitted.width * (adj.scale / 100);
  const height = fitted.height * (adj.scale / 100);
  const centerX = clip.x + clip.width / 2 + adj.x * factor;
  const centerY = clip.y + clip.height / 2 + adj.y * factor;
  const rb = rotatedBounds(width, height, adj.rotation);
  return {
    clip,
    width,
    height,
    centerX,
    centerY,
    rotation: adj.rotation,
    opacity: adj.opacity / 100,
    bounds: { x: centerX - rb.width / 2, y: centerY - rb.height / 2, width: rb.width, height: rb.height },
  };
}

/** The subset of CanvasRenderingContext2D the preview uses; the browser's and @napi-rs/canvas's both fit. */
export type Canvas2DLike = {
  save(): void;
  restore(): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
  translate(x: number, y: number): void;
  rotate(angle: number): void;
  globalAlpha: number;
  imageSmoothingQuality?: string;
  // biome-ignore lint/suspicious/noExplicitAny: each canvas implementation has its own image type.
  drawImage(image: any, dx: number, dy: number, dw: number, dh: number): void;
};

/** Draws the design onto a canvas exactly as `computePlacement` says; the server does the same with sharp. */
export function drawPlacement(ctx: Canvas2DLike, image: unknown, placement: Placement): void {
  const p = placement;
  ctx.save();
  ctx.beginPath();
  ctx.rect(p.clip.x, p.clip.y, p.clip.width, p.clip.height);
  ctx.clip();
  ctx.translate(p.centerX, p.centerY);
  ctx.rotate((p.rotation * Math.PI) / 180);
  ctx.globalAlpha = p.opacity;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(image, -p.width / 2, -p.height / 2, p.width, p.height);
  ctx.restore();
}

/**
 * The part of a mockup's design area that a catalogue placement prints: the largest rectangle of the placement's
 * aspect ratio centred in the design area. The design is fitted and moved in the design area as the seller sees it;
 * this window, scaled to the placement's pixels, is the print file, so what is placed is what prints.
 */
export function printWindow(area: Rect, print: { widthPx: number; heightPx: number }): Rect {
  const size = fitContain(area, { width: print.widthPx, height: print.heightPx });
  return {
    x: area.x + (area.width - size.width) / 2,
    y: area.y + (area.height - size.height) / 2,
    width: size.width,
    height: size.height,
  };
}

/**
 * The print area of each type's default blank (`DEFAULT_CATALOG_PRODUCT`): what a design is measured on and drawn
 * for when no other catalogue product is named. The same numbers as the bundled catalogue's placements (Bella +
 * Canvas 3001 front 12x16 in at 150 DPI, Gildan 18500 13x13 in, the 11 oz mug's wrap, the 24x36 in poster).
 */
export const PRINT_AREAS: Record<string, { name: string; widthIn: number; heightIn: number; dpi: number }> = {
  tshirt: { name: 'Front print', widthIn: 12, heightIn: 16, dpi: 150 },
  hoodie: { name: 'Front print', widthIn: 13, heightIn: 13, dpi: 150 },
  mug: { name: 'Print file', widthIn: 8.25, heightIn: 3.85, dpi: 300 },
  poster: { name: 'Print file', widthIn: 24, heightIn: 36, dpi: 300 },
};

export function printAreaFor(productType: string) {
  const area = PRINT_AREAS[productType] ?? PRINT_AREAS.tshirt;
  if (!area) throw new Error('no print areas');
  return {
    ...area,
    widthPx: Math.round(area.widthIn * area.dpi),
    heightPx: Math.round(area.heightIn * area.dpi),
  };
}

export type PrintReadinessLevel = 'ready' | 'ok' | 'low';

export function printReadinessLevel(dpi: number): { level: PrintReadinessLevel; label: string } {
  if (dpi >= 300) return { level: 'ready', label: 'Print ready' };
  if (dpi >= 150) return { level: 'ok', label: 'OK for most products' };
  return { level: 'low', label: 'Too low for print' };
}

/**
 * The ready rule: how a design prints at its placed size. A raster design (PNG, JPEG, a PDF with raster images) is
 * rated by its effective DPI (`effectiveDpi`, `printReadinessLevel`). A vector design (SVG, a PDF whose page paints no
 * raster image) is print-ready at any size: its print file is drawn from the vector original at the print area's own
 * pixel size, so its DPI is the print area's.
 */
export function printReadiness(options: Parameters<typeof effectiveDpi>[0] & { vector?: boolean | undefined }): {
  dpi: number;
  level: PrintReadinessLevel;
  label: string;
  vector: boolean;
} {
  if (options.vector) {
    const print = options.print ?? printAreaFor(options.productType);
    return { dpi: print.dpi, level: 'ready', label: 'Print ready (vector)', vector: true };
  }
  const dpi = effectiveDpi(options);
  return { dpi, ...printReadinessLevel(dpi), vector: false };
}

/**
 * Effective DPI of a design placed on a product's print area: its pixels over the inches it covers. The part of the
 * design area the placement prints (`printWindow`) stands for its inches, as the print file is drawn; `print` is
 * the catalogue placement, else the product type's default blank's.
 */
export function effectiveDpi(options: {
  area: Rect;
  design: { width: number; height: number };
  scale: number;
  productType: string;
  print?: { widthPx: number; heightPx: number; dpi: number };
}): number {
  const placement = computePlacement({
    area: options.area,
    design: options.design,
    adjustments: { scale: options.scale },
  });
  const print = options.print ?? printAreaFor(options.productType);
  const window = printWindow(options.area, print);
  const placedWidthIn = (placement.width / window.width) * (print.widthPx / print.dpi);
  return Math.round(options.design.width / placedWidthIn);
}
