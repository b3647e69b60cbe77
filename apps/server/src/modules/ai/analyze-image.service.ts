import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TAnalyzedImageContent, ZAnalyzeImageFields } from '@podforge/contract';
import type { z } from 'zod';
import { describeImage } from '../../integrations/ai/image-facts';
import { applyMarketplaceRules } from '../../integrations/ai/marketplace-rules';
import type { ContentRequest } from '../../integrations/ai/provider';
import { inspectDesignFile } from '../designs/design-files';
import type { AiDeps } from './ai.deps';
import { callProvider, chargeGeneration, ensureCredits, factsFor } from './ai.service';
import { ANALYZE_IMAGE, type AnalyzeImageResult } from './analyze-image-job';

/** Credits one analysis costs: the same as a generate-content listing. */
const ANALYSIS_CREDITS = 1;

/**
 * Analyze Image: the uploaded file (at `tempPath`, removed by the caller) is checked exactly like an upload (sniffed by
 * its bytes, header caps, then in the decode pool as an 'analyze-image' job: decoded, PNG metadata budget, SVG
 * sanitised, PDF rendered, read for colours, transparency, proportions and metadata, and drawn as the vision PNG;
 * this process decodes nothing) and turned into a listing by the provider. Nothing of the file is stored; the generation is recorded as one
 * credit like generate-content. Refusals: the upload pipeline's 413/415/422, 429 QUOTA_EXCEEDED with no credits left.
 */
export async function analyzeImage(
  deps: AiDeps,
  workspaceId: string,
  fields: z.infer<typeof ZAnalyzeImageFields>,
  file: { name: string; tempPath: string; bytes: number },
): Promise<TAnalyzedImageContent> {
  // The upload's header caps here; everything else (decode, metadata, colours, the vision PNG) in the decode pool.
  const { type, decodedBytes } = await inspectDesignFile(file.tempPath, file.name, file.bytes);
  const tmp = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(tmp, { recursive: true });
  const outDir = await fsp.mkdtemp(path.join(tmp, 'analyze-'));
  let read: AnalyzeImageResult;
  let png: Buffer;
  try {
    read = await deps.decodePool.run(
      ANALYZE_IMAGE,
      {
        type,
        name: file.name,
        inputPath: file.tempPath,
        outDir,
        ...(decodedBytes ? { decodedBytes } : {}),
      },
      { label: file.name, ticket: null },
    );
    // The vision model's picture: a PNG of at most 1024 px a side, made by the decoder; its bytes, not decoded here.
    png = await fsp.readFile(read.visionPath);
  } finally {
    await fsp.rm(outDir, { recursive: true, force: true });
  }
  const { analysis, metadata } = read;
  const size = { width: read.width, height: read.height };
  await ensureCredits(deps, workspaceId, ANALYSIS_CREDITS);

  const request: ContentRequest = {
    subject: metadata.title ?? analysis.nameWords,
    keywords: metadata.keywords,
    details: [metadata.description ? `${metadata.description.replace(/[.!?]?$/, '.')}` : '', describeImage(analysis)]
      .filter(Boolean)
      .join(' '),
    productType: fields.productType,
    audience: fields.targetAudience,
    style: '',
    platform: fields.platform,
    creativity: 5,
    includeSEO: true,
    generateTags: true,
    seed: fields.seed ?? 0,
    design: { name: file.name, type, ...size },
    choice: null,
  };
  const facts = await factsFor(deps, workspaceId, request);
  const draft = await callProvider(deps, deps.ai.analyzeImage(request, { png, analysis }, facts));
  const listing = { ...applyMarketplaceRules(draft, request.platform), price: facts.price, variants: facts.variants };
  const remaining = await deps.db.transaction((tx) =>
    chargeGeneration(deps, tx, workspaceId, {
      kind: 'analysis',
      request: { ...fields, filename: file.name, type, bytes: file.bytes },
      result: { ...listing, analysis },
      credits: ANALYSIS_CREDITS,
    }),
  );
  return { ...listing, analysis, provider: deps.ai.name, creditsRemaining: remaining };
}

/** Removes the received file whatever happened. */
export const removeTemp = (tempPath: string) => fsp.rm(tempPath, { force: true });
