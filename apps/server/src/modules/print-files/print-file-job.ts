import type { MockupAdjustments, TMockupProductType } from '@podforge/contract';
import { CHILD_BASE_MB, defineDecodeKind, MB } from '../../decode/decode-kind';
import { PDF_RENDERER } from '../designs/design-decode-kind';
import { renderPrintFile, type VectorSource } from './print-file-render';

/** A stored design drawn as a print file in the decode pool: the PNG is written to `outPath`. */
export type PrintFileJob = {
  name: string;
  inputPath: string;
  outPath: string;
  productType: TMockupProductType;
  designSize: { width: number; height: number };
  adjustments: MockupAdjustments;
  size?: { widthPx: number; heightPx: number };
  /** A vector design: `inputPath` is its stored original (sanitised SVG or PDF), drawn at the placed size. */
  vector?: VectorSource['kind'];
};
export type PrintFileResult = { width: number; height: number };

/**
 * A turned print file holds the design, the turned copy and the output at once: it reserves four times its RGBA
 * output over a decoder's own (a job's whole limit when its size is not given).
 */
export const PRINT_FILE = defineDecodeKind<PrintFileJob, PrintFileResult>({
  name: 'print-file',
  reserveMb: (job, capMb) => (job.size ? CHILD_BASE_MB + (4 * job.size.widthPx * job.size.heightPx * 4) / MB : capMb),
  // A vector PDF is drawn by pdf.js, loaded in the decoder before the job's clock starts.
  prepare: (job) => (job.vector === 'pdf' ? PDF_RENDERER : null),
});

/** Runs in the decode worker (registered in src/decode/decode-worker.ts). */
export function drawPrintFileInWorker(job: PrintFileJob): Promise<PrintFileResult> {
  const vector = job.vector ? { kind: job.vector, path: job.inputPath } : undefined;
  return renderPrintFile(
    job.productType,
    job.inputPath,
    job.designSize,
    job.adjustments,
    job.outPath,
    job.size,
    vector,
  );
}
