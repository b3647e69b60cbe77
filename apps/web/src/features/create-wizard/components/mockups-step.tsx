import type { TMockup } from '@podforge/contract';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useGenerateMockups } from '@/api/mockups/generate-mockups';
import { type MockupDesignSource, MockupPreview, type MockupSelection } from '@/components/mockups/mockup-preview';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { cn } from '@/lib/utils';

const PRODUCT_TYPE_LABELS: Record<string, string> = {
  tshirt: 'T-shirt',
  hoodie: 'Hoodie',
  mug: 'Mug',
  poster: 'Poster',
};

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
};

/**
 * Wizard step 3: place the design on the product type's real templates, then render the chosen view in every
 * colour on the server with that exact placement; the picked render becomes the product's image.
 */
export function MockupsStep({
  design,
  productType,
  mockups,
  selectedMockupId,
  onMockupsChange,
  onBack,
  onNext,
}: Props) {
  const [selection, setSelection] = useState<MockupSelection | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  // Every colour is the default; one colour renders in a few seconds rather than a minute on a busy server.
  const [everyColour, setEveryColour] = useState(true);
  const generate = useGenerateMockups((job) => {
    setProgress({ done: job.done, total: job.total });
    onMockupsChange(job.mockups, null);
  });

  const onGenerate = () => {
    if (!selection) return;
    onMockupsChange([], null);
    generate.mutate(
      {
        designId: design.id,
        productType,
        adjustments: selection.adjustments,
        templateIds: [selection.templateId],
        ...(everyColour ? {} : { colors: [selection.color] }),
      },
      {
        onSuccess: (job) => {
          const chosen = job.mockups.find((m) => m.color === selection.color) ?? job.mockups[0] ?? null;
          onMockupsChange(job.mockups, chosen?.id ?? null);
          toast({
            title: 'Mockups ready',
            description: `${job.total} mockups rendered. Pick the one buyers see first.`,
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({ title: 'Mockup generation failed', description: error.message, variant: 'destructive' }),
      },
    );
  };

  const hasResults = mockups.length > 0;
  const chosen = mockups.find((m) => m.id === selectedMockupId) ?? null;
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-600">
        <span className="font-medium">{design.name ?? 'Your design'}</span> on a{' '}
        {PRODUCT_TYPE_LABELS[productType] ?? productType}.
      </p>
      <MockupPreview productType={productType} design={design} onChange={setSelection} />

      <Card>
        <CardContent className="space-y-4 pt-6">
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={onGenerate} disabled={!selection || generate.isPending}>
              {generate.isPending && <Loader2 className="animate-spin" />}
              {hasResults && !generate.isPending ? 'Regenerate' : 'Generate Mockups'}
            </Button>
            <label className="flex items-center gap-2 text-sm text-slate-600">
              <input
                type="checkbox"
                className="h-4 w-4 accent-brand-600"
                checked={everyColour}
                disabled={generate.isPending}
                onChange={(e) => setEveryColour(e.target.checked)}
              />
              Render every colour of the chosen view (else only the chosen colour), exactly as placed
            </label>
            {progress && (
              <span className="text-sm text-slate-600" data-testid="mockup-progress">
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
          {hasResults && (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" aria-label="Generated mockups">
              {mockups.map((m) => {
                const picked = m.id === selectedMockupId;
                return (
                  <li key={m.id}>
                    <button
                      type="button"
                      aria-pressed={picked}
                      aria-label={`Use mockup ${m.templateId} ${m.color ?? ''}`.trim()}
                      data-testid="mockup-result"
                      disabled={generate.isPending}
                      onClick={() => onMockupsChange(mockups, m.id)}
                      className={cn(
                        'relative block w-full rounded border',
                        picked ? 'border-brand-600 ring-2 ring-brand-500/40' : 'border-slate-200',
                      )}
                    >
                      <img src={m.previewUrl} alt={`${m.templateId} ${m.color ?? ''}`} className="rounded" />
                      {picked && <CheckCircle2 className="absolute top-1 right-1 h-5 w-5 text-brand-600" aria-hidden />}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {chosen && <p className="text-sm text-slate-600">The picked mockup is the product image.</p>}
        </CardContent>
      </Card>

      <div className="flex justify-between">
        <Button variant="outline" onClick={onBack}>
          Back to Design
        </Button>
        <Button onClick={onNext} disabled={!chosen || generate.isPending}>
          Continue to Details
        </Button>
      </div>
    </div>
  );
}
