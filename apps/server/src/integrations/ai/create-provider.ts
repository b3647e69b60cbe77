import type { Config } from '../../config';
import { OfflineAiProvider } from './offline.provider';
import type { OpenAiProviderOptions } from './openai.provider';
import type { AiProvider, ContentRequest, DesignRequest, ImageInput, ListingFacts } from './provider';

/** The OpenAI provider with its SDK loaded on the first call, so a server without a key never loads `openai`. */
class LazyOpenAiProvider implements AiProvider {
  readonly name = 'openai';
  private loading: Promise<AiProvider> | null = null;
  constructor(private readonly options: OpenAiProviderOptions) {}
  private provider(): Promise<AiProvider> {
    this.loading ??= import('./openai.provider').then(({ OpenAiProvider }) => new OpenAiProvider(this.options));
    return this.loading;
  }
  async generateContent(request: ContentRequest, facts: ListingFacts) {
    return (await this.provider()).generateContent(request, facts);
  }
  async analyzeImage(request: ContentRequest, image: ImageInput, facts: ListingFacts) {
    return (await this.provider()).analyzeImage(request, image, facts);
  }
  async generateDesigns(request: DesignRequest) {
    return (await this.provider()).generateDesigns(request);
  }
  async describeModels() {
    const provider = await this.provider();
    if (!provider.describeModels) throw new Error('The OpenAI provider describes its models');
    return provider.describeModels();
  }
}

/** The OpenAI-compatible provider when OPENAI_API_KEY is set; the built-in offline writer otherwise. */
export function createAiProvider(config: Config): AiProvider {
  if (config.openai) {
    return new LazyOpenAiProvider({
      apiKey: config.openai.apiKey,
      baseURL: config.openai.baseUrl,
      model: config.openai.model,
      imageModel: config.openai.imageModel,
    });
  }
  return new OfflineAiProvider();
}
