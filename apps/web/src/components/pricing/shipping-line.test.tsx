import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { fakeFetch, json } from '@/test/render';
import { quotedBlank, useShippingLine } from './shipping-line';

const quote = (currency: string) => ({
  ok: true,
  provider: 'printify-sandbox',
  name: 'Printify Sandbox',
  currency,
  products: '8.10',
  shipping: '4.20',
  total: '12.30',
  shippingMethod: null,
  minDeliveryDays: null,
  maxDeliveryDays: null,
});

function shippingWith(answer: object, currency: string) {
  const fetch = fakeFetch({ 'GET /api/quotes/blank': () => json(answer) });
  vi.stubGlobal('fetch', fetch);
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const blank = quotedBlank('printify', 6, [null, 12100]);
  return { fetch, hook: renderHook(() => useShippingLine(blank, currency), { wrapper }) };
}

afterEach(() => vi.unstubAllGlobals());

describe('useShippingLine', () => {
  it("quotes the first catalogue variant at the product's printer network, to the US by default", async () => {
    const { fetch, hook } = shippingWith(quote('USD'), 'USD');
    await waitFor(() => expect(hook.result.current.state).toBe('quoted'));
    expect(hook.result.current).toMatchObject({ amount: 4.2, printer: 'Printify Sandbox', country: 'US' });
    expect(fetch.calls[0]?.url.search).toBe('?network=printify&catalogProductId=6&catalogVariantId=12100&country=US');
  });

  it('subtracts no shipping quoted in another currency than the prices, and says so', async () => {
    const { hook } = shippingWith(quote('EUR'), 'USD');
    await waitFor(() => expect(hook.result.current.state).toBe('unknown'));
    expect(hook.result.current).toMatchObject({
      reason: 'Printify Sandbox quotes shipping in EUR, prices are in USD',
    });
  });

  it('has nothing to quote for a product without a catalogue blank', () => {
    expect(quotedBlank('printful', null, [4011])).toBeNull();
    expect(quotedBlank('acme', 71, [4011])).toBeNull();
  });
});
