import type { TDesign, TMockup } from '@podforge/contract';
import { AI_PRODUCT_TYPE_LABELS, mockupProductType } from '@podforge/contract/plain';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { MockupRenderPanel } from '@/components/mockups/mockup-render-panel';
import { Button } from '@/components/ui/button';
import { catalogColors } from '@/lib/variant-pricing';
import type { ListingContent } from '../simple-flow';
import type { usePickedBlank } from '../use-picked-blank';

type Props = {
  design: TDesign;
  content: ListingContent;
  /** Every render of the last batch, and the one picked. */
  mockups: TMockup[];
  mockup: TMockup | null;
  creating: boolean;
  /** The blank it is printed on: the one picked in the Product Picker, else the type's default. */
  blank: ReturnType<typeof usePickedBlank>;
  onMockups: (mockups: TMockup[], chosen: TMockup | null) => void;
  onCreate: () => void;
  onBack: () => void;
};

/**
 * Spec section 2 'Preview Mockup': the seller places the design in the editor, the server renders the chosen view
 * with that exact placement, and the picked render becomes the product's mockup.
 */
export function PreviewMockupStep({
  design,
  content,
  mockups,
  mockup,
  creating,
  blank: picked,
  onMockups,
  onCreate,
  onBack,
}: Props) {
  const [rendering, setRendering] = useState(false);
  const { blank, mismatch } = picked;
  const renders = mockups.length > 0 ? mockups : mockup ? [mockup] : [];
  return (
    <div className="space-y-6">
      {blank.data && (
        <p className="text-sm text-slate-600" data-testid="blank-product">
          Printed on <span className="font-medium">{blank.data.name}</span> ({blank.data.brand} {blank.data.model}).
        </p>
      )}
      {mismatch && (
        <p className="text-sm text-amber-700" role="status" data-testid="blank-mismatch">
          The product you picked, {mismatch.name}, is not a {AI_PRODUCT_TYPE_LABELS[content.productType]}: this listing
          is printed on the blank above.
        </p>
      )}
      <MockupRenderPanel
        design={design}
        productType={mockupProductType(content.productType)}
        mockups={renders}
        selectedMockupId={mockup?.id ?? null}
        onMockupsChange={(next, selectedId) => onMockups(next, next.find((m) => m.id === selectedId) ?? null)}
        onBusyChange={setRendering}
        // The blank's own colours and names: the preview offers only what it comes in.
        colors={blank.data ? catalogColors(blank.data.variants) : undefined}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button variant="outline" onClick={onBack}>
          Back to Content
        </Button>
        <div className="flex items-center gap-3">
          {!mockup && <span className="text-sm text-slate-500">Generate the mockups to pick the product image.</span>}
          <Button onClick={onCreate} disabled={!mockup || creating || rendering}>
            {creating && <Loader2 className="animate-spin" />}
            Create Product
          </Button>
        </div>
      </div>
    </div>
  );
}
