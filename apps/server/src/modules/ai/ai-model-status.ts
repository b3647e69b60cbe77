import { AI_MODEL_WARNING_DAYS, type TAiStatus } from '@podforge/contract';
import type { AiModelRole, AiProvider, ModelInfo, ProviderModels } from '../../integrations/ai/provider';

const DAY_MS = 86_400_000;
/** The configured models are checked when the server starts listening, then this often. */
export const AI_MODEL_CHECK_EVERY_MS = DAY_MS;

/** What each model does, and the setting that names it, in the words the seller and the operator read. */
const ROLES: Record<AiModelRole, { work: string; setting: string }> = {
  text: { work: 'AI listing text', setting: 'OPENAI_MODEL' },
  image: { work: 'AI designs', setting: 'OPENAI_IMAGE_MODEL' },
};

type Log = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

/** The plain sentence for one model, or null when nothing is due within AI_MODEL_WARNING_DAYS days. */
export function modelWarning(role: AiModelRole, info: ModelInfo, now: Date): string | null {
  const { work, setting } = ROLES[role];
  if (info.state === 'gone') {
    return `The AI provider retired the model for ${work} (${info.model}): ${work} fail until the operator chooses another (${setting}).`;
  }
  if (!info.shutdownDate) return null;
  const days = Math.ceil((Date.parse(`${info.shutdownDate}T00:00:00Z`) - now.getTime()) / DAY_MS);
  if (Number.isNaN(days) || days > AI_MODEL_WARNING_DAYS) return null;
  if (days <= 0) {
    return `The AI provider shut down the model for ${work} (${info.model}) on ${info.shutdownDate}: ${work} fail until the operator chooses another (${setting}).`;
  }
  return `The AI provider will retire the model for ${work} (${info.model}) on ${info.shutdownDate}, in ${days} day${
    days === 1 ? '' : 's'
  }: the operator must choose another (${setting}) before then.`;
}

/**
 * What the provider says of the configured models (`GET /v1/models/{id}`): asked when the server starts listening
 * and then daily on each instance (each answers `GET /api/ai/status` from its own memory), and told at once when a
 * call answers that a model is gone. A model shutting down within AI_MODEL_WARNING_DAYS days, or gone, is logged at
 * each check and shown to the seller. The offline writer has no models to check.
 */
export class AiModelStatus {
  private models: ProviderModels | null = null;
  private checkedAt: Date | null = null;
  private checking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  /** Replaced by the app's logger once the AI routes are registered. */
  log: Log = { warn: () => {}, error: () => {} };

  constructor(
    private readonly ai: AiProvider,
    private readonly now: () => Date,
  ) {}

  /** Asks the provider now (one question at a time) and logs what is due. */
  check(): Promise<void> {
    const describe = this.ai.describeModels?.bind(this.ai);
    if (!describe) return Promise.resolve();
    this.checking ??= (async () => {
      try {
        this.models = await describe();
        this.checkedAt = this.now();
        for (const role of ['text', 'image'] as const) {
          const info = this.models[role];
          if (info.state === 'unknown') {
            this.log.warn({ model: info.model, role }, 'AI model status could not be read from the provider');
          }
          const warning = modelWarning(role, info, this.checkedAt);
          if (warning) this.log.warn({ model: info.model, role, shutdownDate: info.shutdownDate }, warning);
        }
      } catch (error) {
        this.log.error({ err: error }, 'AI model status check failed');
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /** A call answered model_not_found: the seller is told now, not at the next check. */
  markGone(role: AiModelRole, model: string): void {
    const unknown = (m: string): ModelInfo => ({ model: m, state: 'unknown', shutdownDate: null });
    const models = this.models ?? {
      text: unknown(role === 'text' ? model : ''),
      image: unknown(role === 'image' ? model : ''),
    };
    const before = models[role];
    models[role] = { model, state: 'gone', shutdownDate: before.model === model ? before.shutdownDate : null };
    this.models = models;
    if (before.state !== 'gone') this.log.warn({ model, role }, modelWarning(role, models[role], this.now()) ?? '');
  }

  /** Checks now, then every `everyMs`, until stop(). */
  start(everyMs = AI_MODEL_CHECK_EVERY_MS): void {
    if (!this.ai.describeModels || this.timer) return;
    void this.check();
    this.timer = setInterval(() => void this.check(), everyMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** `GET /api/ai/status`; the first call of an instance that has not checked yet waits for a check. */
  async status(): Promise<TAiStatus> {
    if (!this.ai.describeModels) {
      const none = { model: null, shutdownDate: null, retired: false };
      return { provider: this.ai.name, text: none, image: none, warnings: [], checkedAt: null };
    }
    if (!this.checkedAt) await this.check();
    const now = this.now();
    const models = this.models;
    const of = (role: AiModelRole) => ({
      model: models?.[role].model || null,
      shutdownDate: models?.[role].shutdownDate ?? null,
      retired: models?.[role].state === 'gone',
    });
    const warnings = models
      ? (['text', 'image'] as const).flatMap((role) => modelWarning(role, models[role], now) ?? [])
      : [];
    return {
      provider: this.ai.name,
      text: of('text'),
      image: of('image'),
      warnings,
      checkedAt: this.checkedAt?.toISOString() ?? null,
    };
  }
}
