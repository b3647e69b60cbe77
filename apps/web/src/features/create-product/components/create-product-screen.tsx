import type { TDesign } from '@podforge/contract';
import { Loader2, RotateCcw } from 'lucide-react';
import { lazy, Suspense, useEffect } from 'react';
import { Link } from 'react-router';
import { useDesign } from '@/api/designs/get-design';
import { useCreateProduct } from '@/api/products/create-product';
import { CreateModeSwitch } from '@/components/create-mode-switch';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { INITIAL_FLOW, isStepEnabled, type SimpleFlowStep, stepFromQuery } from '../simple-flow';
import { usePickedBlank } from '../use-picked-blank';
import { useSimpleFlow } from '../use-simple-flow';
import { StepIndicator } from './step-indicator';
import { UploadDesignStep } from './upload-design-step';

// The steps after the first load when the flow reaches them: the page opens on Upload Design with its code only.
const GenerateContentStep = lazy(async () => ({
  default: (await import('./generate-content-step')).GenerateContentStep,
}));
const PreviewMockupStep = lazy(async () => ({ default: (await import('./preview-mockup-step')).PreviewMockupStep }));
const UploadToStoresStep = lazy(async () => ({
  default: (await import('./upload-to-stores-step')).UploadToStoresStep,
}));

type Props = {
  /** From `/create-product?step=`: the AI shortcuts open the flow at 'details' (the listing) or 'design'. */
  step: string | null;
  /** From `?focus=tags`: the field to focus when the listing step opens. */
  focus: string | null;
  /** From `?designId=`: the design chosen with 'Process Design' on the Upload Design screen. */
  designId?: string | null;
  /** Spec section 4: after creation the dashboard switches to My Products (the shell knows where that is). */
  onProductCreated?: () => void;
  /** From `?product=&category=`: the catalogue product picked in the Product Picker (or the wizard). */
  product?: string | null;
  category?: string | null;
};

const positive = (text: string | null | undefined) => {
  const n = Number(text);
  return text && Number.isInteger(n) && n > 0 ? n : null;
};

/** Spec section 2 'Simple create flow': Upload Design, Generate Content, Preview Mockup, Upload to Stores. */
export function CreateProductScreen({ step, focus, designId = null, onProductCreated, product, category }: Props) {
  const { state, update, reset } = useSimpleFlow();
  const pickedProduct = positive(product);
  // A blank picked in the Product Picker (or the wizard) is the one this flow prints on.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new pick in the URL changes the kept one.
  useEffect(() => {
    if (pickedProduct !== null) update({ picked: { product: pickedProduct, category: positive(category) } });
  }, [pickedProduct]);
  const picked =
    pickedProduct !== null ? { product: pickedProduct, category: positive(category) } : (state.picked ?? null);
  const blank = usePickedBlank(picked?.product ?? null, state.content?.productType ?? null);
  const handedOver = useDesign(designId && designId !== state.design?.id ? designId : null);
  const create = useCreateProduct();

  const chooseDesign = (design: TDesign) => {
    // A new design starts a new product: its listing, mockup and product belong to the old one.
    if (design.id === state.design?.id) update({ step: 'content' });
    else update({ ...INITIAL_FLOW, picked: state.picked ?? null, design, step: 'content' });
  };

  // 'Process Design' hands a design over in the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the handed-over design arrives.
  useEffect(() => {
    if (handedOver.data)
      update({ ...INITIAL_FLOW, picked: state.picked ?? null, design: handedOver.data, step: 'content' });
  }, [handedOver.data]);

  // `?step=` opens that step when the progress allows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the URL's step moves the flow.
  useEffect(() => {
    const wanted = stepFromQuery(step);
    if (wanted && isStepEnabled(state, wanted)) update({ step: wanted });
  }, [step]);

  const goTo = (next: SimpleFlowStep) => {
    if (isStepEnabled(state, next)) update({ step: next });
  };

  const onCreate = () => {
    const { design, content, mockup, mockups } = state;
    if (!design || !content) {
      toast({
        title: 'Missing Information',
        description: 'Please upload a design and generate content first.',
        variant: 'destructive',
      });
      return;
    }
    create.mutate(
      {
        designId: design.id,
        mockupId: mockup?.id,
        // Every colour's render is the product's; the picked one is its main picture.
        mockupIds: [...new Set([mockup?.id, ...mockups.map((m) => m.id)].filter((id): id is string => !!id))],
        title: content.title,
        description: content.description,
        price: content.price,
        tags: content.tags,
        productType: content.productType,
        variants: content.variants,
        ...(blank.catalogProductId !== null ? { catalogProductId: blank.catalogProductId } : {}),
        status: 'draft',
      },
      {
        onSuccess: (product) => {
          toast({
            title: 'Product Created',
            description: `${product.title} was saved as a draft.`,
            variant: 'success',
          });
          // Spec section 4: the product id is kept (it enables Upload to Stores), the flow returns to its first
          // step, and the dashboard switches to My Products.
          update({ productId: product.id, step: 'upload' });
          onProductCreated?.();
        },
        onError: (error) => {
          const reason = error instanceof ApiError ? error.serverMessage : null;
          toast({
            title: 'Creation Failed',
            description: reason ? `Failed to create product. ${reason}` : 'Failed to create product. Please try again.',
            variant: 'destructive',
          });
        },
      },
    );
  };

  const wantedStep = stepFromQuery(step);
  const blockedStep = wantedStep && !isStepEnabled(state, wantedStep);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Create Product</h1>
          <p className="text-slate-500">
            Upload a design, generate the listing with AI, preview the mockup and upload it to your stores.
          </p>
          <div className="mt-3">
            <CreateModeSwitch active="quick" picked={picked} />
          </div>
        </div>
        {(state.design || state.productId) && (
          <Button variant="outline" onClick={reset}>
            <RotateCcw /> Start a new product
          </Button>
        )}
      </div>

      <StepIndicator state={state} onSelect={goTo} />

      {handedOver.isFetching && (
        <p className="flex items-center gap-2 text-sm text-slate-500" role="status">
          <Loader2 className="h-4 w-4 animate-spin" /> Opening your design…
        </p>
      )}
      {handedOver.isError && (
        <p className="text-sm text-red-600" role="alert">
          The design could not be opened: {handedOver.error.message}
        </p>
      )}
      {blockedStep && state.step === 'upload' && !state.design && (
        <p className="rounded-md bg-brand-50 p-3 text-sm text-brand-800" role="status">
          Upload a design first: the listing is written for it.
          {wantedStep === 'content' && (
            <>
              {' '}
              No design yet?{' '}
              <Link to="/?tab=ai-generator#content-generator" className="font-medium underline">
                Write a listing from keywords
              </Link>{' '}
              instead.
            </>
          )}
        </p>
      )}

      {state.step === 'upload' && <UploadDesignStep design={state.design} onDesign={chooseDesign} />}
      <Suspense
        fallback={
          <p role="status" className="py-16 text-center text-sm text-muted-foreground">
            Loading…
          </p>
        }
      >
        {state.step === 'content' && state.design && (
          <GenerateContentStep
            key={state.design.id}
            design={state.design}
            content={state.content}
            focusTags={focus === 'tags'}
            onAccept={(content) => update({ content, mockups: [], mockup: null, productId: null, step: 'mockup' })}
            onBack={() => update({ step: 'upload' })}
          />
        )}
        {state.step === 'mockup' && state.design && state.content && (
          <PreviewMockupStep
            design={state.design}
            content={state.content}
            mockups={state.mockups}
            mockup={state.mockup}
            creating={create.isPending}
            blank={blank}
            onMockups={(mockups, mockup) => update({ mockups, mockup })}
            onCreate={onCreate}
            onBack={() => update({ step: 'content' })}
          />
        )}
        {state.step === 'stores' && state.productId && <UploadToStoresStep productId={state.productId} />}
      </Suspense>
    </div>
  );
}
