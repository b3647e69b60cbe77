import type { TDesign } from '@podforge/contract';
import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL } from '@podforge/contract/plain';
import { Loader2, Trash2, Upload } from 'lucide-react';
import { useState } from 'react';
import { useDesigns } from '@/api/designs/get-designs';
import { AiDesignGenerator } from '@/components/ai/ai-design-generator';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ApiError } from '@/lib/api-client';
import { DESIGN_ACCEPT_ATTRIBUTE } from '@/lib/design-files';
import { cn } from '@/lib/utils';
import { useUploadFiles } from '../api/upload-files';
import type { WizardUpdate } from '../use-wizard-state';
import { canContinue, type WizardDesign, type WizardState } from '../wizard-state';

type Props = { state: WizardState; update: WizardUpdate; onBack: () => void; onNext: () => void };

const EXTENSIONS = /\.(png|jpe?g|svg|pdf)$/i;
const MIME_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml', 'application/pdf'];

export const toWizardDesign = (d: TDesign): WizardDesign => ({
  id: d.id,
  src: d.thumbnailUrl,
  source: d.source,
  name: d.name,
  url: d.url,
  width: d.width,
  height: d.height,
});

/** Spec section 5 'Simple flow design file' rules, which the wizard shares (PNG, JPEG, SVG, PDF), under the one design file limit. */
export function designFileProblem(file: File): string | null {
  if (!EXTENSIONS.test(file.name) && !MIME_TYPES.includes(file.type))
    return 'Invalid File Type – Please upload a PNG, JPEG, SVG, or PDF file.';
  if (file.size > DESIGN_MAX_BYTES) return `File Too Large – Please upload a file smaller than ${DESIGN_MAX_LABEL}.`;
  return null;
}

type FileNote = { name: string; error: string };

/** Wizard step 2: designs uploaded, picked from earlier uploads or generated, listed with remove. */
export function DesignStep({ state, update, onBack, onNext }: Props) {
  const [notes, setNotes] = useState<FileNote[]>([]);
  const upload = useUploadFiles();
  const designs = useDesigns();
  const selectedIds = new Set(state.designFiles.map((d) => d.id));

  // The first design is the one the mockups show: when it changes, the renders no longer fit.
  const setDesigns = (next: WizardDesign[]) =>
    update((s) =>
      s.designFiles[0]?.id === next[0]?.id
        ? { designFiles: next }
        : { designFiles: next, mockups: [], selectedMockupId: null },
    );
  const add = (items: WizardDesign[]) =>
    setDesigns([...state.designFiles, ...items.filter((d) => !selectedIds.has(d.id))]);
  const remove = (id: string) => setDesigns(state.designFiles.filter((d) => d.id !== id));

  const onFiles = async (files: File[]) => {
    const refused: FileNote[] = [];
    const valid: File[] = [];
    for (const file of files) {
      const problem = designFileProblem(file);
      if (problem) refused.push({ name: file.name, error: problem });
      else valid.push(file);
    }
    setNotes(refused);
    if (valid.length === 0) return;
    try {
      const { files: results } = await upload.mutateAsync(valid);
      const uploaded: WizardDesign[] = [];
      for (const r of results) {
        if ('error' in r) refused.push({ name: r.name, error: r.error || 'Upload failed' });
        else uploaded.push(toWizardDesign(r));
      }
      setNotes([...refused]);
      if (uploaded.length) add(uploaded);
    } catch (error) {
      const reason = (error instanceof ApiError && error.serverMessage) || 'Upload failed';
      setNotes([...refused, ...valid.map((f) => ({ name: f.name, error: reason }))]);
    }
  };

  const serverDesigns = designs.data ?? [];
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle as="h3" className="text-base">
              Upload designs
            </CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <label
              className={cn(
                'flex cursor-pointer flex-col items-center gap-2 rounded-lg border-2 border-dashed border-slate-300 p-6 text-center text-sm text-slate-600 hover:bg-slate-50',
                upload.isPending && 'pointer-events-none opacity-60',
              )}
            >
              {upload.isPending ? (
                <Loader2 className="h-6 w-6 animate-spin" aria-label="Uploading" />
              ) : (
                <Upload className="h-6 w-6" aria-hidden />
              )}
              <span>Choose files: PNG, JPEG, SVG or PDF, up to {DESIGN_MAX_LABEL} each</span>
              <input
                type="file"
                multiple
                accept={DESIGN_ACCEPT_ATTRIBUTE}
                className="sr-only"
                aria-label="Upload design files"
                data-testid="wizard-file-input"
                disabled={upload.isPending}
                onChange={(e) => {
                  const files = Array.from(e.target.files ?? []);
                  e.target.value = '';
                  if (files.length) void onFiles(files);
                }}
              />
            </label>
            {notes.length > 0 && (
              <ul className="space-y-1 text-sm text-red-600" aria-label="Upload problems">
                {notes.map((n) => (
                  <li key={`${n.name}-${n.error}`}>
                    {n.name}: {n.error}
                  </li>
                ))}
              </ul>
            )}
            <div className="space-y-2 pt-2">
              <h3 className="text-sm font-semibold">Your designs</h3>
              {designs.isPending ? (
                <Loader2 className="h-5 w-5 animate-spin text-slate-400" aria-label="Loading designs" />
              ) : designs.isError ? (
                <p className="text-sm text-red-600">Your designs could not be loaded: {designs.error.message}</p>
              ) : serverDesigns.length === 0 ? (
                <p className="text-sm text-slate-500">No designs uploaded yet.</p>
              ) : (
                <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4" aria-label="Existing designs">
                  {serverDesigns.map((d) => (
                    <li key={d.id}>
                      <button
                        type="button"
                        aria-pressed={selectedIds.has(d.id)}
                        aria-label={`Use ${d.name}`}
                        onClick={() => (selectedIds.has(d.id) ? remove(d.id) : add([toWizardDesign(d)]))}
                        className={cn(
                          'w-full rounded border p-1',
                          selectedIds.has(d.id) ? 'border-brand-600 ring-2 ring-brand-500/30' : 'border-slate-200',
                        )}
                      >
                        <img src={d.thumbnailUrl} alt="" className="aspect-square w-full object-contain" />
                        <span className="block truncate text-xs">{d.name}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </CardContent>
        </Card>
        <AiDesignGenerator
          title="AI generator"
          titleAs="h3"
          placeholder="A retro sunset over palm trees"
          fieldsClassName="sm:grid-cols-3 sm:[&>label:first-child]:col-span-3"
          submitLabel="Generate Design"
          modelNotice
          onImages={(images) => add(images.map(toWizardDesign))}
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle as="h3" className="text-base">
            Selected designs
          </CardTitle>
        </CardHeader>
        <CardContent>
          {state.designFiles.length === 0 ? (
            <p className="text-sm text-slate-500">No design selected yet.</p>
          ) : (
            <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Selected designs">
              {state.designFiles.map((d, i) => (
                <li key={d.id} className="flex items-center gap-3 rounded-lg border border-slate-200 p-2">
                  <img src={d.src} alt="" className="h-14 w-14 rounded bg-slate-50 object-contain" />
                  <div className="min-w-0 flex-1 text-sm">
                    <p className="truncate font-medium">{d.name}</p>
                    <p className="text-xs text-slate-500">
                      {d.source === 'ai' ? 'AI' : 'Upload'}
                      {i === 0 && ' · used for mockups'}
                    </p>
                  </div>
                  <Button variant="ghost" size="icon" aria-label={`Remove ${d.name}`} onClick={() => remove(d.id)}>
                    <Trash2 />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <div className="flex justify-between">
        <Button variant="outline" onClick={onBack}>
          Back to Product Type
        </Button>
        <Button onClick={onNext} disabled={!canContinue(state, 'design')}>
          Continue to Mockups
        </Button>
      </div>
    </div>
  );
}
