import type { TAiProductType } from '@podforge/contract';
import { AI_PRODUCT_TYPE_LABELS } from '@podforge/contract/plain';
import { type ComponentProps, type ReactNode, useState } from 'react';
import { MockupRenderPanel } from '@/components/mockups/mockup-render-panel';
import { Button } from '@/components/ui/button';

/** The wizard's first selected design, its product type, the renders kept from an earlier visit and the pick. */
type Props = Omit<ComponentProps<typeof MockupRenderPanel>, 'onBusyChange'> & {
  onBack: () => void;
  onNext: () => void;
  /** Shown above the editor: what the product offers (its colours decide the renders). */
  offer?: ReactNode;
};

/** Wizard step 3: the design on the template's product type, rendered on the server; the pick is the product image. */
export function MockupsStep({
  design,
  productType,
  mockups,
  selectedMockupId,
  onMockupsChange,
  onBack,
  onNext,
  colors,
  onColorMockups,
  offer,
}: Props) {
  const [rendering, setRendering] = useState(false);
  const chosen = mockups.find((m) => m.id === selectedMockupId) ?? null;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        <span className="font-medium">{design.name ?? 'Your design'}</span> on a{' '}
        {AI_PRODUCT_TYPE_LABELS[productType as TAiProductType] ?? productType}.
      </p>
      {offer}
      <MockupRenderPanel
        colors={colors}
        onColorMockups={onColorMockups}
        design={design}
        productType={productType}
        mockups={mockups}
        selectedMockupId={selectedMockupId}
        onMockupsChange={onMockupsChange}
        onBusyChange={setRendering}
      />
      <div className="flex justify-between">
        <Button variant="outline" onClick={onBack}>
          Back to Design
        </Button>
        <Button onClick={onNext} disabled={!chosen || rendering}>
          Continue to Details
        </Button>
      </div>
    </div>
  );
}
