import {
  ADJUSTMENT_LIMITS,
  clampAdjustments,
  computePlacement,
  DESIGN_AREAS,
  effectiveDpi,
  intersectRects,
  mockupProductType,
  printAreaFor,
  printReadiness,
  printReadinessLevel,
  printWindow,
  rotatedBounds,
} from '@podforge/contract';
import { describe, expect, it } from 'vitest';

describe('mockup geometry', () => {
  it('uses the spec design areas (the t-shirt one centred, issue 12) and falls back to the t-shirt set', () => {
    expect(DESIGN_AREAS.tshirt).toEqual({ x: 100, y: 120, width: 200, height: 240 });
    expect(DESIGN_AREAS.hoodie).toEqual({ x: 140, y: 160, width: 220, height: 260 });
    expect(DESIGN_AREAS.mug).toEqual({ x: 120, y: 80, width: 160, height: 160 });
    expect(DESIGN_AREAS.poster).toEqual({ x: 50, y: 50, width: 300, height: 400 });
    expect(mockupProductType('tote-bag')).toBe('tshirt');
    expect(mockupProductType(undefined)).toBe('tshirt');
    expect(mockupProductType('mug')).toBe('mug');
  });

  it('fits the design into the area, centred, at scale 100', () => {
    const p = computePlacement({ area: DESIGN_AREAS.tshirt, design: { width: 1000, height: 1000 }, adjustments: {} });
    expect(p.width).toBe(200);
    expect(p.height).toBe(200);
    expect(p.centerX).toBe(200);
    expect(p.centerY).toBe(240);
    expect(p.opacity).toBe(1);
    expect(p.clip).toEqual({ x: 100, y: 120, width: 200, height: 240 });
  });

  it('scales canvas units into template pixels with the factor', () => {
    const p = computePlacement({
      area: DESIGN_AREAS.tshirt,
      design: { width: 500, height: 1000 },
      adjustments: { scale: 50, x: 10, y: -20, opacity: 40 },
      factor: 5,
    });
    expect(p.height).toBe(600); // fits 240 high, half of it, times 5
    expect(p.width).toBe(300);
    expect(p.centerX).toBe((200 + 10) * 5);
    expect(p.centerY).toBe((240 - 20) * 5);
    expect(p.opacity).toBeCloseTo(0.4);
  });

  it('clamps every adjustment to its slider range', () => {
    expect(clampAdjustments({ scale: 999, rotation: -400, x: 250, y: -250, opacity: 0 })).toEqual({
      scale: ADJUSTMENT_LIMITS.scale.max,
      rotation: -180,
      x: 100,
      y: -100,
      opacity: 10,
    });
    expect(clampAdjustments({ scale: Number.NaN })).toMatchObject({ scale: 100 });
  });

  it('computes rotated bounds and keeps them within the rotation range', () => {
    const b = rotatedBounds(100, 50, 90);
    expect(b.width).toBeCloseTo(50);
    expect(b.height).toBeCloseTo(100);
    const diag = rotatedBounds(100, 100, 45);
    expect(diag.width).toBeCloseTo(141.42, 1);
    const p = computePlacement({
      area: DESIGN_AREAS.mug,
      design: { width: 10, height: 10 },
      adjustments: { rotation: 720 },
    });
    expect(p.rotation).toBe(180);
  });

  it('intersects rectangles and reports no overlap as null', () => {
    expect(intersectRects({ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 5, width: 10, height: 10 })).toEqual({
      x: 5,
      y: 5,
      width: 5,
      height: 5,
    });
    expect(intersectRects({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 0, width: 5, height: 5 })).toBeNull();
  });

  it('gives the effective DPI of a placed design and its print readiness level', () => {
    // The default tee's front print, 12x16 in at 150 DPI, is the 3:4 middle (180x240) of the 200x240 design area:
    // a design filling the area covers 200/180 x 12 = 13.33 in.
    expect(printAreaFor('tshirt')).toMatchObject({ widthPx: 1800, heightPx: 2400, dpi: 150 });
    const area = DESIGN_AREAS.tshirt;
    expect(printWindow(area, printAreaFor('tshirt'))).toEqual({ x: 110, y: 120, width: 180, height: 240 });
    expect(effectiveDpi({ area, design: { width: 4500, height: 5400 }, scale: 100, productType: 'tshirt' })).toBe(338);
    expect(effectiveDpi({ area, design: { width: 4500, height: 5400 }, scale: 200, productType: 'tshirt' })).toBe(169);
    expect(effectiveDpi({ area, design: { width: 1000, height: 1200 }, scale: 100, productType: 'tshirt' })).toBe(75);
    const square = { widthPx: 1950, heightPx: 1950, dpi: 150 };
    expect(
      effectiveDpi({ area, design: { width: 2000, height: 2400 }, scale: 100, productType: 'x', print: square }),
    ).toBe(Math.round(2000 / ((200 / 200) * 13)));
    expect(printReadinessLevel(300)).toEqual({ level: 'ready', label: 'Print ready' });
    expect(printReadinessLevel(299).level).toBe('ok');
    expect(printReadinessLevel(150).label).toBe('OK for most products');
    expect(printReadinessLevel(149)).toEqual({ level: 'low', label: 'Too low for print' });
  });

  it('rates a vector design print-ready at any size, at the print area DPI; a raster one by its pixels', () => {
    const area = DESIGN_AREAS.tshirt;
    const small = { area, design: { width: 100, height: 100 }, scale: 200, productType: 'poster' };
    expect(printReadiness({ ...small, vector: true })).toEqual({
      dpi: 300,
      level: 'ready',
      label: 'Print ready (vector)',
      vector: true,
    });
    expect(printReadiness(small)).toEqual({
      dpi: effectiveDpi(small),
      level: 'low',
      label: 'Too low for print',
      vector: false,
    });
  });
});
