import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export const PDF_RENDER_TIMEOUT_MS = 10_000;
/** Longest side of the rendered page 1, in pixels; the page is scaled to fit. */
export const PDF_RENDER_MAX_SIDE = 4000;

export class PdfRenderError extends Error {}
/** Page 1 or the page count passed `limits`: nothing was rendered. */
export class PdfLimitError extends Error {
  constructor(
    readonly pages: number,
    readonly width: number,
    readonly height: number,
  ) {
    super(`the PDF has ${pages} pages, page 1 is ${width}x${height} points`);
  }
}

const require = createRequire(import.meta.url);
const pdfjsPath = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
const standardFontsDir = `${path.join(path.dirname(pdfjsPath), '../../standard_fonts')}/`;

// The worker is inline code, so it runs the same from the TypeScript sources and from the bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
(async () => {
  try {
    const pdfjs = await import(pathToFileURL(workerData.pdfjsPath).href);
    const doc = await pdfjs.getDocument({
      data: new Uint8Array(workerData.data),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: workerData.standardFontsDir,
      verbosity: 0,
    }).promise;
    const page = await doc.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const limits = workerData.limits;
    if (limits && (doc.numPages > limits.pages || Math.max(base.width, base.height) > limits.pageSide)) {
      parentPort.postMessage({ ok: false, over: { pages: doc.numPages, width: base.width, height: base.height } });
      return;
    }
    const scale = Math.min(workerData.maxSide / Math.max(base.width, base.height), 300 / 72);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const { canvas, context } = doc.canvasFactory.create(width, height);
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context, canvas, viewport }).promise;
    const png = await canvas.encode('png');
    await doc.destroy();
    parentPort.postMessage({ ok: true, png, width, height }, [png.buffer]);
  } catch (error) {
    parentPort.postMessage({ ok: false, message: String((error && error.message) || error) });
  }
})();
`;

/**
 * Renders page 1 of a PDF to PNG in a worker thread with a memory cap, and terminates it after the time limit, so
 * a hostile PDF can neither hang nor exhaust the server.
 */
export function renderPdfFirstPage(
  data: Buffer,
  options: { timeoutMs?: number; maxSide?: number; limits?: { pages: number; pageSide: number } } = {},
): Promise<{ png: Buffer; width: number; height: number }> {
  const timeoutMs = options.timeoutMs ?? PDF_RENDER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const copy = new Uint8Array(data).buffer;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        data: copy,
        pdfjsPath,
        standardFontsDir,
        maxSide: options.maxSide ?? PDF_RENDER_MAX_SIDE,
        limits: options.limits ?? null,
      },
      transferList: [copy],
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new PdfRenderError(`rendering took longer than ${timeoutMs / 1000} s`))),
      timeoutMs,
    );
    worker.once(
      'message',
      (message: {
        ok: boolean;
        png?: Uint8Array;
        width?: number;
        height?: number;
        message?: string;
        over?: { pages: number; width: number; height: number };
      }) => {
        const over = message.over;
        if (over) {
          finish(() => reject(new PdfLimitError(over.pages, over.width, over.height)));
        } else if (message.ok && message.png) {
          const png = Buffer.from(message.png.buffer, message.png.byteOffset, message.png.byteLength);
          finish(() => resolve({ png, width: message.width ?? 0, height: message.height ?? 0 }));
        } else {
          finish(() => reject(new PdfRenderError(message.message ?? 'the PDF could not be rendered')));
        }
      },
    );
    worker.once('error', (error) => finish(() => reject(new PdfRenderError(error.message))));
    worker.once('exit', (code) => finish(() => reject(new PdfRenderError(`the renderer stopped (${code})`))));
  });
}
