import { CHILD_BASE_MB, defineDecodeKind, MB } from '../../decode/decode-kind';
import type { DecodedDesign, DesignDecodeJob } from './design-files';

/** The decoder's preparation an SVG needs first: its sanitiser loaded (`loadSvgSanitiser`). */
export const SVG_SANITISER = 'svg-sanitiser';
/** The decoder's preparation a PDF needs first: pdf.js loaded in its renderer (`preparePdfRenderer`). */
export const PDF_RENDERER = 'pdf-renderer';

/** What a file of this type needs its decoder to have loaded before its clock starts. */
export const uploadPreparation = (job: { type: string }) =>
  job.type === 'svg' ? SVG_SANITISER : job.type === 'pdf' ? PDF_RENDERER : null;

/**
 * What an uploaded file reserves of the decode pool's memory: a PNG or JPEG 1.5 times its decoded size (the decoded
 * image and the smaller copies drawn from it) over a decoder's own; an SVG or PDF, whose size the decoder learns, 256 MB.
 */
export const uploadReserveMb = (job: { decodedBytes?: number }) =>
  job.decodedBytes ? CHILD_BASE_MB + (1.5 * job.decodedBytes) / MB : 256;

/** An upload decoded in the pool (`decodeDesign`, registered in src/decode/decode-worker.ts). */
export const DESIGN_DECODE = defineDecodeKind<DesignDecodeJob, DecodedDesign>({
  name: 'design',
  reserveMb: uploadReserveMb,
  prepare: uploadPreparation,
});
