/**
 * The decode worker's entry (forked by decode-pool.ts; built as dist/decode-worker.js): the
 * composition root of the child process, as deps.ts is the server's. Each owner's kind of job is registered here
 * with its handler; a new kind is declared in its module (`defineDecodeKind`) and added to this list.
 */

import { ANALYZE_IMAGE, analyzeImageInWorker } from '../modules/ai/analyze-image-job';
import { decodeDesign, loadSvgSanitiser } from '../modules/designs/design-decode';
import { DESIGN_DECODE, PDF_RENDERER, SVG_SANITISER } from '../modules/designs/design-decode-kind';
import { preparePdfRenderer } from '../modules/designs/pdf-render';
import { MOCKUP_LAYER, placeLayerInWorker } from '../modules/mockups/layer-job';
import { drawMockupFileInWorker, MOCKUP_FILE } from '../modules/mockups/mockup-file-job';
import { drawPrintFileInWorker, PRINT_FILE } from '../modules/print-files/print-file-job';
import { decodeHandler } from './decode-kind';
import { serveDecodeJobs } from './decode-worker-runtime';

serveDecodeJobs(
  [
    decodeHandler(DESIGN_DECODE, decodeDesign),
    decodeHandler(ANALYZE_IMAGE, analyzeImageInWorker),
    decodeHandler(MOCKUP_LAYER, placeLayerInWorker),
    decodeHandler(MOCKUP_FILE, drawMockupFileInWorker),
    decodeHandler(PRINT_FILE, drawPrintFileInWorker),
  ],
  // The SVG sanitiser's jsdom takes a second or more to load, pdf.js about as long: the pool asks for each before a
  // child's first such file (or once a listening server's first child is idle), outside any file's time limit.
  { [SVG_SANITISER]: loadSvgSanitiser, [PDF_RENDERER]: preparePdfRenderer },
);
