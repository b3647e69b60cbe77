import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { dismiss } from '@/components/ui/use-toast';
import { createQueryClient } from '@/lib/query-client';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json } from '@/test/render';
import { useScheduleStores } from './use-schedule-stores';

const PRODUCT_ID = '33333333-3333-4333-8333-333333333333';
const NOW = new Date(2026, 10, 22, 12, 0);

const store = (id: string, platform: string) => storeIntegration({ id, platform });

function setup() {
  const fetch = fakeFetch({
    'POST /api/schedule-upload': ({ body }) => json({ id: 'sch', ...(body as object) }, 201),
  });
  vi.stubGlobal('fetch', fetch);
  render(<Toaster />);
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useScheduleStores({ productId: PRODUCT_ID, now: () => NOW }), { wrapper });
  return { fetch, hook };
}

afterEach(() => {
  act(() => dismiss());
  vi.unstubAllGlobals();
});

describe('useScheduleStores', () => {
  it('asks for a store, a date and a time before sending anything', async () => {
    const { fetch, hook } = setup();
    act(() => hook.result.current.setDate('2026-12-24'));
    let done = true;
    await act(async () => {
      done = await hook.result.current.schedule([]);
    });
    expect(done).toBe(false);
    expect(await screen.findByText('Missing Information')).toBeInTheDocument();
    expect(screen.getByText('Please fill in all required fields.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(0);
  });

  it("refuses a time that is not in the future with the contract's (and the server's) words", async () => {
    const { fetch, hook } = setup();
    act(() => {
      hook.result.current.setDate('2026-11-22');
      hook.result.current.setTime('11:59');
    });
    await act(async () => {
      await hook.result.current.schedule([store('s1', 'shopify')]);
    });
    expect(await screen.findByText('Invalid Date')).toBeInTheDocument();
    expect(screen.getByText('Please select a future date and time.')).toBeInTheDocument();
    expect(fetch.calls).toHaveLength(0);
  });

  it('schedules each store at the date and time, then names their platforms once', async () => {
    const { fetch, hook } = setup();
    act(() => {
      hook.result.current.setDate('2026-12-24');
      hook.result.current.setTime('09:30');
    });
    let done = false;
    await act(async () => {
      done = await hook.result.current.schedule([
        store('s1', 'woocommerce'),
        store('s2', 'shopify'),
        store('s3', 'shopify'),
      ]);
    });
    expect(done).toBe(true);
    const posts = fetch.calls.filter((c) => c.method === 'POST');
    expect(posts.map((c) => (c.body as { integrationId: string }).integrationId)).toEqual(['s1', 's2', 's3']);
    expect(posts[0]?.body).toMatchObject({
      productId: PRODUCT_ID,
      platform: 'woocommerce',
      scheduledDate: '2026-12-24',
      scheduledTime: '09:30',
    });
    expect(await screen.findByText('Product upload to WooCommerce, Shopify has been scheduled.')).toBeInTheDocument();
  });
});
