import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isLiveQuery, useLiveUpdates } from './live-updates';
import { createQueryClient } from './query-client';

/** Stands in for the browser's EventSource: the test fires the server's events. */
class FakeEventSource {
  static last: FakeEventSource | null = null;
  readonly listeners = new Map<string, Set<() => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(name: string, listener: () => void) {
    if (!this.listeners.has(name)) this.listeners.set(name, new Set());
    this.listeners.get(name)?.add(listener);
  }
  removeEventListener(name: string, listener: () => void) {
    this.listeners.get(name)?.delete(listener);
  }
  fire(name: string) {
    for (const listener of this.listeners.get(name) ?? []) listener();
  }
  close() {
    this.closed = true;
  }
}

beforeEach(() => {
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('live updates', () => {
  it('reads the lists, orders and dashboard again when the server says the workspace changed, not the catalogue', async () => {
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    queryClient.setQueryData(['products', 'list', {}], { items: [] });
    queryClient.setQueryData(['orders', 'all', 1], { items: [] });
    queryClient.setQueryData(['catalog', 'products', 'detail', 'x'], {});
    const { unmount } = renderHook(() => useLiveUpdates(), { wrapper });
    const source = FakeEventSource.last;
    expect(source?.url).toBe('/api/events');
    act(() => source?.fire('ready'));
    // The first `ready` is the page's own start: nothing to read again.
    expect(queryClient.getQueryState(['products', 'list', {}])?.isInvalidated).toBe(false);
    act(() => source?.fire('changed'));
    expect(queryClient.getQueryState(['products', 'list', {}])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['orders', 'all', 1])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['catalog', 'products', 'detail', 'x'])?.isInvalidated).toBe(false);
    unmount();
    expect(source?.closed).toBe(true);
  });

  it('reads again after a reconnect, since changes may have been missed while it was away', () => {
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    queryClient.setQueryData(['dashboard', 'stats'], {});
    renderHook(() => useLiveUpdates(), { wrapper });
    act(() => FakeEventSource.last?.fire('ready'));
    act(() => FakeEventSource.last?.fire('ready'));
    expect(queryClient.getQueryState(['dashboard', 'stats'])?.isInvalidated).toBe(true);
  });

  it('counts the sandboxes and AI history as live, not settings or the catalogue', () => {
    expect(isLiveQuery({ queryKey: ['shopify', 'sandbox-products'] })).toBe(true);
    expect(isLiveQuery({ queryKey: ['ai', 'generations', { limit: 5 }] })).toBe(true);
    expect(isLiveQuery({ queryKey: ['ai', 'status'] })).toBe(false);
    expect(isLiveQuery({ queryKey: ['settings'] })).toBe(false);
    expect(isLiveQuery({ queryKey: ['printful', 'products', 'list', {}] })).toBe(false);
  });
});
