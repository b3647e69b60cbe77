import type { TAiProductType, TMockup } from '@podforge/contract';
import { AI_PRODUCT_TYPE_LABELS } from '@podforge/contract/plain';
import { type ReactNode, useState } from 'react';
import type { MockupDesignSource } from '@/components/mockups/mockup-preview';
import { MockupRenderPanel } from '@/components/mockups/mockup-render-panel';
import { Button } from '@/components/ui/button';

type Props = {
  /** The design to place (the wizard's first selected design). */
  design: MockupDesignSource & { id: string };
  /** One of the mockup sets: tshirt, hoodie, mug, poster. */
  productType: string;
  /** Renders kept from an earlier visit, and the one chosen as the product image. */
  mockups: TMockup[];
  selectedMockupId: string | null;
  onMockupsChange: (mockups: TMockup[], selectedMockupId: string | null) => void;
  onBack: () => void;
  onNext: () => void;
  /** The catalogue colours offered: one mockup each (see MockupRenderPanel). */
  colors?: readonly { name: string; hex: string }[];
  onColorMockups?: (byColor: Record<string, string>) => void;
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
