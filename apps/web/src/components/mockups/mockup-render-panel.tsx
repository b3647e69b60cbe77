import type { TMockup } from '@podforge/contract';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useGenerateMockups } from '@/api/mockups/generate-mockups';
import { useMockupTemplates } from '@/api/mockups/get-mockup-templates';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { nearestColor } from '@/lib/colors';
import { cn } from '@/lib/utils';
import { type MockupDesignSource, MockupPreview, type MockupSelection } from './mockup-preview';

type Props = {
  design: MockupDesignSource & { id: string };
  /** One of the mockup sets: tshirt, hoodie, mug, poster. */
  productType: string;
  /** Renders kept from earlier, and the one picked as the product image. */
  mockups: TMockup[];
  selectedMockupId: string | null;
  onMockupsChange: (mockups: TMockup[], selectedMockupId: string | null) => void;
  /** Tells the parent a render is running (its Continue waits for it). */
  onBusyChange?: (busy: boolean) => void;
  /**
   * The catalogue colours the product offers: one mockup is rendered per colour (in the template colour nearest
   * to its hex) instead of every template colour, and `onColorMockups` says which mockup shows which colour.
   */
  colors?: readonly { name: string; hex: string }[];
  onColorMockups?: (byColor: Record<string, string>) => void;
};

/** Each catalogue colour's nearest template colour id (by hex); colours with no usable hex are left out. */
export function templateColorsFor(
  colors: readonly { name: string; hex: string }[],
  templateColors: readonly { id: string; hex: string }[],
): Record<string, string> {
  const byColor: Record<string, string> = {};
  for (const c of colors) {
    const match = nearestColor(c.hex, templateColors);
    if (match) byColor[c.name] = match.id;
  }
  return byColor;
}

/**
 * The editor and the server render together, for both create flows: the seller places the design, the server
 * renders the chosen view (in every colour, or only the chosen one) with that exact placement, showing real
 * progress, and the seller picks the render buyers see first.
 */
export function MockupRenderPanel({
  design,
  productType,
  mockups,
  selectedMockupId,
  onMockupsChange,
  onBusyChange,
  colors,
  onColorMockups,
}: Props) {
  const templates = useMockupTemplates(productType);
  const [selection, setSelection] = useState<MockupSelection | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  // Every colour is the default; one colour renders in a second rather than several on a busy server.
  const [everyColour, setEveryColour] = useState(true);
  const generate = useGenerateMockups((job) => {
    setProgress({ done: job.done, total: job.total });
    onMockupsChange(job.mockups, null);
  });

  const onGenerate = () => {
    if (!selection) return;
    const template = templates.data?.templates.find((t) => t.id === selection.templateId);
    const perColor = colors && template ? templateColorsFor(colors, template.colors) : null;
    const wanted = perColor ? [...new Set(Object.values(perColor))] : [];
    const colorIds = perColor && wanted.length > 0 ? wanted : everyColour ? null : [selection.color];
    onMockupsChange([], null);
    onBusyChange?.(true);
    generate.mutate(
      {
        designId: design.id,
        productType,
        adjustments: selection.adjustments,
        templateIds: [selection.templateId],
        ...(colorIds ? { colors: colorIds } : {}),
      },
      {
        onSuccess: (job) => {
          const chosen = job.mockups.find((m) => m.color === selection.color) ?? job.mockups[0] ?? null;
          onMockupsChange(job.mockups, chosen?.id ?? null);
          if (perColor && onColorMockups) {
            const byColor: Record<string, string> = {};
            for (const [name, templateColor] of Object.entries(perColor)) {
              const mockup = job.mockups.find((m) => m.color === templateColor);
              if (mockup) byColor[name] = mockup.id;
            }
            onColorMockups(byColor);
          }
          toast({
            title: 'Mockups Ready',
            description:
              job.total === 1 ? '1 mockup rendered.' : `${job.total} mockups rendered. Pick the one buyers see first.`,
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({ title: 'Mockup Generation Failed', description: error.message, variant: 'destructive' }),
        onSettled: () => onBusyChange?.(false),
      },
    );
  };

  // A render's colour in the seller's words: the catalogue colours drawn in it, else the template colour's name.
  const shown = templates.data?.templates.find((t) => t.id === selection?.templateId) ?? templates.data?.templates[0];
  const byTemplateColor = colors && shown ? templateColorsFor(colors, shown.colors) : {};
  const colourLabel = (templateColor: string | null) => {
    if (!templateColor) return 'default colour';
    const names = Object.entries(byTemplateColor)
      .filter(([, id]) => id === templateColor)
      .map(([name]) => name);
    return names.length > 0
      ? names.join(' / ')
      : (shown?.colors.find((c) => c.id === templateColor)?.name ?? templateColor.replace(/-/g, ' '));
  };
  const what = `${design.name ?? 'Design'} on ${shown?.name ?? productType}`;

  return (
    <div className="space-y-6">
      <MockupPreview
        productType={productType}
        design={design}
        colors={colors}
        onChange={setSelection}
        fullSize={mockups.find((m) => m.id === selectedMockupId) ?? null}
      />
      <Card>
        <CardContent className="space-y-4 pt-6">
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={onGenerate} disabled={!selection || generate.isPending}>
              {generate.isPending && <Loader2 className="animate-spin" />}
              {mockups.length > 0 && !generate.isPending ? 'Regenerate Mockups' : 'Generate Mockups'}
            </Button>
            {colors ? (
              <p className="text-sm text-slate-600" data-testid="mockup-colours">
                One mockup per colour you offer, exactly as placed:{' '}
                {colors.length > 0 ? colors.map((c) => c.name).join(', ') : 'no colour chosen yet'}
              </p>
            ) : (
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
            )}
            {progress && (
              <span className="text-sm text-slate-600" data-testid="mockup-progress">
                {progress.done} of {progress.total} rendered
              </span>
            )}
          </div>
          {progress && generate.isPending && (
            <div
              className="h-2 w-full overflow-hidden rounded bg-slate-100"
              role="progressbar"
              aria-label="Rendering mockups"
              aria-valuemin={0}
              aria-valuemax={progress.total}
              aria-valuenow={progress.done}
            >
              <div
                className="h-full bg-brand-600 transition-all"
                style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 0}%` }}
              />
            </div>
          )}
          {mockups.length > 0 && (
            <fieldset>
              <legend className="mb-2 text-sm font-medium">Product image</legend>
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
                {mockups.map((m) => {
                  const picked = m.id === selectedMockupId;
                  return (
                    <li key={m.id}>
                      <button
                        type="button"
                        aria-pressed={picked}
                        aria-label={`Use the ${colourLabel(m.color)} mockup`}
                        data-testid="mockup-result"
                        disabled={generate.isPending}
                        onClick={() => onMockupsChange(mockups, m.id)}
                        className={cn(
                          'relative block w-full overflow-hidden rounded-lg border-2',
                          picked ? 'border-brand-600' : 'border-transparent hover:border-slate-300',
                        )}
                      >
                        <img
                          src={m.previewUrl}
                          alt={`Mockup: ${what}, ${colourLabel(m.color)}`}
                          className="w-full bg-slate-50"
                        />
                        {picked && (
                          <CheckCircle2 className="absolute top-1 right-1 h-5 w-5 rounded-full bg-white text-brand-600" />
                        )}
                        <span className="block truncate px-1 py-1 text-xs text-slate-600">{colourLabel(m.color)}</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
