import { DESIGN_MAX_BYTES } from './designs';
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

export const AI_AUDIENCE_LABELS: Record<(typeof AI_AUDIENCES)[number], string> = {
  men: 'Men',
  women: 'Women',
  kids: 'Kids',
  teens: 'Teens',
  adults: 'Adults',
  unisex: 'Unisex',
};

/** Spec section 9, 'Full-page generator' choices. */
export const AI_PAGE_PRODUCT_TYPES = ['T-Shirt', 'Hoodie', 'Mug', 'Poster', 'Phone Case', 'Tote Bag'] as const;
export const AI_PAGE_PLATFORMS = ['Shopify', 'Etsy', 'Amazon', 'General'] as const;

/**
 * The design limit applies to the image sent for analysis too: quick create sends the uploaded design itself, so a
 * lower cap here refused designs the upload took (#28: one file limit everywhere).
 */
export const ANALYZE_IMAGE_MAX_BYTES = DESIGN_MAX_BYTES;

export const IMAGE_ORIENTATIONS = ['square', 'portrait', 'landscape'] as const;
/** Which garment colours the design shows up on: light ones (a dark design), dark ones (a light design), or both. */
export const GARMENT_FITS = ['light', 'dark', 'any'] as const;

/** Provider failures the UI maps to its own notices (spec section 8). */
export const AI_ERROR_TYPES = [
  'QUOTA_EXCEEDED',
  'INVALID_API_KEY',
  'ACCESS_DENIED',
  'UNSUPPORTED',
  'INVALID_REQUEST',
  'RATE_LIMITED',
  'PROVIDER_ERROR',
  /** The provider shut down the configured model: only the operator can fix it (OPENAI_MODEL, OPENAI_IMAGE_MODEL). */
  'MODEL_RETIRED',
] as const;

/** A configured model whose shutdown date is this close (or past) is shown to the seller and logged. */
export const AI_MODEL_WARNING_DAYS = 60;

/** Spec section 9, 'AI design options'. */
export const AI_DESIGN_SIZES = ['512x512', '768x768', '1024x1024'] as const;
export const AI_DESIGN_STYLES = ['vector-clean', 'line-art', 'vintage-crest', 'photo'] as const;
export type TAiDesignSize = (typeof AI_DESIGN_SIZES)[number];
export type TAiDesignStyle = (typeof AI_DESIGN_STYLES)[number];
export const AI_DESIGN_STYLE_LABELS: Record<TAiDesignStyle, string> = {
  'vector-clean': 'Vector (clean)',
  'line-art': 'Line art',
  'vintage-crest': 'Vintage crest',
  photo: 'Photo',
};
export const AI_DESIGN_MAX_VARIATIONS = 4;
/** Credits one generated image costs (a text generation costs 1). */
export const AI_CREDITS_PER_IMAGE = 1;

export const AI_GENERATION_KINDS = ['content', 'analysis', 'design', 'title', 'description', 'tags'] as const;
