import type { TUpdateWorkspaceSettings, TWorkspaceSettings } from '@podforge/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { settingsQueryOptions } from './get-settings';

/** `PATCH /api/settings` with only what changes; answers the whole settings. */
export const updateSettings = (data: TUpdateWorkspaceSettings) => api.patch<TWorkspaceSettings>('/api/settings', data);

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (settings) => queryClient.setQueryData(settingsQueryOptions().queryKey, settings),
  });
}
