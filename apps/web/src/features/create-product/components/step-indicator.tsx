import { Check } from 'lucide-react';
import { cn } from '@/lib/utils';
import {
  isStepComplete,
  isStepEnabled,
  SIMPLE_FLOW_STEPS,
  type SimpleFlowState,
  type SimpleFlowStep,
} from '../simple-flow';

type Props = { state: SimpleFlowState; onSelect: (step: SimpleFlowStep) => void };

/** Each step is complete, current or disabled by the progress so far (spec section 2). */
export function StepIndicator({ state, onSelect }: Props) {
  return (
    <ol className="grid gap-2 sm:grid-cols-4" aria-label="Create product steps">
      {SIMPLE_FLOW_STEPS.map((step, index) => {
        const current = state.step === step.id;
        const enabled = isStepEnabled(state, step.id);
        const complete = !current && isStepComplete(state, step.id);
        const status = current ? 'current' : complete ? 'complete' : enabled ? 'available' : 'disabled';
        return (
          <li key={step.id}>
            <button
              type="button"
              disabled={!enabled}
              aria-current={current ? 'step' : undefined}
              data-status={status}
              onClick={() => onSelect(step.id)}
              className={cn(
                'flex w-full items-center gap-3 rounded-lg border px-3 py-2 text-left text-sm transition-colors disabled:cursor-not-allowed',
                current && 'border-brand-600 bg-brand-50 text-brand-800',
                complete && 'border-emerald-200 bg-white text-slate-800 hover:bg-slate-50',
                status === 'available' && 'border-slate-200 bg-white hover:bg-slate-50',
                status === 'disabled' && 'border-slate-200 bg-slate-50 text-slate-400',
              )}
            >
              <span
                className={cn(
                  'flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
                  current && 'bg-brand-600 text-white',
                  complete && 'bg-emerald-600 text-white',
                  status === 'available' && 'bg-slate-200 text-slate-700',
                  status === 'disabled' && 'bg-slate-200 text-slate-400',
                )}
                aria-hidden
              >
                {complete ? <Check className="h-4 w-4" /> : index + 1}
              </span>
              <span className="font-medium">{step.label}</span>
              <span className="sr-only">
                {complete ? '(complete)' : current ? '(current step)' : enabled ? '' : '(not available yet)'}
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
