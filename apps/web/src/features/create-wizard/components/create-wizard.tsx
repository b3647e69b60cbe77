import { Link } from 'react-router';
import { MockupsStep } from '@/features/mockups/components/mockups-step';
import { cn } from '@/lib/utils';
import { WIZARD_STEPS, type WizardStepId } from '../wizard-steps';

// The steps' contents come with the products and mockups issues; the step in the path is already the source of truth.
export function CreateWizard({ step }: { step: WizardStepId }) {
  const activeIndex = WIZARD_STEPS.findIndex((s) => s.id === step);
  const active = WIZARD_STEPS[activeIndex];
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Create Product</h1>
        <p className="text-slate-500">Five steps from catalogue product to store listing.</p>
      </div>
      <ol className="flex flex-wrap gap-2" aria-label="Wizard steps">
        {WIZARD_STEPS.map((s, index) => {
          const reachable = index <= activeIndex;
          const className = cn(
            'flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm',
            s.id === step
              ? 'border-brand-600 bg-brand-600 text-white'
              : reachable
                ? 'border-brand-200 text-brand-700'
                : 'border-slate-200 text-slate-400',
          );
          return (
            <li key={s.id}>
              {reachable ? (
                <Link to={s.path} className={className} aria-current={s.id === step ? 'step' : undefined}>
                  {index + 1}. {s.label}
                </Link>
              ) : (
                <span className={className} aria-disabled="true">
                  {index + 1}. {s.label}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <h2 className="text-lg font-semibold">{active?.label}</h2>
      {step === 'mockups' && <MockupsStep />}
    </div>
  );
}
