import type { TAiDesignImage } from '@podforge/contract';
import { Download, ImagePlus, Loader2 } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import { designErrorMessage, useGenerateDesigns } from '@/api/ai/generate-designs';
import { type AiDesignDraft, AiDesignFields, EMPTY_AI_DESIGN } from '@/components/ai/ai-design-fields';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';

/** Spec section 3 'AI design request': prompt, size, variations and style; each image is saved as a design. */
export function DesignGenerator() {
  const [draft, setDraft] = useState<AiDesignDraft>(EMPTY_AI_DESIGN);
  const [images, setImages] = useState<TAiDesignImage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const attempts = useRef(0);
  const generate = useGenerateDesigns();

  const onGenerate = () => {
    const prompt = draft.prompt.trim();
    if (!prompt) {
      setError('Please enter a prompt');
      return;
    }
    setError(null);
    generate.mutate(
      { prompt, size: draft.size, n: draft.n, style: draft.style, seed: attempts.current++ },
      {
        onSuccess: (result) => {
          if (result.images.length === 0) {
            setError('No images generated');
            return;
          }
          setImages(result.images);
          toast({
            title: 'Designs Generated',
            description: `${result.images.length} design${result.images.length === 1 ? '' : 's'} saved to your designs.`,
            variant: 'success',
          });
        },
        onError: (failure) => {
          const message = designErrorMessage(failure);
          setError(message);
          toast({ title: 'Generation Failed', description: message, variant: 'destructive' });
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">AI Design Generator</CardTitle>
        <CardDescription>
          Describe the design. The built-in generator makes typographic and vector artwork; photo-style images need an
          OpenAI API key on the server.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <AiDesignFields
          value={draft}
          onChange={setDraft}
          placeholder="e.g. retro sunset surf club"
          className="lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]"
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={onGenerate} disabled={generate.isPending}>
            {generate.isPending ? <Loader2 className="animate-spin" /> : <ImagePlus />}
            {generate.isPending ? 'Generating...' : 'Generate Designs'}
          </Button>
          <span className="text-xs text-slate-500">One AI credit per image.</span>
        </div>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        )}
        {images.length > 0 && (
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Generated designs">
            {images.map((image) => (
              <li key={image.id} className="space-y-2 rounded-lg border border-slate-200 p-3" data-testid="ai-design">
                <img
                  src={image.thumbnailUrl}
                  alt={`AI design: ${image.prompt}`}
                  className="aspect-square w-full rounded bg-[repeating-conic-gradient(#f1f5f9_0_25%,#fff_0_50%)] bg-[length:16px_16px] object-contain"
                />
                <p className="truncate text-xs text-slate-500" title={image.name}>
                  {image.name} · {image.width}×{image.height} · saved
                </p>
                <div className="flex gap-2">
                  <Button asChild size="sm" className="flex-1">
                    <Link to={`/create-product?step=details&designId=${encodeURIComponent(image.id)}`}>
                      Use in Create Product
                    </Link>
                  </Button>
                  <Button asChild size="sm" variant="outline" aria-label={`Download ${image.name}`}>
                    <a href={image.url} download={image.name.replace(/\.\w+$/, '.png')}>
                      <Download />
                    </a>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
