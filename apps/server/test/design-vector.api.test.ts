import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockupPlacement } from '../src/modules/mockups/mockup-render';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { multipart, pdfOf, pngOf, rasterPdfOf, svgOf } from './support/design-fixtures';
import { pixelBox } from './support/pixel-box';

/**
 * Issue 28 points 3 and 5, through the real upload API: a PDF keeps its transparency (or its real white page) in
 * the design, its mockups and its print files; vector designs (SVG, a PDF of vector operators) are print-ready at
 * any size and their print files are drawn from the vector original at the print area's size.
 */

const ADJ = { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 };

let t: TestApp;
let client: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  client = t.client();
});
afterAll(async () => {
  await t.close();
});

async function upload(filename: string, content: Buffer, contentType: string) {
  const res = await client.request({
    method: 'POST',
    url: '/api/designs/upload',
    ...multipart([{ field: 'file', filename, content, contentType }]),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; width: number; height: number; vector: boolean; url: string };
}

async function rgba(png: Buffer) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (Math.round(y) * info.width + Math.round(x)) * 4;
    return { r: data[i] ?? 0, g: data[i + 1] ?? 0, b: data[i + 2] ?? 0, a: data[i + 3] ?? 0 };
  };
  return { data, width: info.width, height: info.height, at };
}

const printFile = async (designId: string, productType = 'tshirt', adjustments = ADJ) => {
  const res = await client.post('/api/mockups/print-file', { designId, productType, adjustments });
  expect(res.statusCode, res.body).toBe(200);
  return rgba(res.rawPayload);
};

const readiness = async (designId: string, productType: string, scale = 100) => {
  const res = await client.get(
    `/api/mockups/print-readiness?designId=${designId}&productType=${productType}&scale=${scale}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('PDF transparency (issue 28 point 3)', () => {
  it('a PDF page with nothing behind its art stays transparent in the design, the mockup and the print file; a white page stays white', async () => {
    const clear = await upload('clear.pdf', pdfOf(200, 200), 'application/pdf');
    const white = await upload('white.pdf', pdfOf(200, 200, { whitePage: true }), 'application/pdf');
    expect([clear.width, clear.height, white.width, white.height]).toEqual([833, 833, 833, 833]);

    // The design's print PNG: the corner is transparent for the one, opaque white for the other; the art is blue.
    const clearPrint = await rgba((await client.get(clear.url)).rawPayload);
    const whitePrint = await rgba((await client.get(white.url)).rawPayload);
    expect(clearPrint.at(2, 2).a).toBe(0);
    expect(whitePrint.at(2, 2)).toEqual({ r: 255, g: 255, b: 255, a: 255 });
    expect(clearPrint.at(416, 416)).toEqual({ r: 0, g: 0, b: 255, a: 255 });
    expect(whitePrint.at(416, 416)).toEqual({ r: 0, g: 0, b: 255, a: 255 });

    // The mockup on a black tee: the clear page's margin shows the shirt, the white page's is white.
    const template = await rgba((await client.get('/templates/mockups/tshirt/tshirt-front/black.png')).rawPayload);
    const mockupOf = async (designId: string) => {
      const res = await client.post('/api/mockups', {
        designId,
        productType: 'tshirt',
        templateId: 'tshirt-front',
        color: 'black',
        adjustments: ADJ,
      });
      expect(res.statusCode, res.body).toBe(201);
      return rgba((await client.get(res.json().url)).rawPayload);
    };
    const placed = mockupPlacement('tshirt', { width: 833, height: 833 }, ADJ, template.width).bounds;
    // 2% in from the design's corner: inside the page's 5% margin.
    const [mx, my] = [placed.x + 0.02 * placed.width, placed.y + 0.02 * placed.height];
    const onShirt = template.at(mx, my);
    expect(onShirt.r).toBeLessThan(80);
    const clearMockup = (await mockupOf(clear.id)).at(mx, my);
    for (const c of ['r', 'g', 'b'] as const) expect(Math.abs(clearMockup[c] - onShirt[c])).toBeLessThanOrEqual(3);
    const whiteMockup = (await mockupOf(white.id)).at(mx, my);
    expect(Math.min(whiteMockup.r, whiteMockup.g, whiteMockup.b)).toBeGreaterThan(200);

    // The print file: the white page covers its whole placed square; the clear page only its blue art.
    const whiteFile = await printFile(white.id);
    const clearFile = await printFile(clear.id);
    const page = pixelBox(whiteFile.data, whiteFile.width, whiteFile.height, (_r, _g, _b, a) => a > 200);
    const [px, py] = [page.x + 0.02 * (page.right - page.x), page.y + 0.02 * (page.bottom - page.y)];
    expect(whiteFile.at(px, py)).toEqual({ r: 255, g: 255, b: 255, a: 255 });
    expect(clearFile.at(px, py).a).toBe(0);
    const art = pixelBox(clearFile.data, clearFile.width, clearFile.height, (_r, _g, _b, a) => a > 0);
    // (The square is wider than the 3:4 print window, so it is cut at the sides: the margin shows above.)
    expect(art.y).toBeGreaterThan(page.y);
    expect(clearFile.at((art.x + art.right) / 2, (art.y + art.bottom) / 2)).toEqual({ r: 0, g: 0, b: 255, a: 255 });
  });
});

describe('vector designs are print-ready at any size (issue 28 point 5)', () => {
  it('an SVG is vector, rated print-ready on the largest print area, and its print file is drawn sharp at full size', async () => {
    // Left half red, right half blue, 100 px: as a raster, 1800 px of print would be an 18x upscale of it.
    const svg = await upload(
      'art.svg',
      svgOf(100, 100, '<rect width="50" height="100" fill="#ff0000"/>'),
      'image/svg+xml',
    );
    expect(svg.vector).toBe(true);
    const png = await upload('art.png', await pngOf(100, 100), 'image/png');
    expect(png.vector).toBe(false);

    // The 24x36 in poster at 300 DPI, at twice the size: still print-ready, drawn at the print area's DPI.
    expect(await readiness(svg.id, 'poster', 200)).toMatchObject({
      level: 'ready',
      label: 'Print ready (vector)',
      vector: true,
      dpi: 300,
      printArea: { widthPx: 7200, heightPx: 10800 },
    });
    expect(await readiness(svg.id, 'tshirt')).toMatchObject({ level: 'ready', vector: true, dpi: 150 });
    // The same pixels as a PNG are rated by them.
    expect(await readiness(png.id, 'tshirt')).toMatchObject({
      level: 'low',
      label: 'Too low for print',
      vector: false,
    });

    const file = await printFile(svg.id);
    expect([file.width, file.height]).toEqual([1800, 2400]);
    // Across the middle row the red-to-blue edge is crisp: at most 2 pixels are neither (an 18x upscale of the
    // 100 px raster blurs it over tens of pixels).
    const y = file.height / 2;
    const red = (p: ReturnType<typeof file.at>) => p.r > 240 && p.g < 15 && p.b < 15;
    const blue = (p: ReturnType<typeof file.at>) => Math.abs(p.r - 0x33) < 8 && Math.abs(p.g - 0x66) < 8 && p.b > 196;
    let reds = 0;
    let blues = 0;
    let between = 0;
    for (let x = 0; x < file.width; x++) {
      const p = file.at(x, y);
      if (p.a === 0) continue;
      if (red(p)) reds++;
      else if (blue(p)) blues++;
      else between++;
    }
    expect(reds).toBeGreaterThan(700);
    expect(blues).toBeGreaterThan(700);
    expect(between).toBeLessThanOrEqual(2);
  });

  it('a PDF of vector operators is vector; a PDF whose art is an embedded low-res image is rated by its pixels', async () => {
    const vector = await upload('shape.pdf', pdfOf(200, 200), 'application/pdf');
    expect(vector.vector).toBe(true);
    expect(await readiness(vector.id, 'poster', 200)).toMatchObject({ level: 'ready', vector: true });

    const raster = await upload('photo.pdf', rasterPdfOf(200, 40), 'application/pdf');
    expect(raster.vector).toBe(false);
    expect([raster.width, raster.height]).toEqual([833, 833]);
    // 833 px over the t-shirt print's 13.33 in: 62 DPI.
    expect(await readiness(raster.id, 'tshirt')).toMatchObject({ dpi: 62, level: 'low', vector: false });

    // Its print file is the stored raster resized (the vector PDF's is drawn from the page): both at full size.
    const rasterFile = await printFile(raster.id);
    const vectorFile = await printFile(vector.id);
    expect([rasterFile.width, rasterFile.height, vectorFile.width, vectorFile.height]).toEqual([
      1800, 2400, 1800, 2400,
    ]);
    const art = pixelBox(vectorFile.data, vectorFile.width, vectorFile.height, (_r, _g, _b, a) => a > 0);
    expect(vectorFile.at((art.x + art.right) / 2, (art.y + art.bottom) / 2)).toEqual({ r: 0, g: 0, b: 255, a: 255 });
  });
});
