import { useMutation, useQueryClient } from '@tanstack/react-query';

/** Every AI call spends credits and adds a generation: both lists are refreshed after a success. */
export function useAiMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
        queryClient.invalidateQueries({ queryKey: ['ai', 'generations'] }),
      ]),
  });
}
