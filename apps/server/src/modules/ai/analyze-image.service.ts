import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TAnalyzedImageContent, ZAnalyzeImageFields } from '@podforge/contract';
import sharp from 'sharp';
import type { z } from 'zod';
import { describeImage, readImageFacts, readMetadata } from '../../integrations/ai/image-facts';
import { applyMarketplaceRules } from '../../integrations/ai/marketplace-rules';
import type { ContentRequest } from '../../integrations/ai/provider';
import { inspectDesignFile } from '../designs/design-files';
import type { AiDeps } from './ai.deps';
import { callProvider, chargeGeneration, ensureCredits, factsFor } from './ai.service';

/** Credits one analysis costs: the same as a generate-content listing. */
const ANALYSIS_CREDITS = 1;
/** The longest side of the picture a vision model is shown. */
const VISION_MAX_SIDE = 1024;

/**
 * Analyze Image: the uploaded file (at `tempPath`, removed by the caller) is checked exactly like an upload (sniffed by
 * its bytes, decoded, pixel limit, SVG sanitised, PDF rendered), read (colours, transparency, proportions, metadata)
 * and turned into a listing by the provider. Nothing of the file is stored; the generation is recorded as one
 * credit like generate-content. Refusals: the upload pipeline's 413/415/422, 429 QUOTA_EXCEEDED with no credits left.
 */
export async function analyzeImage(
  deps: AiDeps,
  workspaceId: string,
  fields: z.infer<typeof ZAnalyzeImageFields>,
  file: { name: string; tempPath: string; bytes: number },
): Promise<TAnalyzedImageContent> {
  // The upload's checks: header caps here, then the bounded decode in the pool (modules/designs/decode-pool.ts).
  const type = await inspectDesignFile(file.tempPath, file.name, file.bytes);
  const tmp = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(tmp, { recursive: true });
  const outDir = await fsp.mkdtemp(path.join(tmp, 'analyze-'));
  let print: Buffer;
  let size: { width: number; height: number };
  let metadata: Awaited<ReturnType<typeof readMetadata>>;
  try {
    const decoded = await deps.decodePool.run(
      { kind: 'design', type, name: file.name, inputPath: file.tempPath, outDir },
      { label: file.name, ticket: null },
    );
    print = await fsp.readFile(decoded.printPath);
    size = { width: decoded.width, height: decoded.height };
    metadata = await readMetadata(
      type === 'svg'
        ? { type: 'svg', text: await fsp.readFile(decoded.originalPath ?? file.tempPath, 'utf8') }
        : { type, path: file.tempPath },
    );
  } finally {
    await fsp.rm(outDir, { recursive: true, force: true });
  }
  const analysis = await readImageFacts(print, file.name, metadata);
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
  const png = await sharp(print, { limitInputPixels: false })
    .resize(VISION_MAX_SIDE, VISION_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
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
