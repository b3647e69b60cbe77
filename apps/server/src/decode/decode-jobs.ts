import type { MockupAdjustments, Placement, TMockupProductType } from '@podforge/contract';
import type { AnalyzeImageJob, AnalyzeImageResult } from '../modules/ai/analyze-image-job';
import type { DecodedDesign, DesignDecodeJob } from '../modules/designs/design-files';

/**
 * What the decode pool's children do. Every job names a file on local disk (an upload's temporary file, or a stored
 * design copied to one), never a buffer of it: the parent streams, the child decodes.
 */

/** A stored design placed for a mockup (resized, rotated, faded): the raw RGBA layer comes back. */
export type LayerJob = { kind: 'layer'; name: string; inputPath: string; placement: Placement };
export type LayerResult = { data: Uint8Array; width: number; height: number; left: number; top: number };

/** A stored design drawn as a print file: the PNG is written to `outPath`. */
export type PrintFileJob = {
  kind: 'print-file';
  name: string;
  inputPath: string;
  outPath: string;
  productType: TMockupProductType;
  designSize: { width: number; height: number };
  adjustments: MockupAdjustments;
  size?: { widthPx: number; heightPx: number };
};
export type PrintFileResult = { width: number; height: number };

export type DecodeJob = DesignDecodeJob | AnalyzeImageJob | LayerJob | PrintFileJob;
export type DecodeResultOf<J extends DecodeJob> = J extends DesignDecodeJob
  ? DecodedDesign
  : J extends AnalyzeImageJob
    ? AnalyzeImageResult
    : J extends LayerJob
      ? LayerResult
      : J extends PrintFileJob
        ? PrintFileResult
        : never;
