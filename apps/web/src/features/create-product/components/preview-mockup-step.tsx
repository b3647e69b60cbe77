import { mockupProductType, type TDesign, type TMockup } from '@podforge/contract';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useGenerateMockups } from '@/api/mockups/generate-mockups';
import { MockupPreview, type MockupSelection } from '@/components/mockups/mockup-preview';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';
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
 * Spec section 2 'Preview Mockup': the seller places the design in the editor, the server renders the chosen view in
 * every colour with that exact placement, and the picked render becomes the product's mockup.
 */
export function PreviewMockupStep({ design, content, mockup, creating, onMockup, onCreate, onBack }: Props) {
  const productType = mockupProductType(content.productType);
  const [selection, setSelection] = useState<MockupSelection | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<TMockup[]>(mockup ? [mockup] : []);
  const generate = useGenerateMockups((job) => {
    setProgress({ done: job.done, total: job.total });
    setResults(job.mockups);
  });

  const onGenerate = () => {
    if (!selection) return;
    onMockup(null);
    setResults([]);
    generate.mutate(
      { designId: design.id, productType, adjustments: selection.adjustments, templateIds: [selection.templateId] },
      {
        onSuccess: (job) => {
          const chosen = job.mockups.find((m) => m.color === selection.color) ?? job.mockups[0] ?? null;
          onMockup(chosen);
          toast({
            title: 'Mockups Ready',
            description: `${job.total} mockups rendered. Pick the one buyers see first.`,
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({ title: 'Mockup Generation Failed', description: error.message, variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="space-y-6">
      <MockupPreview productType={productType} design={design} onChange={setSelection} />

      <Card>
        <CardContent className="space-y-4 pt-6">
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={onGenerate} disabled={!selection || generate.isPending}>
              {generate.isPending && <Loader2 className="animate-spin" />}
              {results.length > 0 && !generate.isPending ? 'Regenerate Mockups' : 'Generate Mockups'}
            </Button>
            <span className="text-sm text-slate-500">
              Renders the chosen view in every colour, exactly as placed above.
            </span>
            {progress && (
              <span className="text-sm text-slate-600" data-testid="simple-mockup-progress">
                {progress.done} of {progress.total} rendered
              </span>
            )}
          </div>
          {progress && generate.isPending && (
            <div className="h-2 w-full overflow-hidden rounded bg-slate-100">
              <div
                className="h-full bg-brand-600 transition-all"
                style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 0}%` }}
              />
            </div>
          )}
          {results.length > 0 && (
            <fieldset>
              <legend className="mb-2 text-sm font-medium">Product image</legend>
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
                {results.map((m) => {
                  const chosen = mockup?.id === m.id;
                  return (
                    <li key={m.id}>
                      <button
                        type="button"
                        aria-pressed={chosen}
                        aria-label={`Use the ${m.color ?? 'default'} mockup`}
                        data-testid="simple-mockup-result"
                        onClick={() => onMockup(m)}
                        className={cn(
                          'relative block w-full overflow-hidden rounded-lg border-2',
                          chosen ? 'border-brand-600' : 'border-transparent hover:border-slate-300',
                        )}
                      >
                        <img src={m.previewUrl} alt="" className="w-full bg-slate-50" />
                        {chosen && (
                          <CheckCircle2 className="absolute right-1 top-1 h-5 w-5 rounded-full bg-white text-brand-600" />
                        )}
                        <span className="block truncate px-1 py-1 text-xs capitalize text-slate-600">
                          {m.color?.replace(/-/g, ' ') ?? 'Default'}
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          )}
        </CardContent>
      </Card>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button variant="outline" onClick={onBack}>
          Back to Content
        </Button>
        <div className="flex items-center gap-3">
          {!mockup && <span className="text-sm text-slate-500">Generate the mockups to pick the product image.</span>}
          <Button onClick={onCreate} disabled={!mockup || creating}>
            {creating && <Loader2 className="animate-spin" />}
            Create Product
          </Button>
        </div>
      </div>
    </div>
  );
}
