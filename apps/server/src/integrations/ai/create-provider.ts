import type { Config } from '../../config';
import { OfflineAiProvider } from './offline.provider';
import type { AiProvider } from './provider';

/** The AI provider the configuration asks for; the built-in offline writer by default. */
export function createAiProvider(_config: Config): AiProvider {
  return new OfflineAiProvider();
}
