import type { Query, QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

/** The first part of a query key whose answers change when jobs (pushes, schedules, order steps, batches) run. */
const LIVE_ROOTS = new Set(['products', 'orders', 'dashboard', 'schedules', 'integrations']);

/** Whether a query shows data a job or another tab may change: the lists, orders, dashboard, AI history, sandboxes. */
export function isLiveQuery(query: Pick<Query, 'queryKey'>): boolean {
  const [root, second] = query.queryKey;
  if (typeof root !== 'string') return false;
  if (LIVE_ROOTS.has(root)) return true;
  if (root === 'ai' && second === 'generations') return true;
  return typeof second === 'string' && second.startsWith('sandbox');
}

/** Reads again what the open screens show, and marks the rest stale so it is read when next shown. */
export function refreshLiveQueries(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ predicate: isLiveQuery });
}

/**
 * Follows the server's change stream (`GET /api/events`): when the workspace's data changes, whoever changed it (a
 * store push finishing, a schedule, an approved order moving on, another tab), the screen reads it again within
 * about two seconds, without a reload. The browser reconnects by itself after a dropped connection, and the screen
 * reads again then too, since changes may have been missed meanwhile.
 */
export function useLiveUpdates() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events');
    let opened = false;
    const onChanged = () => void refreshLiveQueries(queryClient);
    const onReady = () => {
      if (opened) void refreshLiveQueries(queryClient);
      opened = true;
    };
    source.addEventListener('changed', onChanged);
    source.addEventListener('ready', onReady);
    return () => {
      source.removeEventListener('changed', onChanged);
      source.removeEventListener('ready', onReady);
      source.close();
    };
  }, [queryClient]);
}
