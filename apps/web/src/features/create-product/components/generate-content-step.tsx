import type { TAiPlatform, TAiProductType, TDesign, TVariant } from '@podforge/contract';
import {
  AI_AUDIENCE_LABELS,
  AI_AUDIENCES,
  AI_PLATFORMS,
  AI_PRODUCT_TYPE_LABELS,
  AI_PRODUCT_TYPES,
  mockupProductType,
  platformLabel,
} from '@podforge/contract/plain';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2, ScanSearch, Sparkles, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useAnalyzeImage } from '@/api/ai/analyze-image';
import { useGenerateContent } from '@/api/ai/generate-content';
import { mockupTemplatesQueryOptions } from '@/api/mockups/get-mockup-templates';
import { AiModelNotice } from '@/components/ai/ai-model-notice';
import { ListingEditor } from '@/components/listing/listing-editor';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { failureDescription } from '@/lib/failure-notice';
import { listingProblems, parseTags, variantsFromContent } from '@/lib/listing';
import { cn } from '@/lib/utils';
import type { ListingContent } from '../simple-flow';

type Props = {
  design: TDesign;
  content: ListingContent | null;
  focusTags: boolean;
  onAccept: (content: ListingContent) => void;
  onBack: () => void;
};

/** Spec section 2: listing text for the uploaded design, written by the AI provider and edited by the seller. */
export function GenerateContentStep({ design, content, focusTags, onAccept, onBack }: Props) {
  const formId = useId();
  const [filename, setFilename] = useState(design.name);
  const [productType, setProductType] = useState<TAiProductType>(content?.productType ?? 'tshirt');
  const [targetAudience, setTargetAudience] = useState<string>('unisex');
  const [platform, setPlatform] = useState<TAiPlatform>(content?.platform ?? 'shopify');
  const [designDescription, setDesignDescription] = useState('');
  const [draft, setDraft] = useState<ListingContent | null>(content);
  const [tagsText, setTagsText] = useState((content?.tags ?? []).join(', '));
  const tagsRef = useRef<HTMLInputElement>(null);
  // Regenerate asks for other wording: each attempt sends the next seed.
  const attempts = useRef(0);
  const generate = useGenerateContent();
  const analyze = useAnalyzeImage();
  const busy = generate.isPending || analyze.isPending;
  // The next step shows this product's mockups: its template list is asked for now, so the server decodes the
  // templates while the seller writes the listing.
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.prefetchQuery(mockupTemplatesQueryOptions(mockupProductType(productType)));
  }, [productType, queryClient]);

  const applyResult = (
    result: { title: string; description: string; tags: string[]; price: number } & Parameters<
      typeof variantsFromContent
    >[0],
  ) => {
    const next: ListingContent = {
      title: result.title,
      description: result.description,
      tags: result.tags,
      price: result.price,
      variants: variantsFromContent(result),
      productType,
      platform,
    };
    setDraft(next);
    setTagsText(next.tags.join(', '));
  };

  /** Analyze Image: the design's own file goes to the server, which reads the picture and writes the listing. */
  const onAnalyze = async () => {
    let image: Blob;
    try {
      const response = await fetch(design.originalUrl, { credentials: 'include' });
      if (!response.ok) throw new Error(`${response.status}`);
      image = new Blob([await response.arrayBuffer()], { type: response.headers.get('content-type') ?? '' });
    } catch {
      toast({
        title: 'Analysis Failed',
        description: failureDescription('Failed to analyze image. Please try again.', null),
        variant: 'destructive',
      });
      return;
    }
    analyze.mutate(
      { image, filename: design.name, productType, targetAudience, platform, seed: attempts.current++ },
      {
        onSuccess: (result) => {
          applyResult(result);
          const colours = result.analysis.colors.map((c) => c.name).join(', ');
          toast({
            title: 'Image Analyzed',
            description: `Listing written from the picture${colours ? ` (${colours})` : ''}. Review it, then use it.`,
            variant: 'success',
          });
        },
        onError: (error) =>
          toast({
            title: 'Analysis Failed',
            description: failureDescription('Failed to analyze image. Please try again.', error),
            variant: 'destructive',
          }),
      },
    );
  };

  // `?focus=tags` from the dashboard's 'Generate tags' shortcut.
  useEffect(() => {
    if (focusTags && draft) tagsRef.current?.focus();
  }, [focusTags, draft]);

  const onGenerate = () => {
    generate.mutate(
      {
        filename: filename.trim(),
        productType,
        targetAudience: targetAudience as (typeof AI_AUDIENCES)[number],
        platform,
        designDescription,
        designId: design.id,
        seed: attempts.current++,
      },
      {
        onSuccess: (result) => {
          applyResult(result);
          toast({
            title: 'Content Generated',
            description: 'Review the listing, edit it, then use it.',
            variant: 'success',
          });
        },
        onError: (error) => {
          const body = error instanceof ApiError ? error.body : null;
          if (body?.errorType === 'QUOTA_EXCEEDED') {
            toast({
              title: 'AI Credits Used Up',
              description: String(body.message ?? body.error ?? 'This month’s AI credits are used up.'),
              variant: 'destructive',
            });
            return;
          }
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

  const edit = (patch: Partial<ListingContent>) => setDraft((d) => (d ? { ...d, ...patch } : d));
  const editVariant = (index: number, patch: Partial<TVariant>) =>
    edit({ variants: (draft?.variants ?? []).map((v, i) => (i === index ? { ...v, ...patch } : v)) });

  const tags = parseTags(tagsText);
  const current = draft ? { ...draft, tags } : null;
  const problems = current ? listingProblems(current) : [];
  const missing = current
    ? [
        !current.title.trim() && 'a title',
        !current.description.trim() && 'a description',
        current.variants.length === 0 && 'at least one variant',
        current.variants.some((v) => !v.option.trim()) && 'a name for every variant',
      ].filter(Boolean)
    : [];

  return (
    <div className="grid gap-6 lg:grid-cols-[320px_1fr]">
      <Card>
        <CardHeader>
          <CardTitle className="text-base">About the design</CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <AiModelNotice />
          <img
            src={design.thumbnailUrl}
            alt={design.name}
            className="mx-auto h-40 w-40 rounded bg-slate-100 object-contain"
          />
          <label className="block space-y-1 text-sm font-medium" htmlFor={`${formId}-filename`}>
            <span>File name</span>
            <input
              id={`${formId}-filename`}
              className={inputClass}
              value={filename}
              onChange={(e) => setFilename(e.target.value)}
            />
          </label>
          <label className="block space-y-1 text-sm font-medium">
            <span>Product type</span>
            <NativeSelect value={productType} onChange={(e) => setProductType(e.target.value as TAiProductType)}>
              {AI_PRODUCT_TYPES.map((t) => (
                <option key={t} value={t}>
                  {AI_PRODUCT_TYPE_LABELS[t]}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block space-y-1 text-sm font-medium">
            <span>Target audience</span>
            <NativeSelect value={targetAudience} onChange={(e) => setTargetAudience(e.target.value)}>
              {AI_AUDIENCES.map((a) => (
                <option key={a} value={a}>
                  {AI_AUDIENCE_LABELS[a]}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block space-y-1 text-sm font-medium">
            <span>Platform</span>
            <NativeSelect value={platform} onChange={(e) => setPlatform(e.target.value as TAiPlatform)}>
              {AI_PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformLabel(p)}
                </option>
              ))}
            </NativeSelect>
          </label>
          <label className="block space-y-1 text-sm font-medium">
            <span>Design description (optional)</span>
            <textarea
              className={inputClass}
              rows={3}
              maxLength={1000}
              placeholder="e.g. a retro sunset behind a cat silhouette"
              value={designDescription}
              onChange={(e) => setDesignDescription(e.target.value)}
            />
          </label>
          <Button className="w-full" onClick={onGenerate} disabled={!filename.trim() || busy}>
            {generate.isPending ? <Loader2 className="animate-spin" /> : <Sparkles />}
            {draft ? 'Regenerate Content' : 'Generate Content'}
          </Button>
          {/* Spec: Analyze Image only when a file exists; it reads the picture itself rather than its name. */}
          {design.originalUrl && (
            <Button className="w-full" variant="outline" onClick={onAnalyze} disabled={busy}>
              {analyze.isPending ? <Loader2 className="animate-spin" /> : <ScanSearch />}
              {analyze.isPending ? 'Analyzing...' : 'Analyze Image'}
            </Button>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Listing</CardTitle>
        </CardHeader>
        <CardContent>
          {!current ? (
            <p className="py-12 text-center text-sm text-slate-500">
              Generate the title, description, tags, price and variants for this design, then edit them as you like.
            </p>
          ) : (
            <ListingEditor
              value={{ title: current.title, description: current.description, tagsText }}
              onChange={({ tagsText: text, ...patch }) => {
                if (text !== undefined) setTagsText(text);
                edit(patch);
              }}
              problems={problems}
              copyable
              tagsLabel="Tags (comma separated)"
              tagsRef={tagsRef}
            >
              <label className="block w-40 space-y-1 text-sm font-medium">
                <span>Price (USD)</span>
                <input
                  className={inputClass}
                  type="number"
                  min={0}
                  step="0.01"
                  value={current.price}
                  onChange={(e) => edit({ price: Number(e.target.value) || 0 })}
                />
              </label>
              <fieldset className="space-y-2">
                <legend className="text-sm font-medium">Variants</legend>
                <ul className="space-y-2">
                  {current.variants.map((variant, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: variants are edited in place; their names change as typed.
                    <li key={index} className="flex items-center gap-2" data-testid="variant-row">
                      <input
                        aria-label={`Variant ${index + 1} name`}
                        // min-w-0: an input's intrinsic width would otherwise push the row past a 390 px screen.
                        className={cn(inputClass, 'min-w-0 flex-1')}
                        value={variant.option}
                        onChange={(e) => editVariant(index, { option: e.target.value })}
                      />
                      <input
                        aria-label={`Variant ${index + 1} price`}
                        className={cn(inputClass, 'w-24 shrink-0')}
                        type="number"
                        min={0}
                        step="0.01"
                        value={variant.price}
                        onChange={(e) => editVariant(index, { price: Number(e.target.value) || 0 })}
                      />
                      <Button
                        size="icon"
                        variant="ghost"
                        aria-label={`Remove variant ${variant.option}`}
                        onClick={() => edit({ variants: current.variants.filter((_, i) => i !== index) })}
                      >
                        <Trash2 />
                      </Button>
                    </li>
                  ))}
                </ul>
              </fieldset>
            </ListingEditor>
          )}
        </CardContent>
      </Card>

      <div className="flex justify-between lg:col-span-2">
        <Button variant="outline" onClick={onBack}>
          Back to Upload
        </Button>
        <div className="flex items-center gap-3">
          {current && missing.length > 0 && (
            <span className="text-sm text-slate-500">The listing needs {missing.join(', ')}.</span>
          )}
          <Button
            disabled={!current || missing.length > 0}
            onClick={() => {
              if (!current) return;
              toast({
                title: 'Content Accepted',
                description: 'Now place the design on the product.',
                variant: 'success',
              });
              onAccept({ ...current, title: current.title.trim(), description: current.description.trim() });
            }}
          >
            Use This Content
          </Button>
        </div>
      </div>
    </div>
  );
}
