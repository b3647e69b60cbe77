/**
 * The decode worker: a child process of the server (forked by decode-pool.ts) that decodes one file at a time. Like
 * deps.ts it composes: each job kind is run by its owner's code (designs decode, ai analyses, mockups draw layers,
 * print-files draw print files); the owners never import this file, so no module imports another through the pool.
 * libvips gets no operation cache here, and the threads the pool gives each job (the cores shared among the jobs
 * running), so a child's memory is what its current file needs; the parent enforces the wall-clock and memory limits by killing this process.
 */

import sharp from 'sharp';
import { analyzeImageInWorker } from '../modules/ai/analyze-image-job';
import { DesignRefusal, decodeDesign } from '../modules/designs/design-decode';
import { renderDesignRaw } from '../modules/mockups/mockup-render';
import { renderPrintFile } from '../modules/print-files/print-file-render';
import type { DecodeJob } from './decode-jobs';

sharp.cache(false);
sharp.concurrency(1);

/** V8's collector, exposed by the pool's `--expose-gc`. */
const collect = (globalThis as { gc?: () => void }).gc;

async function run(job: DecodeJob): Promise<unknown> {
  if (job.kind === 'design') return decodeDesign(job);
  if (job.kind === 'analyze-image') return analyzeImageInWorker(job);
  if (job.kind === 'layer') {
    // Unfaded: the mockup's blend applies the opacity (clipLayer gives the layer the placement's).
    const layer = await renderDesignRaw(job.inputPath, job.placement, { fade: false });
    return { ...layer, data: new Uint8Array(layer.data.buffer, layer.data.byteOffset, layer.data.byteLength) };
  }
  return renderPrintFile(job.productType, job.inputPath, job.designSize, job.adjustments, job.outPath, job.size);
}

process.on('message', (raw: unknown) => {
  if ((raw as { prepare?: string }).prepare === 'svg') {
    // The SVG sanitiser's jsdom takes a second or more to load: the pool asks for it before this child's first
    // SVG (or as soon as a listening server's child starts), outside any file's time limit.
    import('../modules/designs/svg-sanitize').then(
      () => process.send?.({ prepared: 'svg' }),
      (error: unknown) => process.send?.({ prepared: 'failed', error: String(error) }),
    );
    return;
  }
  const { id, job, threads } = raw as { id: number; job: DecodeJob; threads?: number };
  // One job at a time in this process: the pool says how many libvips threads it may use now.
  sharp.concurrency(Math.max(1, threads ?? 1));
  run(job)
    .then(
      (result) => process.send?.({ id, ok: true, result }),
      (error: unknown) => {
        if (error instanceof DesignRefusal) process.send?.({ id, ok: false, refusal: error.message });
        else process.send?.({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
      },
    )
    // Once answered, the job's buffers (a print file's are hundreds of megabytes, held outside V8's heap) are
    // collected now rather than whenever V8 next collects: they would count against the next job's memory limit.
    .finally(() => setImmediate(() => collect?.()));
});
// The parent went away: nothing left to answer.
process.on('disconnect', () => process.exit(0));
// jsdom (for the SVG sanitiser) is not loaded here: the pool asks for it apart (see prepareSvg in decode-pool.ts).
process.send?.({ ready: true });
