import {
  AI_GENERATION_KINDS,
  AI_PRODUCT_TYPE_LABELS,
  ErrorCode,
  type TAiGeneration,
  type TAiPlatform,
  type TAiProductType,
  type TCatalogProduct,
  type TGeneratedContent,
  type TGeneratedDescription,
  type TGeneratedTags,
  type TGeneratedTitle,
  type ZGenerateContentFromDesign,
  type ZGenerateContentFromKeywords,
  type ZGenerateDescriptionRequest,
  type ZGenerateTagsRequest,
  type ZGenerateTitleRequest,
} from '@podforge/contract';
import type { z } from 'zod';
import type { Db } from '../../db/db';
import { listingFacts } from '../../integrations/ai/listing-facts';
import { applyMarketplaceRules } from '../../integrations/ai/marketplace-rules';
import { AiProviderError, type ContentDraft, type ContentRequest } from '../../integrations/ai/provider';
import { cleanDesignName, titleCase } from '../../integrations/ai/words';
import { BUNDLED_PRODUCTS } from '../../integrations/printful/catalog/bundled';
import { AppError, notFound } from '../../lib/errors';
import { getDesignRow } from '../designs/designs.service';
import type { AiDeps } from './ai.deps';
import { aiCreditsUsed, creatorCreditsUsed, generationRows, insertGeneration, lockCredits } from './ai.repository';

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
    provider: 'credits',
    message: `This workspace has used all ${allowance} AI credits for this month. They reset on the 1st (UTC).`,
  });

export const addressQuotaExceeded = (allowance: number) =>
  new AppError(429, ErrorCode.RateLimited, 'AI credits used up', {
    errorType: 'QUOTA_EXCEEDED',
    provider: 'credits',
    message: `The workspaces made from this address have used all ${allowance} AI credits an address gets per month (AI_MONTHLY_CREDITS_PER_ADDRESS). They reset on the 1st (UTC).`,
  });

/** Over the per-address cap (all workspaces made from this one's address, this month): 429 QUOTA_EXCEEDED. */
async function checkAddressCredits(deps: AiDeps, db: Db, workspaceId: string, credits: number, lock: boolean) {
  const cap = deps.config.aiMonthlyCreditsPerAddress;
  const { creatorKey } = await creatorCreditsUsed(db, workspaceId, deps.now());
  if (!creatorKey) return;
  // Parallel calls from workspaces of one address take turns too.
  if (lock) await lockCredits(db, `ai-credits-address:${creatorKey}`);
  const { used } = await creatorCreditsUsed(db, workspaceId, deps.now());
  if (used + credits > cap) throw addressQuotaExceeded(cap);
}

const PROVIDER_ERROR_STATUS: Record<string, number> = {
  QUOTA_EXCEEDED: 429,
  RATE_LIMITED: 429,
  UNSUPPORTED: 422,
  INVALID_REQUEST: 400,
};

/** A provider failure keeps its errorType for the UI; anything else stays a 500 with no detail. */
export function toAppError(error: unknown, provider: string): unknown {
  if (!(error instanceof AiProviderError)) return error;
  const status = PROVIDER_ERROR_STATUS[error.errorType] ?? 502;
  const code =
    status === 429
      ? ErrorCode.RateLimited
      : status === 422
        ? ErrorCode.Unprocessable
        : status === 400
          ? ErrorCode.BadRequest
          : ErrorCode.Upstream;
  return new AppError(status, code, error.message, { errorType: error.errorType, message: error.message, provider });
}

/** Both request shapes as one; a designId must name a design of the workspace (404 otherwise). */
async function toContentRequest(
  deps: AiDeps,
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
      choice: null,
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
    choice: { catalogProductId: input.catalogProductId, colors: input.colors, sizes: input.sizes },
  };
}

/**
 * The catalogue a listing's facts come from: the bundled snapshot, plus the chosen product from the workspace's
 * own catalogue (live Printful) when the snapshot does not have it.
 */
export async function factsFor(deps: AiDeps, workspaceId: string, request: ContentRequest) {
  const wanted = request.choice?.catalogProductId;
  let catalogue: readonly TCatalogProduct[] = BUNDLED_PRODUCTS;
  if (wanted !== undefined && !BUNDLED_PRODUCTS.some((p) => p.id === wanted)) {
    const source = await deps.printful.catalogFor(workspaceId);
    const listing = (await source.listings()).find((l) => l.id === wanted);
    if (!listing) throw notFound(`Catalogue product ${wanted}`);
    catalogue = [...BUNDLED_PRODUCTS, await source.product(listing)];
  }
  return listingFacts(catalogue, request.productType, request.audience, request.choice);
}

/**
 * Spends `credits` for one generation inside `tx`: takes the workspace's credit lock, checks what is left and writes
 * the `ai_generations` row. Parallel calls of one workspace take turns here, so together they never spend more than
 * the allowance; over it, this throws 429 QUOTA_EXCEEDED and the transaction (with whatever else it wrote) rolls back.
 * Returns the credits left.
 */
export async function chargeGeneration(
  deps: AiDeps,
  tx: Db,
  workspaceId: string,
  generation: { kind: TAiGeneration['kind']; request: unknown; result: unknown; credits: number },
): Promise<number> {
  const allowance = deps.config.aiMonthlyCredits;
  await lockCredits(tx, `ai-credits:${workspaceId}`);
  const used = await aiCreditsUsed(tx, workspaceId, deps.now());
  if (used + generation.credits > allowance) throw quotaExceeded(allowance);
  await checkAddressCredits(deps, tx, workspaceId, generation.credits, true);
  await insertGeneration(tx, {
    workspaceId,
    kind: generation.kind,
    provider: deps.ai.name,
    request: generation.request,
    result: generation.result,
    credits: generation.credits,
    createdAt: deps.now(),
  });
  return allowance - used - generation.credits;
}

/** The cheap check before a provider is called: with too few credits left, 429 QUOTA_EXCEEDED and no call. */
export async function ensureCredits(deps: AiDeps, workspaceId: string, credits: number) {
  const allowance = deps.config.aiMonthlyCredits;
  if ((await aiCreditsUsed(deps.db, workspaceId, deps.now())) + credits > allowance) throw quotaExceeded(allowance);
  await checkAddressCredits(deps, deps.db, workspaceId, credits, false);
}

/** The provider's failure as the answer, naming the provider (the UI's quota notice says whose quota it is). */
export const callProvider = <T>(deps: AiDeps, work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    // A model the provider no longer has is shown on the AI screens and in Settings at once.
    if (error instanceof AiProviderError && error.retired)
      deps.aiStatus.markGone(error.retired.role, error.retired.model);
    throw toAppError(error, deps.ai.name);
  });

/**
 * Writes a listing with the configured provider and records it as one credit. With the month's credits used up
 * it answers 429 QUOTA_EXCEEDED before calling the provider, and writes nothing.
 */
export async function generateContent(
  deps: AiDeps,
  workspaceId: string,
  input: GenerateContentInput,
): Promise<TGeneratedContent> {
  const request = await toContentRequest(deps, workspaceId, input);
  await ensureCredits(deps, workspaceId, CONTENT_CREDITS);
  const facts = await factsFor(deps, workspaceId, request);
  const draft = await callProvider(deps, deps.ai.generateContent(request, facts));
  const listing = { ...applyMarketplaceRules(draft, request.platform), price: facts.price, variants: facts.variants };
  const remaining = await deps.db.transaction((tx) =>
    chargeGeneration(deps, tx, workspaceId, {
      kind: 'content',
      request: input,
      result: listing,
      credits: CONTENT_CREDITS,
    }),
  );
  return { ...listing, provider: deps.ai.name, creditsRemaining: remaining };
}

// The quick helpers: each is one listing request to the same provider, of which the caller wants one part.

/** Words that name the product rather than the design, dropped when a title becomes the subject again. */
const PRODUCT_WORDS = new RegExp(
  `\\b(unisex|${[
    ...Object.values(AI_PRODUCT_TYPE_LABELS),
    'tee',
    'graphic tee',
    'shirt',
    'pullover',
    'sweatshirt',
    'coffee mug',
    'wall art',
    'art print',
    'canvas bag',
    'phone cover',
    'gift idea',
    'gift',
  ]
    .map((w) => w.replace(/[-/\\^$*+?.()|[\]{}]/g, '\\$&'))
    .sort((a, b) => b.length - a.length)
    .join('|')})\\b`,
  'gi',
);

/** 'Retro Sunset Cat Unisex T-Shirt for Women | Graphic Tee' -> 'Retro Sunset Cat'. */
export function subjectOfTitle(title: string): string {
  const head = (title.split(/\s[|–—]\s|:\s/)[0] ?? title).replace(/\s+for\s+.+$/i, '');
  const subject = head.replace(PRODUCT_WORDS, ' ').replace(/\s+/g, ' ').trim();
  return subject || title.trim();
}

/** 'T-Shirts', 'Hoodie', 'phone_case', 'Wall Art' and the like as a product type; t-shirt when none matches. */
export function productTypeOf(text: string): TAiProductType {
  const t = text.toLowerCase();
  if (/phone|case/.test(t)) return 'phone_case';
  if (/hood|sweat/.test(t)) return 'hoodie';
  if (/mug|cup/.test(t)) return 'mug';
  if (/poster|print|wall|canvas art/.test(t)) return 'poster';
  if (/sticker|decal/.test(t)) return 'sticker';
  if (/tote|bag/.test(t)) return 'tote';
  return 'tshirt';
}

function textRequest(fields: {
  subject: string;
  keywords?: string[];
  details?: string;
  productType: TAiProductType;
  audience?: string;
  style?: string;
  seed?: number | undefined;
}): ContentRequest {
  return {
    subject: fields.subject,
    keywords: fields.keywords ?? [],
    details: fields.details ?? '',
    productType: fields.productType,
    audience: fields.audience ?? '',
    style: fields.style ?? '',
    platform: 'general',
    creativity: 7,
    includeSEO: false,
    generateTags: true,
    seed: fields.seed ?? 0,
    design: null,
    choice: null,
  };
}

/** One listing part from the provider, charged one credit and recorded under its own kind. */
async function generatePart<K extends 'title' | 'description' | 'tags'>(
  deps: AiDeps,
  workspaceId: string,
  kind: K,
  input: unknown,
  request: ContentRequest,
): Promise<{ value: ContentDraft[K]; provider: string; creditsRemaining: number }> {
  await ensureCredits(deps, workspaceId, CONTENT_CREDITS);
  const facts = await factsFor(deps, workspaceId, request);
  const draft = applyMarketplaceRules(await callProvider(deps, deps.ai.generateContent(request, facts)), 'general');
  const value = draft[kind];
  const remaining = await deps.db.transaction((tx) =>
    chargeGeneration(deps, tx, workspaceId, {
      kind,
      request: input,
      result: { [kind]: value },
      credits: CONTENT_CREDITS,
    }),
  );
  return { value, provider: deps.ai.name, creditsRemaining: remaining };
}

export async function generateTitle(
  deps: AiDeps,
  workspaceId: string,
  input: z.infer<typeof ZGenerateTitleRequest>,
): Promise<TGeneratedTitle> {
  const keywords = input.topic
    .split(/[,;\n]+/)
    .map((k) => k.trim())
    .filter(Boolean);
  const request = textRequest({
    subject: titleCase(keywords[0] ?? input.topic),
    keywords,
    productType: 'tshirt',
    audience: input.audience,
    style: input.style,
    seed: input.seed,
  });
  const { value, ...meta } = await generatePart(deps, workspaceId, 'title', input, request);
  return { title: value, ...meta };
}

export async function generateDescription(
  deps: AiDeps,
  workspaceId: string,
  input: z.infer<typeof ZGenerateDescriptionRequest>,
): Promise<TGeneratedDescription> {
  const request = textRequest({
    subject: subjectOfTitle(input.title),
    details: input.details,
    productType: productTypeOf(input.title),
    style: input.style,
    seed: input.seed,
  });
  const { value, ...meta } = await generatePart(deps, workspaceId, 'description', input, request);
  return { description: value, ...meta };
}

export async function generateTags(
  deps: AiDeps,
  workspaceId: string,
  input: z.infer<typeof ZGenerateTagsRequest>,
): Promise<TGeneratedTags> {
  const request = textRequest({
    subject: subjectOfTitle(input.title),
    // The description's first sentence says what the design shows; the rest is about the product.
    details: input.description.split(/(?<=[.!?])\s/)[0] ?? '',
    productType: productTypeOf(input.category || input.title),
  });
  const { value, ...meta } = await generatePart(deps, workspaceId, 'tags', input, request);
  return { tags: value, ...meta };
}

/** One line for 'Recent Generations', from what was asked and what came back. */
function summaryOf(kind: string, request: unknown, result: unknown): string {
  const req = (request ?? {}) as Record<string, unknown>;
  const res = (result ?? {}) as Record<string, unknown>;
  const quoted = (v: unknown) => `“${String(v ?? '').slice(0, 120)}”`;
  switch (kind) {
    case 'content':
      return typeof res.title === 'string' ? res.title : 'Listing';
    case 'analysis':
      return `${typeof res.title === 'string' ? res.title : 'Listing'} (from ${String(req.filename ?? 'an image')})`;
    case 'design': {
      const n = Number(req.n ?? 1);
      return `${n} ${String(req.style ?? '')} design${n === 1 ? '' : 's'}: ${quoted(req.prompt)}`;
    }
    case 'title':
      return `Title: ${String(res.title ?? '')}`;
    case 'description':
      return `Description for ${quoted(req.title)}`;
    case 'tags':
      return `${Array.isArray(res.tags) ? res.tags.length : 0} tags for ${quoted(req.title)}`;
    default:
      return kind;
  }
}

export async function listGenerations(deps: AiDeps, workspaceId: string, limit: number): Promise<TAiGeneration[]> {
  const rows = await generationRows(deps.db, workspaceId, limit);
  return rows.map((row) => ({
    id: row.id,
    kind: (AI_GENERATION_KINDS as readonly string[]).includes(row.kind)
      ? (row.kind as TAiGeneration['kind'])
      : 'content',
    summary: summaryOf(row.kind, row.request, row.result),
    provider: row.provider,
    credits: row.credits,
    createdAt: row.createdAt.toISOString(),
  }));
}
