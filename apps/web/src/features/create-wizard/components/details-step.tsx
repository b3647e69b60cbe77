import type { TCatalogProductDetail } from '@podforge/contract';
import { Loader2, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { useGenerateContent } from '@/api/ai/generate-content';
import { useCatalogProduct } from '@/api/catalog/get-catalog-product';
import { ListingEditor } from '@/components/listing/listing-editor';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { listingProblems, parseTags } from '@/lib/listing';
import type { WizardUpdate } from '../use-wizard-state';
import { canContinue, productTypeFor, selectedMockup, type WizardState, wizardPrinter } from '../wizard-state';

/** The colours and sizes of the enabled variants, in catalogue order; nothing while the catalogue is loading. */
function offeredColoursAndSizes(
  catalog: TCatalogProductDetail | undefined,
  choices: readonly { catalogVariantId: number }[],
): { colors?: string[]; sizes?: string[] } {
  if (!catalog || choices.length === 0) return {};
  const enabled = new Set(choices.map((c) => c.catalogVariantId));
  const chosen = catalog.variants.filter((v) => enabled.has(v.id));
  if (chosen.length === 0) return {};
  return { colors: [...new Set(chosen.map((v) => v.color))], sizes: [...new Set(chosen.map((v) => v.size))] };
}

type Props = { state: WizardState; update: WizardUpdate; onBack: () => void; onNext: () => void };

/** Wizard step 4: the listing text, written by the AI provider or by hand, previewed as buyers will see it. */
export function DetailsStep({ state, update, onBack, onNext }: Props) {
  const { details } = state;
  const [tagsText, setTagsText] = useState(details.tags.join(', '));
  const generate = useGenerateContent();
  const design = state.designFiles[0] ?? null;
  const platform = state.platform ?? 'shopify';
  const productType = productTypeFor(state.selectedTemplate, state.selectedCategory);
  const mockup = selectedMockup(state);
  const prices = state.pricing.variants.map((v) => v.price);
  const price = prices.length ? Math.min(...prices) : null;
  const problems = listingProblems({ title: details.title, tags: details.tags, platform });
  const catalogProductId = state.pricing.catalogProductId;
  const catalog = useCatalogProduct(catalogProductId, wizardPrinter(state).provider);
  const offered = offeredColoursAndSizes(catalog.data, state.pricing.variants);

  const setDetails = (patch: Partial<WizardState['details']>) =>
    update((s) => ({ details: { ...s.details, ...patch } }));

  const onGenerate = () => {
    if (!design) return;
    generate.mutate(
      {
        filename: design.name,
        productType,
        platform,
        designId: design.id,
        // The text names the chosen blank and promises only the colours and sizes the product is sold in.
        // (The AI reads Printful's catalogue: another printer's product is described by its colours and sizes.)
        ...(catalogProductId && wizardPrinter(state).provider === 'printful' ? { catalogProductId } : {}),
        ...offered,
      },
      {
        onSuccess: (result) => {
          update({
            // Prices and variants stay the catalogue product's (Pricing): the AI only writes the listing.
            details: { title: result.title, description: result.description, tags: parseTags(result.tags.join(',')) },
          });
          setTagsText(result.tags.join(', '));
          toast({ title: 'Content Generated', description: 'Review the listing and edit it.', variant: 'success' });
        },
        onError: (error) => {
          const reason = error instanceof ApiError ? error.serverMessage : null;
          toast({
            title: 'Generation Failed',
            description: reason
              ? `Failed to generate content. ${reason}`
              : 'Failed to generate content. Please try again.',
            variant: 'destructive',
          });
        },
      },
    );
  };

  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader className="flex flex-row items-center justify-between gap-3">
            <CardTitle as="h3" className="text-base">
              Listing
            </CardTitle>
            <Button onClick={onGenerate} disabled={!design || generate.isPending || catalog.isLoading}>
              {generate.isPending ? <Loader2 className="animate-spin" /> : <Sparkles />}
              {generate.isPending ? 'Generating...' : 'Generate AI Content'}
            </Button>
          </CardHeader>
          <CardContent className="space-y-4">
            {!design && <p className="text-sm text-slate-500">Choose a design first: the listing is written for it.</p>}
            <ListingEditor
              value={{ title: details.title, description: details.description, tagsText }}
              onChange={({ tagsText: text, ...patch }) => {
                if (text !== undefined) setTagsText(text);
                setDetails(text === undefined ? patch : { ...patch, tags: parseTags(text) });
              }}
              problems={problems}
              tagsHint="Separate tags with commas."
              tagsPlaceholder="retro, sunset, summer"
              descriptionRows={6}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle as="h3" className="text-base">
              Preview
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-3" data-testid="listing-preview">
            {mockup ? (
              <img src={mockup.previewUrl} alt="Product mockup" className="w-full max-w-xs rounded border" />
            ) : (
              <div className="flex aspect-[4/5] w-full max-w-xs items-center justify-center rounded bg-slate-100 text-sm text-slate-400">
                No mockup yet
              </div>
            )}
            <p className="text-lg font-semibold">{details.title || 'Untitled product'}</p>
            <p className="font-medium">{price === null ? 'No price yet' : `$${price.toFixed(2)}`}</p>
            <p className="whitespace-pre-line text-sm text-slate-600">{details.description}</p>
            {details.tags.length > 0 && (
              <ul className="flex flex-wrap gap-1" aria-label="Preview tags">
                {details.tags.map((t) => (
                  <li key={t} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                    {t}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>

      <div className="flex justify-between">
        <Button variant="outline" onClick={onBack}>
          Back to Mockups
        </Button>
        <Button onClick={onNext} disabled={!canContinue(state, 'details')}>
          Continue to Pricing
        </Button>
      </div>
    </div>
  );
}
