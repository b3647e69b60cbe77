import { mockupProductType, type TDesign, type TMockup } from '@podforge/contract';
import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { MockupRenderPanel } from '@/components/mockups/mockup-render-panel';
import { Button } from '@/components/ui/button';
import type { ListingContent } from '../simple-flow';

type Props = {
  design: TDesign;
  content: ListingContent;
  mockup: TMockup | null;
  creating: boolean;
  onMockup: (mockup: TMockup | null) => void;
  onCreate: () => void;
  onBack: () => void;
};

/**
 * Spec section 2 'Preview Mockup': the seller places the design in the editor, the server renders the chosen view
 * with that exact placement, and the picked render becomes the product's mockup.
 */
export function PreviewMockupStep({ design, content, mockup, creating, onMockup, onCreate, onBack }: Props) {
  const [renders, setRenders] = useState<TMockup[]>(mockup ? [mockup] : []);
  const [rendering, setRendering] = useState(false);
  return (
    <div className="space-y-6">
      <MockupRenderPanel
        design={design}
        productType={mockupProductType(content.productType)}
        mockups={renders}
        selectedMockupId={mockup?.id ?? null}
        onMockupsChange={(next, selectedId) => {
          setRenders(next);
          onMockup(next.find((m) => m.id === selectedId) ?? null);
        }}
        onBusyChange={setRendering}
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
