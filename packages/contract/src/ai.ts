import { z } from 'zod';
import { ZDesign } from './designs';
import {
  AI_AUDIENCES,
  AI_DESIGN_MAX_VARIATIONS,
  AI_DESIGN_SIZES,
  AI_DESIGN_STYLES,
  AI_ERROR_TYPES,
  AI_GENERATION_KINDS,
  AI_PAGE_PLATFORMS,
  AI_PAGE_PRODUCT_TYPES,
  AI_PLATFORMS,
  AI_PRODUCT_TYPES,
  GARMENT_FITS,
  IMAGE_ORIENTATIONS,
} from './plain/ai';

/** `POST /api/ai/generate-content` from the simple create flow (spec: 'AI content request, component'). */
export const ZGenerateContentFromDesign = z.object({
  filename: z.string({ error: 'filename is required' }).trim().min(1, 'filename is required').max(255),
  productType: z.enum(AI_PRODUCT_TYPES).default('tshirt'),
  targetAudience: z.enum(AI_AUDIENCES).default('unisex'),
  platform: z.enum(AI_PLATFORMS).default('shopify'),
  designDescription: z.string().trim().max(1000).default(''),
  /** Our addition: the uploaded design, so the provider can read its name and proportions. */
  designId: z.uuid().optional(),
  /**
   * Our addition: the catalogue product the product is made on (default: the type's, `DEFAULT_CATALOG_PRODUCT`)
   * and the colours and sizes it is sold in, so the text names that blank and promises nothing else.
   */
  catalogProductId: z.number().int().positive().optional(),
  colors: z.array(z.string().trim().min(1).max(60)).max(50).optional(),
  sizes: z.array(z.string().trim().min(1).max(30)).max(50).optional(),
  /** Our addition: another seed gives other wording for the same input (Regenerate); the same seed, the same text. */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TGenerateContentFromDesign = z.input<typeof ZGenerateContentFromDesign>;

/** `POST /api/ai/generate-content` from the full-page AI Generator (spec: 'AI content request, full page'). */
export const ZGenerateContentFromKeywords = z.object({
  productType: z.enum(AI_PAGE_PRODUCT_TYPES).default('T-Shirt'),
  keywords: z
    .string({ error: 'Please enter some design keywords to generate content.' })
    .trim()
    .min(1, 'Please enter some design keywords to generate content.')
    .max(500),
  audience: z.string().trim().max(200).default(''),
  style: z.string().trim().max(200).default(''),
  platform: z.enum(AI_PAGE_PLATFORMS).default('Shopify'),
  creativity: z.number().int().min(1).max(10).default(7),
  includeSEO: z.boolean().default(true),
  generateTags: z.boolean().default(true),
  /** As in the simple flow: another seed, other wording. */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TGenerateContentFromKeywords = z.input<typeof ZGenerateContentFromKeywords>;

/** One option group of a generated listing, e.g. { name: 'Size', options: ['S', 'M', 'L'] }. */
export const ZContentVariant = z.object({ name: z.string(), options: z.array(z.string()) });

/** Spec section 3, 'AI content result'. */
export const ZGeneratedContent = z.object({
  title: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  price: z.number(),
  variants: z.array(ZContentVariant),
  /** Which provider wrote it: 'offline' (built in) or 'openai'. */
  provider: z.string(),
  /** AI credits left this month after this call. */
  creditsRemaining: z.number().int(),
});
export type TGeneratedContent = z.infer<typeof ZGeneratedContent>;

/**
 * `POST /api/ai/analyze-image`: the text fields of the multipart request; the image itself is the part `image`
 * (PNG, JPEG, SVG or PDF, checked like an upload, at most ANALYZE_IMAGE_MAX_BYTES, never kept).
 */
export const ZAnalyzeImageFields = z.object({
  productType: z.enum(AI_PRODUCT_TYPES).default('tshirt'),
  targetAudience: z.enum(AI_AUDIENCES).default('unisex'),
  platform: z.enum(AI_PLATFORMS).default('shopify'),
  /** As in generate-content: another seed, other wording. */
  seed: z.coerce.number().int().min(0).max(2_147_483_647).optional(),
});
export type TAnalyzeImageFields = z.input<typeof ZAnalyzeImageFields>;

/** What was read from the image itself. */
export const ZImageAnalysis = z.object({
  width: z.number().int(),
  height: z.number().int(),
  orientation: z.enum(IMAGE_ORIENTATIONS),
  /** Width to height in small numbers, e.g. '4:5'. */
  aspect: z.string(),
  /** The dominant colours of the visible pixels, most first, named; share is 0-1 of the visible area. */
  colors: z.array(z.object({ name: z.string(), hex: z.string(), share: z.number() })),
  /** Share (0-1) of the canvas that is transparent. */
  transparentShare: z.number(),
  transparent: z.boolean(),
  garmentFit: z.enum(GARMENT_FITS),
  /** The words of the cleaned file name ('' when it says nothing). */
  nameWords: z.string(),
  /** The design's own metadata: a PNG text chunk, an SVG <title>/<desc>, XMP of a JPEG. */
  metadata: z.object({
    title: z.string().nullable(),
    description: z.string().nullable(),
    keywords: z.array(z.string()),
  }),
});
export type TImageAnalysis = z.infer<typeof ZImageAnalysis>;

/** The generate-content shape, plus what the image showed. */
export const ZAnalyzedImageContent = ZGeneratedContent.extend({ analysis: ZImageAnalysis });
export type TAnalyzedImageContent = z.infer<typeof ZAnalyzedImageContent>;

export const ZAiError = z.object({
  error: z.string(),
  code: z.string(),
  errorType: z.enum(AI_ERROR_TYPES).optional(),
  message: z.string().optional(),
  /** Whose limit or failure it is: the provider's name ('offline', 'openai'), or 'credits' for this app's monthly credits. */
  provider: z.string().optional(),
});
export type TAiError = z.infer<typeof ZAiError>;

/** `POST /api/ai/designs` (spec: 'AI design request'). */
export const ZAiDesignRequest = z.object({
  prompt: z
    .string({ error: 'Please enter a prompt' })
    .trim()
    .min(1, 'Please enter a prompt')
    .max(1000, 'The prompt is longer than 1000 characters'),
  size: z.enum(AI_DESIGN_SIZES).default('1024x1024'),
  n: z.number().int().min(1).max(AI_DESIGN_MAX_VARIATIONS).default(1),
  style: z.enum(AI_DESIGN_STYLES).default('vector-clean'),
  /** Our addition: another seed gives other variations of the same prompt. */
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TAiDesignRequest = z.input<typeof ZAiDesignRequest>;

/** One generated image: a stored design (source 'ai') with the prompt it came from. */
export const ZAiDesignImage = ZDesign.extend({ prompt: z.string() });
export type TAiDesignImage = z.infer<typeof ZAiDesignImage>;

export const ZAiDesignResponse = z.object({
  images: z.array(ZAiDesignImage),
  provider: z.string(),
  creditsRemaining: z.number().int(),
});
export type TAiDesignResponse = z.infer<typeof ZAiDesignResponse>;

/** `POST /api/ai/generate-title`. */
export const ZGenerateTitleRequest = z.object({
  topic: z.string({ error: 'Please enter a topic' }).trim().min(1, 'Please enter a topic').max(300),
  style: z.string().trim().max(200).default(''),
  audience: z.string().trim().max(200).default(''),
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TGenerateTitleRequest = z.input<typeof ZGenerateTitleRequest>;

/** `POST /api/ai/generate-description`. */
export const ZGenerateDescriptionRequest = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(300),
  style: z.string().trim().max(200).default(''),
  details: z.string().trim().max(1000).default(''),
  seed: z.number().int().min(0).max(2_147_483_647).optional(),
});
export type TGenerateDescriptionRequest = z.input<typeof ZGenerateDescriptionRequest>;

/** `POST /api/ai/generate-tags`. */
export const ZGenerateTagsRequest = z.object({
  title: z.string({ error: 'Please enter a title' }).trim().min(1, 'Please enter a title').max(300),
  description: z.string().trim().max(5000).default(''),
  category: z.string().trim().max(100).default(''),
});
export type TGenerateTagsRequest = z.input<typeof ZGenerateTagsRequest>;

const ZAiTextMeta = z.object({ provider: z.string(), creditsRemaining: z.number().int() });
export const ZGeneratedTitle = ZAiTextMeta.extend({ title: z.string() });
export const ZGeneratedDescription = ZAiTextMeta.extend({ description: z.string() });
export const ZGeneratedTags = ZAiTextMeta.extend({ tags: z.array(z.string()) });
export type TGeneratedTitle = z.infer<typeof ZGeneratedTitle>;
export type TGeneratedDescription = z.infer<typeof ZGeneratedDescription>;
export type TGeneratedTags = z.infer<typeof ZGeneratedTags>;

/** One row of 'Recent Generations': what was asked for, in a line. */
export const ZAiGeneration = z.object({
  id: z.string(),
  kind: z.enum(AI_GENERATION_KINDS),
  summary: z.string(),
  provider: z.string(),
  credits: z.number().int(),
  createdAt: z.string(),
});
export type TAiGeneration = z.infer<typeof ZAiGeneration>;

export const ZAiGenerationsQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
export const ZAiGenerationsResponse = z.object({ generations: z.array(ZAiGeneration) });
export type TAiGenerationsResponse = z.infer<typeof ZAiGenerationsResponse>;

/** One configured model: its name (null for the built-in offline writer) and the shutdown date its provider announced. */
export const ZAiModelStatus = z.object({
  model: z.string().nullable(),
  /** YYYY-MM-DD; null when none is announced (or the provider could not be asked). */
  shutdownDate: z.string().nullable(),
  /** The provider no longer has it (shut down): every call to it fails until the operator chooses another. */
  retired: z.boolean(),
});

/**
 * `GET /api/ai/status`: the models the server uses and what their provider said of them at the last check (at
 * start, then daily). `warnings` are plain sentences for the seller: a model shutting down within
 * AI_MODEL_WARNING_DAYS days, or one the provider no longer has.
 */
export const ZAiStatus = z.object({
  provider: z.string(),
  text: ZAiModelStatus,
  image: ZAiModelStatus,
  warnings: z.array(z.string()),
  /** When the provider was last asked (ISO time); null before the first check or for the offline writer. */
  checkedAt: z.string().nullable(),
});
export type TAiStatus = z.infer<typeof ZAiStatus>;
