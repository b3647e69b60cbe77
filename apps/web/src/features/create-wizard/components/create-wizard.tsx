import { mockupProductType } from '@podforge/contract/plain';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { mockupTemplatesQueryOptions } from '@/api/mockups/get-mockup-templates';
import { CreateModeSwitch } from '@/components/create-mode-switch';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { usePickedProduct } from '../use-picked-product';
import { useWizardCatalog } from '../use-wizard-catalog';
import { useWizardState } from '../use-wizard-state';
import { canContinue, productTypeFor, type WizardState, wizardPrinter } from '../wizard-state';
import { WIZARD_STEPS, type WizardStepId } from '../wizard-steps';
import { DesignStep } from './design-step';
import { DetailsStep } from './details-step';
import { MockupsStep } from './mockups-step';
import { PricingStep } from './pricing-step';
import { ProductStep } from './product-step';
import { VariantsCard } from './variants-card';

/** The furthest step the state allows: the first one whose needs are not met (the last when all are). */
export function furthestStepIndex(state: WizardState): number {
  const open = WIZARD_STEPS.findIndex((s) => !canContinue(state, s.id));
  return open === -1 ? WIZARD_STEPS.length - 1 : open;
}

/**
 * The five steps; the step in the path is the source of truth, the saved state keeps what was chosen. A typed or
 * bookmarked address of a later step than the state allows opens the first step that is not complete instead.
 */
export function CreateWizard({ step }: { step: WizardStepId }) {
  const { state, update, reset } = useWizardState();
  const navigate = useNavigate();
  const picked = usePickedProduct(update);
  const wantedIndex = WIZARD_STEPS.findIndex((s) => s.id === step);
  const furthest = furthestStepIndex(state);
  const tooFar = wantedIndex > furthest;
  const activeIndex = tooFar ? furthest : wantedIndex;
  const active = WIZARD_STEPS[activeIndex];
  const current = active?.id ?? 'product';

  // Set when Upload Product is done: the state is reset and the seller goes to My Products, not to step one.
  const finished = useRef(false);
  useEffect(() => {
    const target = WIZARD_STEPS[furthest];
    if (tooFar && target && !finished.current) navigate(target.path, { replace: true });
  }, [tooFar, furthest, navigate]);
  useEffect(() => {
    if (!tooFar) update({ step });
  }, [step, tooFar, update]);
  // The catalogue product's variants matter from the Mockups step on (its colours are rendered).
  const pricing = useWizardCatalog(
    state,
    update,
    current === 'mockups' || current === 'details' || current === 'pricing',
  );

  // Spec section 4: next and previous move one step.
  const go = (offset: 1 | -1) => {
    const target = WIZARD_STEPS[activeIndex + offset];
    if (target) navigate(target.path);
  };
  const next = () => go(1);
  const back = () => go(-1);

  const firstDesign = state.designFiles[0] ?? null;
  const mockupType = mockupProductType(productTypeFor(state.selectedTemplate, state.selectedCategory));

  // While the seller picks or uploads a design, the Mockups step's template list is asked for: the server decodes
  // the product's templates meanwhile, so the first renders and Generate Mockups find them ready.
  const queryClient = useQueryClient();
  useEffect(() => {
    if (current === 'design') void queryClient.prefetchQuery(mockupTemplatesQueryOptions(mockupType));
  }, [current, mockupType, queryClient]);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Create Product</h1>
        <p className="text-slate-500">Five steps from catalogue product to store listing.</p>
        <div className="mt-3">
          <CreateModeSwitch
            active="wizard"
            picked={
              state.selectedTemplate && wizardPrinter(state).provider === 'printful'
                ? { product: state.selectedTemplate.id, category: state.selectedCategory?.id ?? null }
                : null
            }
          />
        </div>
      </div>
      <ol className="flex flex-wrap gap-2" aria-label="Wizard steps">
        {WIZARD_STEPS.map((s, index) => {
          const reachable = index <= activeIndex;
          const className = cn(
            'flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm',
            s.id === current
              ? 'border-brand-600 bg-brand-600 text-white'
              : reachable
                ? 'border-brand-200 text-brand-700'
                : 'border-slate-200 text-slate-400',
          );
          return (
            <li key={s.id}>
              {reachable ? (
                <Link to={s.path} className={className} aria-current={s.id === current ? 'step' : undefined}>
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
      {picked.loading && (
        <p className="text-sm text-slate-500" role="status">
          Opening the product you picked…
        </p>
      )}
      {picked.notFound && (
        <p className="text-sm text-red-600" role="alert">
          The product you picked is not in the catalogue any more: choose one below.
        </p>
      )}
      {current === 'product' && <ProductStep state={state} update={update} onNext={next} />}
      {current === 'design' && <DesignStep state={state} update={update} onBack={back} onNext={next} />}
      {current === 'mockups' &&
        (firstDesign ? (
          <MockupsStep
            design={firstDesign}
            productType={mockupType}
            mockups={state.mockups}
            selectedMockupId={state.selectedMockupId}
            onMockupsChange={(mockups, selectedMockupId) => update({ mockups, selectedMockupId })}
            colors={pricing.catalog.data ? pricing.enabledColors : undefined}
            onColorMockups={(colorMockups) => update({ colorMockups })}
            offer={
              <VariantsCard
                state={state}
                update={update}
                catalog={pricing.catalog}
                price={pricing.price}
                hint="each colour you offer gets its own mockup"
              />
            }
            onBack={back}
            onNext={next}
          />
        ) : (
          <MissingPrerequisite text="Choose a design first: the mockups show it." onBack={back} />
        ))}
      {current === 'details' && <DetailsStep state={state} update={update} onBack={back} onNext={next} />}
      {current === 'pricing' && (
        <PricingStep
          state={state}
          update={update}
          pricing={pricing}
          onBack={back}
          onDone={() => {
            finished.current = true;
            reset();
            navigate('/?tab=my-products');
          }}
        />
      )}
    </div>
  );
}

function MissingPrerequisite({ text, onBack }: { text: string; onBack: () => void }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-start gap-3 py-8">
        <p className="text-sm text-slate-600">{text}</p>
        <Button variant="outline" onClick={onBack}>
          Back to Design
        </Button>
      </CardContent>
    </Card>
  );
}
