import type { TAiStatus } from '@podforge/contract';
import { AlertTriangle } from 'lucide-react';
import { useAiStatus } from '@/api/ai/get-ai-status';

/**
 * The server's warnings about its AI models, in its plain words: a model the provider will retire within 60 days,
 * or one it already retired. Nothing when all is well (or the status cannot be read).
 */
export function AiModelNotice({ enabled = true }: { enabled?: boolean }) {
  const status = useAiStatus(enabled);
  const warnings = status.data?.warnings ?? [];
  if (warnings.length === 0) return null;
  return (
    <div
      role="alert"
      data-testid="ai-model-notice"
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
    >
      <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <div className="space-y-1">
        <p className="font-medium">AI model notice</p>
        {warnings.map((warning) => (
          <p key={warning}>{warning}</p>
        ))}
      </div>
    </div>
  );
}

/** Settings' 'AI models' section: which models write and draw, their announced shutdown dates, and the warnings. */
export function AiModelsSummary({ enabled = true }: { enabled?: boolean }) {
  const status = useAiStatus(enabled);
  const data = status.data;
  if (!data) {
    return <p className="mt-1 text-slate-500">{status.isLoading ? 'Loading…' : 'Not available right now.'}</p>;
  }
  if (data.provider === 'offline') {
    return (
      <p className="mt-1 text-slate-600" data-testid="ai-models">
        The built-in offline writer (this Podforge has no OpenAI account linked).
      </p>
    );
  }
  const line = (label: string, model: TAiStatus['text']) => (
    <li>
      {label}: <span className="font-medium">{model.model ?? 'unknown'}</span>
      {model.retired
        ? ' · retired by the provider'
        : model.shutdownDate
          ? ` · shuts down on ${model.shutdownDate}`
          : ' · no shutdown announced'}
    </li>
  );
  return (
    <div className="mt-1 space-y-2" data-testid="ai-models">
      <ul className="text-slate-600">
        {line('Listing text', data.text)}
        {line('Designs', data.image)}
      </ul>
      <AiModelNotice enabled={enabled} />
    </div>
  );
}
