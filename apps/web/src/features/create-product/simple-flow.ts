import type { TAiPlatform, TAiProductType, TDesign, TMockup, TVariant } from '@podforge/contract';

/** Spec section 2 'Simple create flow': four steps, each enabled by the progress before it. */
export const SIMPLE_FLOW_STEPS = [
  { id: 'upload', label: 'Upload Design' },
  { id: 'content', label: 'Generate Content' },
  { id: 'mockup', label: 'Preview Mockup' },
  { id: 'stores', label: 'Upload to Stores' },
] as const;
export type SimpleFlowStep = (typeof SIMPLE_FLOW_STEPS)[number]['id'];

/** The listing as the seller accepted (and possibly edited) it. */
export type ListingContent = {
  title: string;
  description: string;
  tags: string[];
  price: number;
  variants: TVariant[];
  productType: TAiProductType;
  platform: TAiPlatform;
};

export type SimpleFlowState = {
  step: SimpleFlowStep;
  design: TDesign | null;
  content: ListingContent | null;
  /** Every mockup of the last render (one per colour): the product links them all. */
  mockups: TMockup[];
  /** The one picked: the product's main picture. */
  mockup: TMockup | null;
  productId: string | null;
  /** The catalogue product picked in the Product Picker (`?product=&category=`), kept for a new design too. */
  picked?: { product: number; category: number | null } | null;
};

export const INITIAL_FLOW: SimpleFlowState = {
  step: 'upload',
  design: null,
  content: null,
  mockups: [],
  mockup: null,
  productId: null,
  picked: null,
};

/** Spec section 4: an upload enables content, content enables the mockup, a created product enables store upload. */
export function isStepEnabled(state: SimpleFlowState, step: SimpleFlowStep): boolean {
  switch (step) {
    case 'upload':
      return true;
    case 'content':
      return state.design !== null;
    case 'mockup':
      return state.design !== null && state.content !== null;
    case 'stores':
      return state.productId !== null;
  }
}

export function isStepComplete(state: SimpleFlowState, step: SimpleFlowStep): boolean {
  switch (step) {
    case 'upload':
      return state.design !== null;
    case 'content':
      return state.content !== null;
    case 'mockup':
      return state.productId !== null;
    case 'stores':
      return false;
  }
}

/** `?step=` of the dashboard's AI shortcuts: 'design' is the upload step, 'details' the listing text. */
export function stepFromQuery(step: string | null): SimpleFlowStep | null {
  if (step === 'design' || step === 'upload') return 'upload';
  if (step === 'details' || step === 'content') return 'content';
  if (step === 'mockup') return 'mockup';
  if (step === 'stores') return 'stores';
  return null;
}
