import { z } from 'zod';

/** Spec section 9, 'Component': the simple create flow's choices. */
export const AI_PRODUCT_TYPES = ['tshirt', 'hoodie', 'mug', 'poster', 'sticker', 'tote', 'phone_case'] as const;
export const AI_AUDIENCES = ['men', 'women', 'kids', 'teens', 'adults', 'unisex'] as const;
export const AI_PLATFORMS = ['shopify', 'etsy', 'amazon', 'woocommerce'] as const;
export type TAiProductType = (typeof AI_PRODUCT_TYPES)[number];
export type TAiPlatform = (typeof AI_PLATFORMS)[number];

export const AI_PRODUCT_TYPE_LABELS: Record<TAiProductType, string> = {
  tshirt: 'T-Shirt',
  hoodie: 'Hoodie',
  mug: 'Mug',
  poster: 'Poster',
  sticker: 'Sticker',
  tote: 'Tote Bag',
  phone_case: 'Phone Case',
};

/** Spec section 9, 'Full-page generator' choices. */
export const AI_PAGE_PRODUCT_TYPES = ['T-Shirt', 'Hoodie', 'Mug', 'Poster', 'Phone Case', 'Tote Bag'] as const;
export const AI_PAGE_PLATFORMS = ['Shopify', 'Etsy', 'Amazon', 'General'] as const;

/** `POST /api/ai/generate-content` from the simple create flow (spec: 'AI content request, component'). */
export const ZGenerateContentFromDesign = z.object({
  filename: z.string({ error: 'filename is required' }).trim().min(1, 'filename is required').max(255),
  productType: z.enum(AI_PRODUCT_TYPES).default('tshirt'),
  targetAudience: z.enum(AI_AUDIENCES).default('unisex'),
  platform: z.enum(AI_PLATFORMS).default('shopify'),
  designDescription: z.string().trim().max(1000).default(''),
  /** Our addition: the uploaded design, so the provider can read its name and proportions. */
  designId: z.uuid().optional(),
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

/** Provider failures the UI maps to its own notices (spec section 8). */
export const AI_ERROR_TYPES = [
  'QUOTA_EXCEEDED',
  'INVALID_API_KEY',
  'ACCESS_DENIED',
  'UNSUPPORTED',
  'PROVIDER_ERROR',
] as const;
export const ZAiError = z.object({
  error: z.string(),
  code: z.string(),
  errorType: z.enum(AI_ERROR_TYPES).optional(),
  message: z.string().optional(),
});
export type TAiError = z.infer<typeof ZAiError>;
