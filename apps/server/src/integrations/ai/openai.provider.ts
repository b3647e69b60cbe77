import OpenAI from 'openai';
import { z } from 'zod';
import {
  type AiProvider,
  AiProviderError,
  type ContentDraft,
  type ContentRequest,
  type DesignRequest,
  type GeneratedImage,
  type ImageInput,
  type ListingFacts,
} from './provider';

export type OpenAiProviderOptions = {
  apiKey: string;
  /** An OpenAI-compatible endpoint; OpenAI's own when absent. */
  baseURL?: string | undefined;
  model: string;
  /** The images API model (OPENAI_IMAGE_MODEL). */
  imageModel?: string;
  /** The SDK retries 429 and 5xx twice by default; tests set 0. */
  maxRetries?: number;
  timeoutMs?: number;
};

/** Structured output: the model must answer with exactly this object. */
const LISTING_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'description', 'tags'],
  properties: {
    title: { type: 'string' },
    description: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
} as const;

const ZListing = z.object({
  title: z.string().trim().min(1),
  description: z.string().trim().min(1),
  tags: z.array(z.string()),
});

const SYSTEM_PROMPT = [
  'You write product listings for a print-on-demand shop.',
  'Write a title, a description of two to four short paragraphs separated by blank lines, and search tags.',
  'Use only the facts given about the product (material, fit, sizes, colours, print technique); invent none.',
  'Do not mention prices, shipping times, discounts or that the text was generated.',
  'Tags are lower case search phrases of one to three words.',
].join(' ');

/** What the model is told: the request and the catalogue product's real facts. */
function userPrompt(request: ContentRequest, facts: ListingFacts) {
  const product = facts.product;
  return JSON.stringify({
    design: request.subject || null,
    designDescription: request.details || null,
    keywords: request.keywords,
    productType: facts.productLabel,
    audience: request.audience || null,
    style: request.style || null,
    platform: request.platform,
    includeSearchPhrasesInTitle: request.includeSEO,
    writeTags: request.generateTags,
    product: product
      ? {
          name: product.name,
          brand: product.brand,
          description: product.description,
          printTechnique: product.printAreas[0]?.technique ?? null,
        }
      : null,
    options: facts.variants,
  });
}

const VISION_PROMPT = [
  SYSTEM_PROMPT,
  'The design is the attached image: say what it shows (subject, words in it, style, colours) as a shopper would search for it.',
  'The JSON message also says what was measured from the file (colours, background, proportions) and its own title if it has one.',
].join(' ');

/** OpenAI's errors as the spec's errorType values. */
export function toAiProviderError(error: unknown): AiProviderError {
  if (error instanceof AiProviderError) return error;
  if (error instanceof OpenAI.APIError) {
    if (error.status === 429 && error.code === 'insufficient_quota') {
      return new AiProviderError('QUOTA_EXCEEDED', 'The OpenAI account has no quota left: check its plan and billing.');
    }
    if (error.status === 401) {
      return new AiProviderError('INVALID_API_KEY', 'OpenAI rejected the API key: check OPENAI_API_KEY.');
    }
    if (error.status === 403) {
      return new AiProviderError('ACCESS_DENIED', 'OpenAI denied access: check the API key’s permissions and model.');
    }
    if (error.status === 429) {
      return new AiProviderError('RATE_LIMITED', 'OpenAI rate limit exceeded. Please try again later.');
    }
    if (error.status === 400) {
      return new AiProviderError('INVALID_REQUEST', `OpenAI refused the prompt or parameters: ${error.message}`);
    }
    if (error.status === undefined) return new AiProviderError('PROVIDER_ERROR', 'OpenAI could not be reached.');
    return new AiProviderError('PROVIDER_ERROR', `OpenAI answered ${error.status}.`);
  }
  return new AiProviderError('PROVIDER_ERROR', 'The OpenAI request failed.');
}

/** Sizes the images API is asked for; another requested size is made from the 1024 image. */
const API_IMAGE_SIZES = new Set([256, 512, 1024]);

/** What each style asks the image model for; print designs want a plain background. */
const STYLE_PROMPTS: Record<DesignRequest['style'], string> = {
  'vector-clean':
    'Flat vector illustration with bold clean shapes and lettering, limited palette, plain background, for a print-on-demand design.',
  'line-art':
    'Minimal line art, strokes only, single ink colour, no fills or shading, plain white background, for a print-on-demand design.',
  'vintage-crest':
    'Vintage crest or badge emblem with curved lettering and a distressed, worn print texture, for a print-on-demand design.',
  photo: 'Photorealistic image, natural lighting, high detail.',
};

/** An OpenAI-compatible chat completions API with structured JSON output (OPENAI_API_KEY, OPENAI_BASE_URL). */
export class OpenAiProvider implements AiProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeoutMs ?? 60_000,
    });
  }

  async generateContent(request: ContentRequest, facts: ListingFacts): Promise<ContentDraft> {
    return this.listing(request, [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: userPrompt(request, facts) },
    ]);
  }

  /** The picture goes to the (vision-capable) chat model as a data URL next to the same facts, structured output. */
  async analyzeImage(request: ContentRequest, image: ImageInput, facts: ListingFacts): Promise<ContentDraft> {
    const measured = {
      width: image.analysis.width,
      height: image.analysis.height,
      orientation: image.analysis.orientation,
      colours: image.analysis.colors.map((c) => c.name),
      transparentBackground: image.analysis.transparent,
      showsBestOn: image.analysis.garmentFit === 'any' ? 'any garment colour' : `${image.analysis.garmentFit} colours`,
      fileTitle: image.analysis.metadata.title,
    };
    return this.listing(request, [
      { role: 'system', content: VISION_PROMPT },
      {
        role: 'user',
        content: [
          { type: 'text', text: JSON.stringify({ ...JSON.parse(userPrompt(request, facts)), measured }) },
          {
            type: 'image_url',
            image_url: { url: `data:image/png;base64,${image.png.toString('base64')}`, detail: 'low' },
          },
        ],
      },
    ]);
  }

  private async listing(
    request: ContentRequest,
    messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  ): Promise<ContentDraft> {
    let content: string | null | undefined;
    try {
      const completion = await this.client.chat.completions.create({
        model: this.options.model,
        // Creativity 1-10 as temperature 0.2-1.1.
        temperature: Math.round((0.1 + request.creativity / 10) * 10) / 10,
        seed: request.seed,
        response_format: {
          type: 'json_schema',
          json_schema: { name: 'listing', strict: true, schema: LISTING_SCHEMA },
        },
        messages,
      });
      content = completion.choices[0]?.message.content;
    } catch (error) {
      throw toAiProviderError(error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(content ?? '');
    } catch {
      throw new AiProviderError('PROVIDER_ERROR', 'OpenAI answered without a listing.');
    }
    const listing = ZListing.safeParse(parsed);
    if (!listing.success) throw new AiProviderError('PROVIDER_ERROR', 'OpenAI answered with an incomplete listing.');
    return { ...listing.data, tags: request.generateTags ? listing.data.tags : [] };
  }

  /** The images API with base64 answers; the PNGs are then checked and stored like uploads. */
  async generateDesigns(request: DesignRequest): Promise<GeneratedImage[]> {
    const apiSize = API_IMAGE_SIZES.has(request.size) ? request.size : 1024;
    let data: { b64_json?: string | undefined }[] | undefined;
    try {
      const answer = await this.client.images.generate({
        model: this.options.imageModel ?? 'dall-e-2',
        prompt: `${request.prompt}\n\n${STYLE_PROMPTS[request.style]}`,
        n: request.n,
        size: `${apiSize}x${apiSize}` as '1024x1024',
        response_format: 'b64_json',
      });
      data = answer.data;
    } catch (error) {
      throw toAiProviderError(error);
    }
    const images = (data ?? []).filter((d) => d.b64_json).map((d) => Buffer.from(d.b64_json as string, 'base64'));
    if (images.length === 0) throw new AiProviderError('PROVIDER_ERROR', 'No images generated');
    return images.slice(0, request.n).map((png) => ({ format: 'png', data: png }));
  }
}
