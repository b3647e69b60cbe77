import type { TAiDesignImage } from '@podforge/contract';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AiDesignGenerator } from '@/components/ai/ai-design-generator';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';

/** Spec section 3 'AI design request': prompt, size, variations and style; each image is saved as a design. */
export function DesignGenerator() {
  const [images, setImages] = useState<TAiDesignImage[]>([]);

  return (
    <AiDesignGenerator
      title="AI Design Generator"
      description="Describe the design. The built-in generator makes typographic and vector artwork; photo-style images need an OpenAI API key on the server."
      placeholder="e.g. retro sunset surf club"
      fieldsClassName="lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))]"
      submitLabel="Generate Designs"
      reroll
      onImages={(generated) => {
        setImages(generated);
        toast({
          title: 'Designs Generated',
          description: `${generated.length} design${generated.length === 1 ? '' : 's'} saved to your designs.`,
          variant: 'success',
        });
      }}
      onError={(message) => toast({ title: 'Generation Failed', description: message, variant: 'destructive' })}
    >
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
    </AiDesignGenerator>
  );
}
