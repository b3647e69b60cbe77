import {
  ErrorCode,
  type TAiPlatform,
  type TAiProductType,
  type TGeneratedContent,
  type ZGenerateContentFromDesign,
  type ZGenerateContentFromKeywords,
} from '@podforge/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppDeps } from '../../app';
import { aiGenerations } from '../../db/schema';
import { listingFacts } from '../../integrations/ai/listing-facts';
import { applyMarketplaceRules } from '../../integrations/ai/marketplace-rules';
import { AiProviderError, type ContentRequest } from '../../integrations/ai/provider';
import { cleanDesignName, titleCase } from '../../integrations/ai/words';
import { BUNDLED_PRODUCTS } from '../../integrations/printful/catalog/bundled';
import { AppError } from '../../lib/errors';
import { getDesignRow } from '../designs/designs.service';
import { aiCreditsUsed } from './ai-credits';

export type GenerateContentInput =
  | ({ kind: 'design' } & z.infer<typeof ZGenerateContentFromDesign>)
  | ({ kind: 'keywords' } & z.infer<typeof ZGenerateContentFromKeywords>);

const PAGE_PRODUCT_TYPES: Record<string, TAiProductType> = {
  'T-Shirt': 'tshirt',
  Hoodie: 'hoodie',
  Mug: 'mug',
  Poster: 'poster',
  'Phone Case': 'phone_case',
  'Tote Bag': 'tote',
};

/** Credits one content generation costs. */
const CONTENT_CREDITS = 1;

export const quotaExceeded = (allowance: number) =>
  new AppError(429, ErrorCode.RateLimited, 'AI credits used up', {
    errorType: 'QUOTA_EXCEEDED',
    message: `This workspace has used all ${allowance} AI credits for this month. They reset on the 1st (UTC).`,
  });

const PROVIDER_ERROR_STATUS: Record<string, number> = {
  QUOTA_EXCEEDED: 429,
  UNSUPPORTED: 422,
};

/** A provider failure keeps its errorType for the UI; anything else stays a 500 with no detail. */
function toAppError(error: unknown): unknown {
  if (!(error instanceof AiProviderError)) return error;
  const status = PROVIDER_ERROR_STATUS[error.errorType] ?? 502;
  const code = status === 429 ? ErrorCode.RateLimited : status === 422 ? ErrorCode.Unprocessable : ErrorCode.Upstream;
  return new AppError(status, code, 'AI provider error', { errorType: error.errorType, message: error.message });
}

/** Both request shapes as one; a designId must name a design of the workspace (404 otherwise). */
async function toContentRequest(
  deps: AppDeps,
  workspaceId: string,
  input: GenerateContentInput,
): Promise<ContentRequest> {
  if (input.kind === 'keywords') {
    const keywords = input.keywords
      .split(/[,;\n]+/)
      .map((k) => k.trim().replace(/\s+/g, ' '))
      .filter(Boolean);
    return {
      subject: keywords[0] ? titleCase(keywords[0]) : '',
      keywords,
      details: '',
      productType: PAGE_PRODUCT_TYPES[input.productType] ?? 'tshirt',
      audience: input.audience,
      style: input.style,
      platform: input.platform.toLowerCase() as TAiPlatform | 'general',
      creativity: input.creativity,
      includeSEO: input.includeSEO,
      generateTags: input.generateTags,
      seed: input.seed ?? 0,
      design: null,
    };
  }
  const row = input.designId ? await getDesignRow(deps, workspaceId, input.designId) : null;
  return {
    subject: cleanDesignName(input.filename) || (row ? cleanDesignName(row.name) : ''),
    keywords: [],
    details: input.designDescription,
    productType: input.productType,
    audience: input.targetAudience,
    style: '',
    platform: input.platform,
    creativity: 5,
    includeSEO: true,
    generateTags: true,
    seed: input.seed ?? 0,
    design: row ? { name: row.name, type: row.type, width: row.width, height: row.height } : null,
  };
}

/**
 * Writes a listing with the configured provider and records it as one credit. With the month's credits used up
 * it answers 429 QUOTA_EXCEEDED before calling the provider, and writes nothing.
 */
export async function generateContent(
  deps: AppDeps,
  workspaceId: string,
  input: GenerateContentInput,
): Promise<TGeneratedContent> {
  const allowance = deps.config.aiMonthlyCredits;
  const request = await toContentRequest(deps, workspaceId, input);
  if ((await aiCreditsUsed(deps.db, workspaceId, deps.now())) + CONTENT_CREDITS > allowance) {
    throw quotaExceeded(allowance);
  }

  const facts = listingFacts(BUNDLED_PRODUCTS, request.productType, request.audience);
  const draft = await deps.ai.generateContent(request, facts).catch((error: unknown) => {
    throw toAppError(error);
  });
  const listing = { ...applyMarketplaceRules(draft, request.platform), price: facts.price, variants: facts.variants };

  // Parallel calls of one workspace take turns here, so together they never spend more than the allowance.
  const remaining = await deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`ai-credits:${workspaceId}`}))`);
    const used = await aiCreditsUsed(tx, workspaceId, deps.now());
    if (used + CONTENT_CREDITS > allowance) return null;
    await tx.insert(aiGenerations).values({
      workspaceId,
      kind: 'content',
      provider: deps.ai.name,
      request: input,
      result: listing,
      credits: CONTENT_CREDITS,
      createdAt: deps.now(),
    });
    return allowance - used - CONTENT_CREDITS;
  });
  if (remaining === null) throw quotaExceeded(allowance);
  return { ...listing, provider: deps.ai.name, creditsRemaining: remaining };
}
