import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AI_CREDITS_PER_IMAGE, ErrorCode, type TAiDesignResponse, type ZAiDesignRequest } from '@podforge/contract';
import type { z } from 'zod';
import type { GeneratedImage } from '../../integrations/ai/provider';
import { keywordsOf } from '../../integrations/ai/words';
import { AppError } from '../../lib/errors';
import { createDesigns, type DesignFileInput, type DesignWorkOptions } from '../designs/designs.service';
import type { AiDeps } from './ai.deps';
import { callProvider, chargeGeneration, ensureCredits } from './ai.service';

export type AiDesignInput = z.infer<typeof ZAiDesignRequest>;

/** 'ai-retro-sunset-cat-2.svg': the prompt's words, so the design list reads like the prompt. */
function designName(prompt: string, index: number, format: GeneratedImage['format']) {
  const slug = keywordsOf(prompt)
    .slice(0, 5)
    .join('-')
    .replace(/[^\p{L}\p{N}-]/gu, '')
    .slice(0, 60);
  return `ai-${slug || 'design'}-${index + 1}.${format}`;
}

/**
 * `POST /api/ai/designs`: the provider makes n images, each becomes a stored design (source 'ai', with the prompt)
 * through the upload pipeline (checked, print PNG at the requested size, thumbnail), and the generation costs one
 * credit per image. All or nothing: if any image fails the pipeline, or the credits ran out meanwhile, no design, no
 * file and no credit is left behind.
 */
export async function generateDesigns(
  deps: AiDeps,
  workspaceId: string,
  input: AiDesignInput,
  work: DesignWorkOptions = {},
): Promise<TAiDesignResponse> {
  const size = Number(input.size.split('x')[0]);
  await ensureCredits(deps, workspaceId, input.n * AI_CREDITS_PER_IMAGE);
  const images = await callProvider(
    deps,
    deps.ai.generateDesigns({ prompt: input.prompt, size, n: input.n, style: input.style, seed: input.seed ?? 0 }),
  );
  if (images.length === 0) {
    throw new AppError(502, ErrorCode.Upstream, 'No images generated', { errorType: 'PROVIDER_ERROR' });
  }

  const dir = path.join(deps.config.dataDir, 'tmp');
  await fsp.mkdir(dir, { recursive: true });
  const files: DesignFileInput[] = [];
  try {
    for (const [i, image] of images.entries()) {
      const data = image.data;
      const tempPath = path.join(dir, `ai-${randomBytes(8).toString('hex')}`);
      await fsp.writeFile(tempPath, data, { flag: 'wx' });
      files.push({
        name: designName(input.prompt, i, image.format),
        tempPath,
        bytes: data.length,
        source: 'ai',
        prompt: input.prompt,
        // An images API answers in its own sizes: a PNG of another size is scaled (in the decode pool) to the one asked for.
        ...(image.format === 'png' ? { fitSquare: size } : {}),
      });
    }
    const credits = images.length * AI_CREDITS_PER_IMAGE;
    let remaining = 0;
    const created = await createDesigns(
      deps,
      workspaceId,
      files,
      async (tx, designs) => {
        remaining = await chargeGeneration(deps, tx, workspaceId, {
          kind: 'design',
          request: input,
          result: { designIds: designs.map((d) => d.id), size: input.size },
          credits,
        });
      },
      work,
    ).catch((error: unknown) => {
      // The pipeline refusing a provider's image (415/422) is the provider's failure, not the caller's.
      if (error instanceof AppError && (error.statusCode === 415 || error.statusCode === 422)) {
        throw new AppError(502, ErrorCode.Upstream, `AI generation failed: ${error.message}`, {
          errorType: 'PROVIDER_ERROR',
        });
      }
      throw error;
    });
    return {
      images: created.map((design) => ({ ...design, prompt: input.prompt })),
      provider: deps.ai.name,
      creditsRemaining: remaining,
    };
  } finally {
    await Promise.allSettled(files.map((f) => fsp.rm(f.tempPath, { force: true })));
  }
}
