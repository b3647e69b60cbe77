import type { TWorkspaceSettings } from '@podforge/contract';
import { DEFAULT_ORDER_CONFIRMATION, DEFAULT_STORE_FEES, DEFAULT_TARGET_MARGIN } from '@podforge/contract/plain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** `GET /api/settings`: the workspace's target margin and estimated store fees. */
export const settingsQueryOptions = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: ({ signal }) => api.get<TWorkspaceSettings>('/api/settings', signal),
  });

export const useWorkspaceSettings = (enabled = true) => useQuery({ ...settingsQueryOptions(), enabled });

/** What the pricing screens compute with until (or when) the workspace's own settings cannot be read. */
export const FALLBACK_SETTINGS: TWorkspaceSettings = {
  targetMargin: DEFAULT_TARGET_MARGIN,
  storeFees: DEFAULT_STORE_FEES,
  orderConfirmation: DEFAULT_ORDER_CONFIRMATION,
};
