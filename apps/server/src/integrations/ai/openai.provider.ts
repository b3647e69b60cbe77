import OpenAI from 'openai';
import { z } from 'zod';
import { DEFAULT_OPENAI_IMAGE_MODEL } from '../../config';
import {
  type AiModelRole,
  type AiProvider,
  AiProviderError,
  type ContentDraft,
  type ContentRequest,
  type DesignRequest,
  type GeneratedImage,
  type ImageInput,
  type ListingFacts,
  type ModelInfo,
  type ProviderModels,
} from './provider';

export type OpenAiProviderOptions = {
  apiKey: string;
  /** An OpenAI-compatible endpoint; OpenAI's own when absent. */
  baseURL?: string | undefined;
  model: string;
  /** The images API model (OPENAI_IMAGE_MODEL); DEFAULT_OPENAI_IMAGE_MODEL when absent. */
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

/** The setting that names each configured model, for the operator. */
const MODEL_SETTING: Record<AiModelRole, string> = { text: 'OPENAI_MODEL', image: 'OPENAI_IMAGE_MODEL' };

/** What the seller reads when the provider no longer has a configured model: not something to try again. */
export function retiredModelMessage(role: AiModelRole, model: string): string {
  return `The AI provider retired this model (${model}); the operator must choose another (${MODEL_SETTING[role]}).`;
}

/**
 * OpenAI's errors as the spec's errorType values. `model` is the configured model the call named: OpenAI answers
 * `model_not_found` for a model it shut down (or never had), whatever the status.
 */
export function toAiProviderError(error: unknown, model?: { role: AiModelRole; model: string }): AiProviderError {
  if (error instanceof AiProviderError) return error;
  if (error instanceof OpenAI.APIError) {
    if (error.code === 'model_not_found' && model) {
      return new AiProviderError('MODEL_RETIRED', retiredModelMessage(model.role, model.model), model);
    }
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

/**
 * What a 400 answer says the model does not take, if that: the parameter OpenAI names in `param`, and whether the
 * parameter itself is unknown to it (`unknown_parameter`, `unsupported_parameter`) or only the value sent.
 */
function refusal(error: unknown): { param: string; unknownParam: boolean } | null {
  if (!(error instanceof OpenAI.APIError) || error.status !== 400 || typeof error.param !== 'string') return null;
  const code = String(error.code);
  if (code === 'unknown_parameter' || code === 'unsupported_parameter')
    return { param: error.param, unknownParam: true };
  if (code === 'invalid_value' || code === 'unsupported_value') return { param: error.param, unknownParam: false };
  return null;
}

/** Chat parameters we can do without when a model refuses them (reasoning models take no temperature). */
const OPTIONAL_CHAT_PARAMS = new Set(['temperature', 'seed']);

/**
 * The images API's two request shapes. `current`: the gpt-image models' (always base64, no `response_format`,
 * sizes 1024x1024, 1536x1024, 1024x1536 or auto, `background` and `output_format`). `legacy`: the older one that
 * some OpenAI-compatible servers still speak (`response_format: b64_json`, square 256, 512 or 1024).
 */
type ImageShape = 'current' | 'legacy';
/** Parameters only the current shape sends: a server refusing one of them speaks the older shape. */
const CURRENT_ONLY_PARAMS = new Set(['background', 'output_format']);

/** Square sizes the older images API shape is asked for; another requested size is made from the 1024 image. */
const LEGACY_IMAGE_SIZES = new Set([256, 512, 1024]);

/**
 * What each style asks the image model for. Print designs are drawn on a transparent background (the current
 * shape's `background: transparent`), so they need no background removal; the older shape can only ask for a
 * plain one. `photo` is a whole picture, opaque.
 */
const STYLE_PROMPTS: Record<DesignRequest['style'], string> = {
  'vector-clean':
    'Flat vector illustration with bold clean shapes and lettering, limited palette, for a print-on-demand design.',
  'line-art': 'Minimal line art, strokes only, single ink colour, no fills or shading, for a print-on-demand design.',
  'vintage-crest':
    'Vintage crest or badge emblem with curved lettering and a distressed, worn print texture, for a print-on-demand design.',
  photo: 'Photorealistic image, natural lighting, high detail.',
};
const BACKGROUND_PROMPT = {
  transparent: 'Isolated artwork on a transparent background, nothing behind it.',
  plain: 'Plain white background.',
};

/** An OpenAI-compatible chat completions API with structured JSON output (OPENAI_API_KEY, OPENAI_BASE_URL). */
export class OpenAiProvider implements AiProvider {
  readonly name = 'openai';
  private readonly client: OpenAI;
  private readonly imageModel: string;
  /** Chat parameters the text model refused once (read from its answer), left out from then on. */
  private readonly refusedChatParams = new Set<string>();
  /** The images request shape the server took last: the current one until its answer says otherwise. */
  private imageShape: ImageShape = 'current';
  /** The image model refused `background: transparent` (a value it cannot draw): print designs are asked opaque. */
  private opaqueOnly = false;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeoutMs ?? 60_000,
    });
    this.imageModel = options.imageModel ?? DEFAULT_OPENAI_IMAGE_MODEL;
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
    const model = this.options.model;
    // Creativity 1-10 as temperature 0.2-1.1.
    const optional: Record<string, number> = {
      temperature: Math.round((0.1 + request.creativity / 10) * 10) / 10,
      seed: request.seed,
    };
    let content: string | null | undefined;
    for (;;) {
      try {
        const kept = Object.fromEntries(Object.entries(optional).filter(([k]) => !this.refusedChatParams.has(k)));
        const completion = await this.client.chat.completions.create({
          model,
          ...kept,
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'listing', strict: true, schema: LISTING_SCHEMA },
          },
          messages,
        });
        content = completion.choices[0]?.message.content;
        break;
      } catch (error) {
        // A model that does not take temperature or seed (a reasoning model) says so: ask again without it.
        const refused = refusal(error)?.param;
        if (refused && OPTIONAL_CHAT_PARAMS.has(refused) && !this.refusedChatParams.has(refused)) {
          this.refusedChatParams.add(refused);
          continue;
        }
        throw toAiProviderError(error, { role: 'text', model });
      }
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

  /**
   * The images API with base64 PNG answers; the PNGs are then checked and stored like uploads. The current shape is
   * sent first; a server whose answer shows it speaks the older one (it refuses `background` or `output_format`, or
   * answers with URLs) is asked again in that shape, which is kept for the next calls (and the other way round).
   */
  async generateDesigns(request: DesignRequest): Promise<GeneratedImage[]> {
    let shape = this.imageShape;
    // At most one change of background and one of shape: three requests.
    for (let attempt = 0; attempt < 3; attempt++) {
      let data: { b64_json?: string | undefined; url?: string | undefined }[];
      try {
        const answer = await this.client.images.generate(this.imageRequest(request, shape));
        data = answer.data ?? [];
      } catch (error) {
        const refused = refusal(error);
        if (shape === 'current' && refused?.param === 'background' && !refused.unknownParam && !this.opaqueOnly) {
          // The model takes `background` but cannot draw a transparent one: the design keeps the model's background.
          this.opaqueOnly = true;
          continue;
        }
        // A parameter the server does not know at all (or `background` refused even when opaque) tells which shape
        // it speaks.
        const notSpoken =
          refused !== null && (refused.unknownParam || (refused.param === 'background' && this.opaqueOnly));
        const otherShape =
          notSpoken &&
          (shape === 'current' ? CURRENT_ONLY_PARAMS.has(refused.param) : refused.param === 'response_format');
        if (otherShape && shape === this.imageShape) {
          shape = shape === 'current' ? 'legacy' : 'current';
          continue;
        }
        throw toAiProviderError(error, { role: 'image', model: this.imageModel });
      }
      const images = data.filter((d) => d.b64_json).map((d) => Buffer.from(d.b64_json as string, 'base64'));
      if (images.length === 0 && shape === 'current' && shape === this.imageShape && data.some((d) => d.url)) {
        // URLs instead of base64: the older shape's default answer. Asked again for base64, not fetched.
        shape = 'legacy';
        continue;
      }
      if (images.length === 0) throw new AiProviderError('PROVIDER_ERROR', 'No images generated');
      this.imageShape = shape;
      return images.slice(0, request.n).map((png) => ({ format: 'png', data: png }));
    }
    throw new AiProviderError('PROVIDER_ERROR', 'No images generated');
  }

  private imageRequest(request: DesignRequest, shape: ImageShape): OpenAI.Images.ImageGenerateParamsNonStreaming {
    const print = request.style !== 'photo';
    const transparent = shape === 'current' && !this.opaqueOnly;
    const background = print ? (transparent ? BACKGROUND_PROMPT.transparent : BACKGROUND_PROMPT.plain) : '';
    const prompt = [request.prompt, STYLE_PROMPTS[request.style], background].filter(Boolean).join('\n\n');
    if (shape === 'current') {
      // Every design size (512, 768, 1024) is made from the square 1024 image.
      return {
        model: this.imageModel,
        prompt,
        n: request.n,
        size: '1024x1024',
        background: print && transparent ? 'transparent' : 'opaque',
        output_format: 'png',
      };
    }
    const apiSize = LEGACY_IMAGE_SIZES.has(request.size) ? request.size : 1024;
    return {
      model: this.imageModel,
      prompt,
      n: request.n,
      size: `${apiSize}x${apiSize}` as '1024x1024',
      response_format: 'b64_json',
    };
  }

  /** `GET /v1/models/{id}` for each configured model: its `shutdown_date` (YYYY-MM-DD or null), or that it is gone. */
  async describeModels(): Promise<ProviderModels> {
    const [text, image] = await Promise.all([
      this.describeModel(this.options.model),
      this.describeModel(this.imageModel),
    ]);
    return { text, image };
  }

  private async describeModel(model: string): Promise<ModelInfo> {
    try {
      const found = (await this.client.models.retrieve(model)) as OpenAI.Models.Model & { shutdown_date?: unknown };
      const date = typeof found.shutdown_date === 'string' ? found.shutdown_date.slice(0, 10) : null;
      return { model, state: 'active', shutdownDate: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null };
    } catch (error) {
      if (error instanceof OpenAI.APIError && error.code === 'model_not_found') {
        return { model, state: 'gone', shutdownDate: null };
      }
      // Unreachable, or a compatible server without a models endpoint: nothing known, nothing to tell the seller.
      return { model, state: 'unknown', shutdownDate: null };
    }
  }
}
