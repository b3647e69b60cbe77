import type { TOrder } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type OrderAction = 'approve' | 'cancel' | 'retry';

/** `POST /api/orders/:id/{approve,cancel,retry}`: queued (202); the list is read again to follow the order. */
export const orderAction = (id: string, action: OrderAction) =>
  api.post<TOrder>(`/api/orders/${encodeURIComponent(id)}/${action}`);

export function useOrderAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: OrderAction }) => orderAction(id, action),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
      await queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
