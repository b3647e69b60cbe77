import type { TAiPlatform, TAiProductType, TAnalyzedImageContent } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAiStatusWhenRetired } from './get-ai-status';

export type AnalyzeImageInput = {
  image: Blob;
  filename: string;
  productType: TAiProductType;
  targetAudience: string;
  platform: TAiPlatform;
  seed?: number;
};

/**
 * `POST /api/ai/analyze-image` (spec section 7): multipart `image`, `productType`, `targetAudience`, `platform`;
 * answers the generate-content shape plus what was read from the picture. One AI credit.
 */
export function analyzeImage({ image, filename, seed, ...fields }: AnalyzeImageInput) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (seed !== undefined) form.append('seed', String(seed));
  form.append('image', image, filename);
  return api.post<TAnalyzedImageContent>('/api/ai/analyze-image', form);
}

export function useAnalyzeImage() {
  const queryClient = useQueryClient();
  return useMutation({
    onError: refreshAiStatusWhenRetired(queryClient),
    mutationFn: analyzeImage,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
        queryClient.invalidateQueries({ queryKey: ['ai', 'generations'] }),
      ]),
  });
}
