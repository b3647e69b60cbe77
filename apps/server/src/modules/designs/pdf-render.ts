import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pdfDocument } from './pdf-document';

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

/** The smallest one-page PDF: rendered once as the renderer starts, so pdf.js's own modules load then. */
const WARM_PDF = pdfDocument([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 8 8] >>',
]);

// The worker is inline code, so it runs the same from the TypeScript sources and from the bundle. It loads pdf.js
// once and renders one PDF per message: loading pdf.js and its in-thread worker module is about 0.9 s of CPU, which
// a worker per file paid for every PDF (rendering a page is tens of milliseconds). It answers the page's raw RGBA
// pixels, which the decoder encodes once with its other copies, rather than a PNG it would decode again. The page is
// drawn on a transparent canvas (pdf.js's own default is white): what the page leaves unpainted stays transparent,
// and a page that paints a white background keeps it. Whether the page is vector (see PDF_IMAGE_OPS) comes with it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const options = (data) => ({
  data,
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  standardFontDataUrl: workerData.standardFontsDir,
  verbosity: 0,
});
const ready = (async () => {
  const pdfjs = await import(pathToFileURL(workerData.pdfjsPath).href);
  const warm = await pdfjs.getDocument(options(new Uint8Array(Buffer.from(workerData.warmPdf, 'latin1')))).promise;
  await warm.getPage(1);
  await warm.destroy();
  return pdfjs;
})();
ready.catch(() => {});
parentPort.on('message', async (job) => {
  try {
    const pdfjs = await ready;
    if (job.warm) {
      parentPort.postMessage({ id: job.id, ok: true });
      return;
    }
    const doc = await pdfjs.getDocument(options(new Uint8Array(job.data))).promise;
    try {
      const page = await doc.getPage(1);
      const base = page.getViewport({ scale: 1 });
      const limits = job.limits;
      if (limits && (doc.numPages > limits.pages || Math.max(base.width, base.height) > limits.pageSide)) {
        parentPort.postMessage({ id: job.id, ok: false, over: { pages: doc.numPages, width: base.width, height: base.height } });
        return;
      }
      // Whether the page is vector, from its operators (read before drawing only when the size depends on it).
      const imageOps = new Set(job.imageOps.map((name) => pdfjs.OPS[name]));
      const isVector = (ops) => !ops.some((op) => imageOps.has(op));
      const early = job.vectorMaxSide ? isVector((await page.getOperatorList()).fnArray) : null;
      const maxSide = early ? Math.min(job.maxSide, job.vectorMaxSide) : job.maxSide;
      const scale = Math.min(maxSide / Math.max(base.width, base.height), job.maxDpi / 72);
      const viewport = page.getViewport({ scale });
      const width = Math.max(1, Math.floor(viewport.width));
      const height = Math.max(1, Math.floor(viewport.height));
      const { canvas, context } = doc.canvasFactory.create(width, height);
      await page.render({ canvasContext: context, canvas, viewport, background: 'rgba(0,0,0,0)' }).promise;
      // Else the operators the render just read (its display intent's list, kept by the page), read again if missing.
      const drawn = [...(page._intentStates?.values() ?? [])].find((state) => state.operatorList?.lastChunk);
      const vector = early ?? isVector(drawn ? drawn.operatorList.fnArray : (await page.getOperatorList()).fnArray);
      // The page's pixels (RGBA, not premultiplied, row after row), handed over without another copy. Read through
      // the context: the canvas's own data() answers them over white, losing the page's transparency.
      const image = context.getImageData(0, 0, width, height);
      const pixels = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
      doc.canvasFactory.destroy({ canvas, context });
      parentPort.postMessage({ id: job.id, ok: true, pixels, width, height, vector }, [pixels.buffer]);
    } finally {
      await doc.destroy();
    }
  } catch (error) {
    parentPort.postMessage({ id: job.id, ok: false, message: String((error && error.message) || error) });
  }
});
`;

type Answer = {
  id: number;
  ok: boolean;
  pixels?: Uint8Array;
  width?: number;
  height?: number;
  vector?: boolean;
  message?: string;
  over?: { pages: number; width: number; height: number };
};

/**
 * Page 1 as raw RGBA pixels (not premultiplied; transparent where the page paints nothing), `width` x `height`.
 * `vector`: the page draws no raster image (PDF_IMAGE_OPS), so it can be drawn again sharp at any size.
 */
export type RenderedPage = { pixels: Buffer; width: number; height: number; vector: boolean };

/**
 * The rule for a vector PDF: page 1's operators (as pdf.js lists them) paint no raster image: no image XObject,
 * inline image or image mask (a 1-bit stencil, e.g. a scanned page's text). Paths, text in fonts, shadings,
 * patterns, soft masks and transparency groups are vector. A page with any image, however small, is rated by its
 * pixels like a PNG.
 */
export const PDF_IMAGE_OPS = [
  'paintImageXObject',
  'paintImageXObjectRepeat',
  'paintInlineImageXObject',
  'paintInlineImageXObjectGroup',
  'paintImageMaskXObject',
  'paintImageMaskXObjectGroup',
  'paintImageMaskXObjectRepeat',
] as const;
/** The most an upload's page 1 is drawn at (dots per inch of the page): a print file redraws a vector page larger. */
export const PDF_UPLOAD_MAX_DPI = 300;

let renderer: Worker | null = null;
let nextId = 1;
/** One render at a time: a call waits for the one before it. */
let queue: Promise<unknown> = Promise.resolve();

function startRenderer(): Worker {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { pdfjsPath, standardFontsDir, warmPdf: WARM_PDF },
    resourceLimits: { maxOldGenerationSizeMb: 512 },
  });
  // Between renders it keeps no process alive (the decoder's IPC channel does); each render holds a ref.
  worker.unref();
  const forget = () => {
    if (renderer === worker) renderer = null;
  };
  worker.once('exit', forget);
  worker.once('error', forget);
  return worker;
}

/** Ends the kept renderer (tests; a decoder ends with its process). */
export async function closePdfRenderer(): Promise<void> {
  const worker = renderer;
  renderer = null;
  if (worker) await worker.terminate();
}

/**
 * Loads the renderer (pdf.js, about 0.9 s of CPU) ahead of a PDF: the decode pool asks for it before a child's
 * first PDF, outside that file's time limit (designs' PDF_RENDERER preparation).
 */
export async function preparePdfRenderer(): Promise<void> {
  await ask({ warm: true }, PDF_RENDER_TIMEOUT_MS, []);
}

function ask(message: Record<string, unknown>, timeoutMs: number, transfer: ArrayBuffer[]): Promise<Answer> {
  const run = () =>
    new Promise<Answer>((resolve, reject) => {
      renderer ??= startRenderer();
      const worker = renderer;
      const id = nextId++;
      let settled = false;
      const finish = (fn: () => void, end: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
        // A render past its limit (or a broken worker) ends the worker: the next call starts a fresh one.
        if (end) {
          if (renderer === worker) renderer = null;
          void worker.terminate();
        }
        fn();
      };
      const timer = setTimeout(
        () => finish(() => reject(new PdfRenderError(`rendering took longer than ${timeoutMs / 1000} s`)), true),
        timeoutMs,
      );
      const onMessage = (answer: Answer) => {
        if (answer.id === id) finish(() => resolve(answer), false);
      };
      const onError = (error: Error) => finish(() => reject(new PdfRenderError(error.message)), true);
      const onExit = (code: number) => finish(() => reject(new PdfRenderError(`the renderer stopped (${code})`)), true);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      worker.ref();
      worker.postMessage({ ...message, id }, transfer);
    });
  const result = queue.then(run, run);
  queue = result.catch(() => {});
  return result;
}

/**
 * Renders page 1 of a PDF to raw RGBA pixels in a worker thread with a memory cap, and terminates it after the time
 * limit, so a hostile PDF can neither hang nor exhaust the server. The worker is kept for the next PDF (pdf.js
 * loaded once); one that failed or passed its limit is replaced.
 */
export async function renderPdfFirstPage(
  data: Buffer,
  options: {
    timeoutMs?: number;
    /** Longest side in pixels (default PDF_RENDER_MAX_SIDE); the page is scaled to it unless maxDpi stops it first. */
    maxSide?: number;
    /** Default PDF_UPLOAD_MAX_DPI; a print file of a vector page passes Infinity to draw it at exactly maxSide. */
    maxDpi?: number;
    /**
     * A vector page is drawn at most this many pixels a side instead (an upload's: its print files are drawn from
     * the PDF itself, so its stored PNG need only be the working copy); its operators are then read before drawing.
     */
    vectorMaxSide?: number;
    limits?: { pages: number; pageSide: number };
  } = {},
): Promise<RenderedPage> {
  const copy = new Uint8Array(data).buffer;
  const answer = await ask(
    {
      data: copy,
      maxSide: options.maxSide ?? PDF_RENDER_MAX_SIDE,
      maxDpi: options.maxDpi ?? PDF_UPLOAD_MAX_DPI,
      imageOps: PDF_IMAGE_OPS,
      vectorMaxSide: options.vectorMaxSide ?? null,
      limits: options.limits ?? null,
    },
    options.timeoutMs ?? PDF_RENDER_TIMEOUT_MS,
    [copy],
  );
  if (answer.over) throw new PdfLimitError(answer.over.pages, answer.over.width, answer.over.height);
  if (!answer.ok || !answer.pixels) throw new PdfRenderError(answer.message ?? 'the PDF could not be rendered');
  const { pixels } = answer;
  return {
    pixels: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    width: answer.width ?? 0,
    height: answer.height ?? 0,
    vector: answer.vector ?? false,
  };
}
