import type { TPrintfulStatus } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { printfulStatusQueryOptions } from './get-printful-status';

export const disconnectPrintful = () => api.post<TPrintfulStatus>('/api/printful/disconnect');

export function useDisconnectPrintful() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectPrintful,
    onSuccess: (status) => {
      queryClient.setQueryData(printfulStatusQueryOptions().queryKey, status);
      // The catalogue source changes with the connection.
      return queryClient.invalidateQueries({ queryKey: ['printful', 'products'] });
    },
  });
}
