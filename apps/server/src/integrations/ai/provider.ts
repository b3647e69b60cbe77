import type {
  AI_ERROR_TYPES,
  TAiDesignStyle,
  TAiPlatform,
  TAiProductType,
  TCatalogProduct,
  TImageAnalysis,
} from '@podforge/contract';

/** What the seller chose of a catalogue product, when the listing is for a product being made. */
export type ListingChoice = {
  catalogProductId?: number | undefined;
  /** The colours the product is sold in; absent: none is named (they are chosen later). */
  colors?: string[] | undefined;
  /** The sizes it is sold in; absent: every size of the product. */
  sizes?: string[] | undefined;
};

export type TAiErrorType = (typeof AI_ERROR_TYPES)[number];

/** Both request shapes of `POST /api/ai/generate-content`, brought to one. */
export type ContentRequest = {
  /** What the design shows, in title case: the cleaned file name or the keywords ('' when neither says). */
  subject: string;
  /** The full page's keyword phrases (split at commas); [] in the simple flow. */
  keywords: string[];
  /** The seller's own words about the design (simple flow's designDescription); '' on the full page. */
  details: string;
  productType: TAiProductType;
  /** 'men', 'women', 'kids', 'teens', 'adults', 'unisex' or the full page's free text; '' when not given. */
  audience: string;
  style: string;
  platform: TAiPlatform | 'general';
  creativity: number;
  includeSEO: boolean;
  generateTags: boolean;
  seed: number;
  /** The uploaded design it is for, when the caller named one. */
  design: { name: string; type: string; width: number; height: number } | null;
  /** The catalogue product, colours and sizes of the product being made; null for a listing apart from one. */
  choice: ListingChoice | null;
};

/** What the catalogue says about the product the listing is for; every writer uses the same facts. */
export type ListingFacts = {
  /** The cheapest catalogue product of the type that suits the audience; null when the catalogue has none. */
  product: TCatalogProduct | null;
  productLabel: string;
  /** Retail price: catalogue base cost with the type's markup, ending in .99 (25 without a catalogue product). */
  price: number;
  variants: { name: string; options: string[] }[];
};

/** A listing as a provider writes it, before the platform's rules are applied. */
export type ContentDraft = {
  title: string;
  description: string;
  tags: string[];
};

/** `POST /api/ai/designs` as a provider sees it. */
export type DesignRequest = {
  prompt: string;
  /** Pixels of each side: 512, 768 or 1024. */
  size: number;
  /** How many distinct variations, 1 to 4. */
  n: number;
  style: TAiDesignStyle;
  seed: number;
};

/**
 * One image as a provider makes it: SVG text (the offline provider's vector artwork, drawn at `size`) or PNG bytes
 * (an images API). Either way it then goes through the upload pipeline, which checks it and renders the print PNG.
 */
export type GeneratedImage = { format: 'svg' | 'png'; data: Buffer };

/** A design's picture for `analyzeImage`: a PNG of at most 1024 px a side, and what was read from it. */
export type ImageInput = { png: Buffer; analysis: TImageAnalysis };

/** The seam between the AI routes and whoever writes the text: the built-in writer or an OpenAI-compatible API. */
export interface AiProvider {
  /** Stored with each generation and returned to the caller: 'offline' or 'openai'. */
  readonly name: string;
  generateContent(request: ContentRequest, facts: ListingFacts): Promise<ContentDraft>;
  /**
   * A listing for a picture (Analyze Image): the offline writer uses what `image.analysis` read from it, a vision
   * model looks at `image.png` itself. `request.subject` and `details` already carry the file's name and metadata.
   */
  analyzeImage(request: ContentRequest, image: ImageInput, facts: ListingFacts): Promise<ContentDraft>;
  /** Exactly `request.n` images, or an AiProviderError (UNSUPPORTED for a style it cannot honestly make). */
  generateDesigns(request: DesignRequest): Promise<GeneratedImage[]>;
  /** What the provider says of its configured models now (an API's models endpoint); absent for the built-in writer. */
  describeModels?(): Promise<ProviderModels>;
}

/** Which of a provider's models: the one that writes text (and reads images), or the one that draws designs. */
export type AiModelRole = 'text' | 'image';

/**
 * One configured model as the provider describes it: `active` with the shutdown date it announced (null: none),
 * `gone` when it answers that the model does not exist (shut down, or never there), `unknown` when it could not
 * be asked (unreachable, or an OpenAI-compatible server with no models endpoint).
 */
export type ModelInfo = { model: string; state: 'active' | 'gone' | 'unknown'; shutdownDate: string | null };
export type ProviderModels = Record<AiModelRole, ModelInfo>;

/** A provider failure the UI has a notice for (spec section 8). */
export class AiProviderError extends Error {
  constructor(
    readonly errorType: TAiErrorType,
    message: string,
    /** For MODEL_RETIRED: which configured model the provider no longer has. */
    readonly retired?: { role: AiModelRole; model: string },
  ) {
    super(message);
    this.name = 'AiProviderError';
  }
}
