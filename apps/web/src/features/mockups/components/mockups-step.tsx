import { MOCKUP_PRODUCT_TYPES, type TMockup } from '@podforge/contract';
import { Loader2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useDesigns } from '@/api/designs/get-designs';
import { useUploadDesign } from '@/api/designs/upload-design';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { NativeSelect } from '@/components/ui/native-select';
import { toast } from '@/components/ui/use-toast';
import { ApiError } from '@/lib/api-client';
import { useGenerateMockups } from '../api/generate-mockups';
import { type MockupDesignSource, MockupPreview, type MockupSelection } from './mockup-preview';

const PRODUCT_TYPE_LABELS: Record<string, string> = {
  tshirt: 'T-shirt',
  hoodie: 'Hoodie',
  mug: 'Mug',
  poster: 'Poster',
};

type PickedDesign = MockupDesignSource & { id: string };

/** Wizard step 3: place the design on real templates, then render every template and colour on the server. */
export function MockupsStep() {
  const [productType, setProductType] = useState<string>('tshirt');
  const [design, setDesign] = useState<PickedDesign | null>(null);
  const [selection, setSelection] = useState<MockupSelection | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [results, setResults] = useState<TMockup[]>([]);
  const designs = useDesigns();
  const upload = useUploadDesign();
  const generate = useGenerateMockups((job) => {
    setProgress({ done: job.done, total: job.total });
    setResults(job.mockups);
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: results belong to the product type and design they were made for.
  useEffect(() => {
    setResults([]);
    setProgress(null);
  }, [productType, design?.id, design?.url]);

  const onGenerate = () => {
    if (!design?.id || !selection) return;
    setResults([]);
    generate.mutate(
      { designId: design.id, productType, adjustments: selection.adjustments },
      {
        onSuccess: (job) =>
          toast({ title: 'Mockups ready', description: `${job.total} mockups rendered.`, variant: 'success' }),
        onError: (error) =>
          toast({ title: 'Mockup generation failed', description: error.message, variant: 'destructive' }),
      },
    );
  };

  const serverDesigns = designs.data ?? [];
  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="grid gap-4 pt-6 sm:grid-cols-2">
          <label className="block space-y-1 text-sm font-medium">
            <span>Product type</span>
            <NativeSelect value={productType} onChange={(e) => setProductType(e.target.value)}>
              {MOCKUP_PRODUCT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {PRODUCT_TYPE_LABELS[type]}
                </option>
              ))}
            </NativeSelect>
          </label>
          <div className="space-y-2">
            <label className="block space-y-1 text-sm font-medium">
              <span>Design</span>
              <NativeSelect
                value={design?.id ?? ''}
                disabled={serverDesigns.length === 0}
                onChange={(e) => {
                  const picked = serverDesigns.find((d) => d.id === e.target.value);
                  setDesign(picked ? { ...picked } : null);
                }}
              >
                <option value="">{serverDesigns.length ? 'Choose a design' : 'No designs uploaded yet'}</option>
                {serverDesigns.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </NativeSelect>
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-600">
              <span className="shrink-0">Or upload one:</span>
              <input
                type="file"
                aria-label="Upload a design"
                accept="image/png,image/jpeg,image/svg+xml,application/pdf,.png,.jpg,.jpeg,.svg,.pdf"
                className="block w-full text-sm"
                disabled={upload.isPending}
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (!file) return;
                  try {
                    setDesign(await upload.mutateAsync(file));
                  } catch (error) {
                    toast({
                      title: 'Upload Failed',
                      description:
                        (error instanceof ApiError && error.serverMessage) ||
                        `Failed to upload ${file.name} . Please try again.`,
                      variant: 'destructive',
                    });
                  }
                }}
              />
              {upload.isPending && <Loader2 className="h-4 w-4 animate-spin" aria-label="Uploading" />}
            </label>
          </div>
        </CardContent>
      </Card>

      <MockupPreview productType={productType} design={design} onChange={setSelection} />

      <Card>
        <CardContent className="space-y-4 pt-6">
          <div className="flex flex-wrap items-center gap-3">
            <Button onClick={onGenerate} disabled={!design?.id || !selection || generate.isPending}>
              {generate.isPending && <Loader2 className="animate-spin" />}
              {results.length > 0 && !generate.isPending ? 'Regenerate' : 'Generate Mockups'}
            </Button>
            {!design?.id && (
              <span className="text-sm text-slate-500">Choose an uploaded design to render mockups on the server.</span>
            )}
            {progress && (
              <span className="text-sm text-slate-600" data-testid="mockup-progress">
                {progress.done} of {progress.total} rendered
              </span>
            )}
          </div>
          {progress && (
            <div className="h-2 w-full overflow-hidden rounded bg-slate-100">
              <div
                className="h-full bg-brand-600 transition-all"
                style={{ width: `${progress.total ? (100 * progress.done) / progress.total : 0}%` }}
              />
            </div>
          )}
          {results.length > 0 && (
            <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6" aria-label="Generated mockups">
              {results.map((m) => (
                <li key={m.id} data-testid="mockup-result">
                  <a href={m.url} target="_blank" rel="noreferrer">
                    <img
                      src={m.previewUrl}
                      alt={`${m.templateId} ${m.color ?? ''}`}
                      className="rounded border border-slate-200"
                    />
                  </a>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <div className="flex justify-between">
        <Button variant="outline" asChild>
          <Link to="/create/design">Back to Design</Link>
        </Button>
        {results.length > 0 ? (
          <Button asChild>
            <Link to="/create/details">Continue to Details</Link>
          </Button>
        ) : (
          <Button disabled>Continue to Details</Button>
        )}
      </div>
    </div>
  );
}
