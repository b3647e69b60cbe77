import { ApiError } from '@/lib/api-client';

/** Spec section 8 for the full-page generator: a notice, and whether it starts the 60 s quota cooldown. */
export type GeneratorNotice = { title: string; description: string; cooldown: boolean };

/** Spec section 9: after a quota error, Generate waits this long. */
export const QUOTA_COOLDOWN_SECONDS = 60;

const PROVIDER_LABELS: Record<string, string> = { openai: 'OpenAI', offline: 'Offline AI', credits: 'AI Credit' };

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : null);

/** The notice for a failed `POST /api/ai/generate-content`, by the answer's errorType (spec section 8). */
export function contentErrorNotice(error: unknown): GeneratorNotice {
  const body = error instanceof ApiError ? error.body : null;
  if (!body) {
    // No response body: a 429 or quota mention is still a usage limit.
    const message = error instanceof Error ? error.message : String(error);
    if (/429|quota/i.test(message)) {
      return {
        title: 'Usage Limit Reached',
        description: 'The AI usage limit was reached. Please wait a minute and try again.',
        cooldown: true,
      };
    }
    return {
      title: 'Generation Failed',
      description: 'Failed to generate content. Please try again.',
      cooldown: false,
    };
  }
  switch (body.errorType) {
    case 'QUOTA_EXCEEDED': {
      const provider = PROVIDER_LABELS[String(body.provider)] ?? 'AI Provider';
      const detail = text(body.message);
      return {
        title: `${provider} Quota Exceeded`,
        description: `Usage limit reached.${detail ? ` ${detail}` : ''} Check your billing or upgrade your plan.`,
        cooldown: true,
      };
    }
    case 'INVALID_API_KEY':
      return {
        title: 'Invalid API Key',
        description: 'The AI provider API key is invalid. Please check your configuration.',
        cooldown: false,
      };
    case 'MODEL_RETIRED':
      // Only the operator can fix it: no cooldown, no 'try again'.
      return {
        title: 'AI Model Retired',
        description: text(body.error) ?? text(body.message) ?? 'The AI provider retired this model.',
        cooldown: false,
      };
    case 'ACCESS_DENIED':
      return {
        title: 'Access Denied',
        description: 'The AI provider denied access. Please verify your API key permissions.',
        cooldown: false,
      };
    default:
      return {
        title: 'Generation Failed',
        description: text(body.error) ?? text(body.message) ?? 'Failed to generate content. Please try again.',
        cooldown: false,
      };
  }
}

/** The message for a failed title, description or tags helper (spec section 8, 'AI text failure'). */
export function textErrorMessage(error: unknown, what: 'title' | 'description' | 'tags'): string {
  const body = error instanceof ApiError ? error.body : null;
  return text(body?.message) ?? text(body?.error) ?? `Failed to generate ${what}`;
}
