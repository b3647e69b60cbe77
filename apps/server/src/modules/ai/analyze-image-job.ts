import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TDesignType, TImageAnalysis } from '@podforge/contract';
import sharp from 'sharp';
import { defineDecodeKind } from '../../decode/decode-kind';
import { type ImageMetadata, readImageFacts, readMetadata } from '../../integrations/ai/image-facts';
import { decodeDesign } from '../designs/design-decode';
import { uploadPreparation, uploadReserveMb } from '../designs/design-decode-kind';

/** The longest side of the picture a vision model is shown. */
export const VISION_MAX_SIDE = 1024;

/**
 * Analyze Image's work as a decode-pool job ('analyze-image'): the uploaded file, already sniffed and through the
 * header caps, is decoded exactly as an upload is (`decodeDesign`: PNG metadata budget, pixel caps, SVG scanned and
 * sanitised, PDF rendered), then read (colours, transparency, proportions, its own words) and drawn as the vision
 * model's PNG, all in the decode worker; only the facts and that small PNG's path come back to the server.
 */
export type AnalyzeImageJob = {
  type: TDesignType;
  name: string;
  inputPath: string;
  outDir: string;
  /** Bytes the file's header says it decodes to (PNG, JPEG), which the pool reserves memory for. */
  decodedBytes?: number;
};
export type AnalyzeImageResult = {
  width: number;
  height: number;
  analysis: TImageAnalysis;
  metadata: ImageMetadata;
  /** The picture for a vision model: a PNG of at most VISION_MAX_SIDE px a side, under the job's outDir. */
  visionPath: string;
};

/** Analyze Image's kind of decode-pool job: reserved and prepared for as an upload is. */
export const ANALYZE_IMAGE = defineDecodeKind<AnalyzeImageJob, AnalyzeImageResult>({
  name: 'analyze-image',
  reserveMb: uploadReserveMb,
  prepare: uploadPreparation,
});

/** Runs in the decode worker (registered in src/decode/decode-worker.ts); throws DesignRefusal with the 422 text. */
export async function analyzeImageInWorker(job: AnalyzeImageJob): Promise<AnalyzeImageResult> {
  const { type, name, inputPath, outDir } = job;
  const decoded = await decodeDesign({ type, name, inputPath, outDir });
  const metadata = await readMetadata(
    type === 'svg'
      ? { type: 'svg', text: await fsp.readFile(decoded.originalPath ?? inputPath, 'utf8') }
      : { type, path: inputPath },
  );
  const size = { width: decoded.width, height: decoded.height };
  // From the working copy (at most 2000 px a side), never the full print PNG: the facts are read at 64 px anyway.
  const analysis = await readImageFacts(decoded.workingPath, size, name, metadata);
  const visionPath = path.join(outDir, 'vision.png');
  await sharp(decoded.workingPath)
    .resize(VISION_MAX_SIDE, VISION_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toFile(visionPath);
  return { ...size, analysis, metadata, visionPath };
}
