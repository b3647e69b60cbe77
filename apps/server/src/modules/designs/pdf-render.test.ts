import { once } from 'node:events';
import type { Worker as NodeWorker } from 'node:worker_threads';
import sharp from 'sharp';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pdfOf } from '../../../test/support/design-fixtures';
import { closePdfRenderer, PDF_RENDER_MAX_SIDE, PdfRenderError, renderPdfFirstPage } from './pdf-render';

// Every worker the renderer starts is recorded with a promise of its 'exit' (taken at creation, so none is missed)
// and whether it posted an answer: a worker terminated by the time limit exits without one.
type Tracked = { worker: NodeWorker; exited: Promise<unknown[]>; answered: boolean };
const tracked = vi.hoisted(() => ({ workers: [] as Tracked[] }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:worker_threads')>();
  class TrackedWorker extends actual.Worker {
    constructor(...args: ConstructorParameters<typeof actual.Worker>) {
      super(...args);
      const entry: Tracked = { worker: this, exited: once(this, 'exit'), answered: false };
      this.on('message', () => {
        entry.answered = true;
      });
      tracked.workers.push(entry);
    }
  }
  return { ...actual, Worker: TrackedWorker };
});

/** Resolves when the worker has exited, or fails after `ms`: a worker still alive then has leaked. */
async function exitedWithin(entry: Tracked, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`worker ${entry.worker.threadId} still running after ${ms} ms`)), ms);
  });
  try {
    await Promise.race([entry.exited, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('renderPdfFirstPage', () => {
  beforeEach(async () => {
    await closePdfRenderer();
    tracked.workers.length = 0;
  });
  afterAll(() => closePdfRenderer());

  it('renders page 1 of a one-page PDF to pixels scaled to fit, and keeps its worker (pdf.js loaded once) for the next', async () => {
    const result = await renderPdfFirstPage(pdfOf(200, 300));
    // 200 x 300 pt at 300 dpi (scale 300/72): under the 4000 px cap.
    expect(result.width).toBe(833);
    expect(result.height).toBe(1250);
    expect(result.pixels.length).toBe(833 * 1250 * 4);
    expect(Math.max(result.width, result.height)).toBeLessThanOrEqual(PDF_RENDER_MAX_SIDE);
    // RGBA: the page's margin, which nothing paints, is transparent; its blue rectangle (the fixture's `0 0 1 rg`)
    // opaque. Vector: no raster image on the page.
    const at = (x: number, y: number) => [...result.pixels.subarray((y * 833 + x) * 4, (y * 833 + x) * 4 + 4)];
    expect(at(5, 5)).toEqual([0, 0, 0, 0]);
    expect(at(416, 625)).toEqual([0, 0, 255, 255]);
    expect(result.vector).toBe(true);
    const png = await sharp(result.pixels, { raw: { width: 833, height: 1250, channels: 4 } })
      .png()
      .toBuffer();
    expect((await sharp(png).metadata()).format).toBe('png');

    // A page that paints itself white keeps its white.
    const again = await renderPdfFirstPage(pdfOf(100, 100, { whitePage: true }));
    expect([again.width, again.height]).toEqual([416, 416]);
    expect([...again.pixels.subarray(0, 4)]).toEqual([255, 255, 255, 255]);
    expect(tracked.workers).toHaveLength(1);
    const [entry] = tracked.workers;
    if (!entry) throw new Error('no worker recorded');
    expect(entry.answered).toBe(true);
    // Closed (as its decoder's end closes it), it exits.
    await closePdfRenderer();
    await exitedWithin(entry, 5000);
    expect(entry.worker.threadId).toBe(-1);
  });

  it('rejects with the time-limit error when rendering exceeds timeoutMs, terminates the worker, and renders again', async () => {
    const pdf = pdfOf(200, 300);
    const started = Date.now();
    const failure = await renderPdfFirstPage(pdf, { timeoutMs: 1 }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PdfRenderError);
    expect((failure as Error).message).toBe('rendering took longer than 0.001 s');
    // The limit fired, not the end of a finished render (pdf.js alone takes far longer than this to load).
    expect(Date.now() - started).toBeLessThan(2000);

    // The one worker it started is terminated: it exits without ever posting the render it was doing.
    expect(tracked.workers).toHaveLength(1);
    const [timedOut] = tracked.workers;
    if (!timedOut) throw new Error('no worker recorded');
    await exitedWithin(timedOut, 2000);
    expect(timedOut.answered).toBe(false);
    expect(timedOut.worker.threadId).toBe(-1);

    // Nothing is left in a bad state: a normal render right after still succeeds in a fresh worker.
    const again = await renderPdfFirstPage(pdf);
    expect([again.width, again.height]).toEqual([833, 1250]);
    expect(tracked.workers).toHaveLength(2);
    expect(tracked.workers[1]?.worker).not.toBe(timedOut.worker);
  });
});
