import type { TGenerateContentFromKeywords, TGeneratedContent } from '@podforge/contract';
import { AI_PAGE_PLATFORMS, AI_PAGE_PRODUCT_TYPES } from '@podforge/contract/plain';
import { Loader2, RefreshCw, Sparkles } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useGenerateContent } from '@/api/ai/generate-content';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { CopyButton } from '@/components/ui/copy-button';
import { inputClass } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { contentErrorNotice, QUOTA_COOLDOWN_SECONDS } from '../ai-errors';
import { useCooldown } from '../use-cooldown';
import { TagList } from './tag-list';

type Form = Required<Omit<TGenerateContentFromKeywords, 'seed'>>;
const INITIAL: Form = {
  // Spec section 9: T-Shirt and Shopify, the first of each list.
  productType: AI_PAGE_PRODUCT_TYPES[0],
  keywords: '',
  audience: '',
  style: '',
  platform: AI_PAGE_PLATFORMS[0],
  creativity: 7,
  includeSEO: true,
  generateTags: true,
};

function Toggle({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex items-center justify-between gap-3 text-sm font-medium">
      <span>{label}</span>
      <input
        type="checkbox"
        role="switch"
        aria-checked={checked}
        className="h-5 w-9 cursor-pointer accent-brand-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
    </label>
  );
}

/** Spec section 2 'AI Generator (full page)': Product Information and AI Settings make the request. */
export function ContentGenerator() {
  const id = useId();
  const [form, setForm] = useState<Form>(INITIAL);
  const [result, setResult] = useState<TGeneratedContent | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const attempts = useRef(0);
  const cooldown = useCooldown();
  const generate = useGenerateContent();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));

  const onGenerate = () => {
    if (!form.keywords.trim()) {
      toast({
        title: 'Keywords Required',
        description: 'Please enter some design keywords to generate content.',
        variant: 'destructive',
      });
      return;
    }
    generate.mutate(
      { ...form, keywords: form.keywords.trim(), seed: attempts.current++ },
      {
        onSuccess: (content) => {
          setResult(content);
          setTitle(content.title);
          setDescription(content.description);
          toast({
            title: 'Content Generated',
            description: 'Edit it as you like, then copy or use it.',
            variant: 'success',
          });
        },
        onError: (error) => {
          const notice = contentErrorNotice(error);
          if (notice.cooldown) cooldown.start(QUOTA_COOLDOWN_SECONDS);
          toast({ title: notice.title, description: notice.description, variant: 'destructive' });
        },
      },
    );
  };

  const waiting = cooldown.seconds > 0;
  const buttonLabel = generate.isPending
    ? 'Generating...'
    : waiting
      ? `Retry in ${cooldown.seconds}s`
      : 'Generate Content';

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle className="text-base">Product Information</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <label className="block space-y-1 text-sm font-medium">
              <span>Product type</span>
              <NativeSelect
                value={form.productType}
                onChange={(e) => set({ productType: e.target.value as Form['productType'] })}
              >
                {AI_PAGE_PRODUCT_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </NativeSelect>
            </label>
            <label className="block space-y-1 text-sm font-medium" htmlFor={`${id}-keywords`}>
              <span>Design keywords</span>
              <textarea
                id={`${id}-keywords`}
                className={inputClass}
                rows={3}
                maxLength={500}
                placeholder="e.g. retro sunset, cat, surf"
                value={form.keywords}
                onChange={(e) => set({ keywords: e.target.value })}
              />
            </label>
            <label className="block space-y-1 text-sm font-medium">
              <span>Target audience</span>
              <input
                className={inputClass}
                maxLength={200}
                placeholder="e.g. cat lovers"
                value={form.audience}
                onChange={(e) => set({ audience: e.target.value })}
              />
            </label>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle className="text-base">AI Settings</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4">
            <label className="block space-y-1 text-sm font-medium">
              <span>Style</span>
              <input
                className={inputClass}
                maxLength={200}
                placeholder="e.g. vintage, minimalist, funny"
                value={form.style}
                onChange={(e) => set({ style: e.target.value })}
              />
            </label>
            <label className="block space-y-1 text-sm font-medium">
              <span>Platform</span>
              <NativeSelect
                value={form.platform}
                onChange={(e) => set({ platform: e.target.value as Form['platform'] })}
              >
                {AI_PAGE_PLATFORMS.map((p) => (
                  <option key={p}>{p}</option>
                ))}
              </NativeSelect>
            </label>
            <label className="block space-y-1 text-sm font-medium">
              <span>Creativity: {form.creativity}</span>
              <input
                type="range"
                className="w-full accent-brand-600"
                min={1}
                max={10}
                step={1}
                value={form.creativity}
                onChange={(e) => set({ creativity: Number(e.target.value) })}
              />
            </label>
            <Toggle label="Include SEO keywords" checked={form.includeSEO} onChange={(v) => set({ includeSEO: v })} />
            <Toggle label="Generate tags" checked={form.generateTags} onChange={(v) => set({ generateTags: v })} />
            <Button className="w-full" onClick={onGenerate} disabled={generate.isPending || waiting}>
              {generate.isPending ? <Loader2 className="animate-spin" /> : <Sparkles />}
              {buttonLabel}
            </Button>
          </CardContent>
        </Card>
      </div>

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Generated Content</CardTitle>
          {result && (
            <CardDescription>
              Written by the {result.provider === 'openai' ? 'OpenAI' : 'built-in offline'} writer ·{' '}
              {result.creditsRemaining} AI credits left this month
            </CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {!result ? (
            <p className="py-12 text-center text-sm text-slate-500">
              Enter design keywords and generate a title, description, tags, price and variants.
            </p>
          ) : (
            <div className="space-y-4" data-testid="generated-content">
              <div className="space-y-1">
                <div className="flex items-center justify-between">
                  <label htmlFor={`${id}-title`} className="text-sm font-medium">
                    Title
                  </label>
                  <CopyButton value={title} label="Title" />
                </div>
                <input
                  id={`${id}-title`}
                  className={inputClass}
                  value={title}
                  onChange={(e) => setTitle(e.target.value)}
                />
              </div>
              <div className="space-y-1">
                <div className="flex items-center justify-between">
                  <label htmlFor={`${id}-description`} className="text-sm font-medium">
                    Description
                  </label>
                  <CopyButton value={description} label="Description" />
                </div>
                <textarea
                  id={`${id}-description`}
                  className={inputClass}
                  rows={8}
                  value={description}
                  onChange={(e) => setDescription(e.target.value)}
                />
              </div>
              {result.tags.length > 0 && (
                <div className="space-y-1">
                  <div className="flex items-center justify-between">
                    <span className="text-sm font-medium">Tags ({result.tags.length})</span>
                    <CopyButton value={result.tags.join(', ')} label="Tags" />
                  </div>
                  <TagList tags={result.tags} label="Tags" />
                </div>
              )}
              <dl className="grid gap-2 rounded-md bg-slate-50 p-3 text-sm sm:grid-cols-[auto_1fr]">
                <dt className="font-medium">Suggested price</dt>
                <dd>${result.price.toFixed(2)}</dd>
                {result.variants.map((v) => (
                  <div key={v.name} className="contents">
                    <dt className="font-medium">{v.name}</dt>
                    <dd>{v.options.join(', ')}</dd>
                  </div>
                ))}
              </dl>
              <div className="flex flex-wrap justify-end gap-2">
                <Button variant="outline" onClick={onGenerate} disabled={generate.isPending || waiting}>
                  <RefreshCw />
                  Regenerate
                </Button>
                <Button
                  onClick={() =>
                    toast({
                      title: 'Content Accepted',
                      description: 'Copy the title, description and tags into your product listing.',
                      variant: 'success',
                    })
                  }
                >
                  Accept &amp; Use
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
