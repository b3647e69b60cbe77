import type { Config } from '../../config';
import { OfflineAiProvider } from './offline.provider';
import { OpenAiProvider } from './openai.provider';
import type { AiProvider } from './provider';

/** The OpenAI-compatible provider when OPENAI_API_KEY is set; the built-in offline writer otherwise. */
export function createAiProvider(config: Config): AiProvider {
  if (config.openai) {
    return new OpenAiProvider({
      apiKey: config.openai.apiKey,
      baseURL: config.openai.baseUrl,
      model: config.openai.model,
      imageModel: config.openai.imageModel,
    });
  }
  return new OfflineAiProvider();
}
