import type { TAiDesignImage } from '@podforge/contract';
import { ImagePlus, Loader2 } from 'lucide-react';
import type * as React from 'react';
import { useRef, useState } from 'react';
import { designErrorMessage, useGenerateDesigns } from '@/api/ai/generate-designs';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { type AiDesignDraft, AiDesignFields, EMPTY_AI_DESIGN } from './ai-design-fields';
import { AiModelNotice } from './ai-model-notice';

type Props = {
  title: string;
  /** h3 under a section's own h2 (the wizard's Design step). */
  titleAs?: 'h2' | 'h3';
  description?: React.ReactNode;
  placeholder: string;
  /** The fields' grid: one row on the AI Generator page, the prompt above the options in the wizard. */
  fieldsClassName: string;
  submitLabel: string;
  /** Each Generate asks for other variations of the same prompt (the AI Generator page's seed). */
  reroll?: boolean;
  onImages: (images: TAiDesignImage[]) => void;
  onError?: (message: string) => void;
  /** What the caller shows of the images (the AI Generator page's cards), under the form. */
  children?: React.ReactNode;
  /** Shows the AI model warnings in the card (where the screen does not show them above it already). */
  modelNotice?: boolean;
};

/**
 * Spec section 3 'AI design request' (prompt, size, variations, style) sent to `POST /api/ai/designs`, with its real
 * answer: the AI Generator page's and the wizard's Design step's generator. Each image is saved as a design.
 */
export function AiDesignGenerator({
  title,
  titleAs,
  description,
  placeholder,
  fieldsClassName,
  submitLabel,
  reroll = false,
  onImages,
  onError,
  children,
  modelNotice = false,
}: Props) {
  const [draft, setDraft] = useState<AiDesignDraft>(EMPTY_AI_DESIGN);
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
      {
        prompt,
        size: draft.size,
        n: draft.n,
        style: draft.style,
        ...(reroll ? { seed: attempts.current++ } : {}),
      },
      {
        onSuccess: (result) => {
          if (!result?.images?.length) setError('No images generated');
          else onImages(result.images);
        },
        onError: (failure) => {
          const message = designErrorMessage(failure);
          setError(message);
          onError?.(message);
        },
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle as={titleAs} className="text-base">
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="space-y-4">
        {modelNotice && <AiModelNotice />}
        <AiDesignFields value={draft} onChange={setDraft} placeholder={placeholder} className={fieldsClassName} />
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={onGenerate} disabled={generate.isPending}>
            {generate.isPending ? <Loader2 className="animate-spin" /> : <ImagePlus />}
            {generate.isPending ? 'Generating...' : submitLabel}
          </Button>
          <span className="text-xs text-slate-500">One AI credit per image.</span>
        </div>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {error}
          </p>
        )}
        {children}
      </CardContent>
    </Card>
  );
}
