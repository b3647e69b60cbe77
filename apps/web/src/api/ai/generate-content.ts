import type { TGenerateContentFromDesign, TGenerateContentFromKeywords, TGeneratedContent } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { refreshAiStatusWhenRetired } from './get-ai-status';

/**
 * `POST /api/ai/generate-content` with the simple flow's fields (filename) or the AI Generator page's (keywords);
 * each call uses one AI credit.
 */
export const generateContent = (input: TGenerateContentFromDesign | TGenerateContentFromKeywords) =>
  api.post<TGeneratedContent>('/api/ai/generate-content', input);

export function useGenerateContent() {
  const queryClient = useQueryClient();
  return useMutation({
    onError: refreshAiStatusWhenRetired(queryClient),
    mutationFn: generateContent,
    // The credits shown on the dashboard and in the settings dialog changed, and 'Recent Generations' has a row more.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
        queryClient.invalidateQueries({ queryKey: ['ai', 'generations'] }),
      ]),
  });
}
