import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { PrinterQuotes } from './printer-quotes';

afterEach(() => vi.unstubAllGlobals());

describe('PrinterQuotes', () => {
  it("asks every connected printer for the buyer's country and shows each one's figures, or why it has none", async () => {
    const fetch = fakeFetch({
      'GET /api/products/p1/quotes': () =>
        json({
          country: 'JP',
          variantId: 'v1',
          quantity: 1,
          quotes: [
            {
              ok: true,
              provider: 'sandbox',
              name: 'Printful sandbox',
              currency: 'USD',
              products: '9.25',
              shipping: '4.75',
              total: '14.00',
              shippingMethod: 'Flat Rate',
              minDeliveryDays: 7,
              maxDeliveryDays: 14,
            },
            {
              ok: false,
              provider: 'gelato-sandbox',
              name: 'Gelato sandbox',
              reason: 'No quote: Gelato: cannot be delivered to JP',
            },
          ],
        }),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    const sale = { price: 24.99, fee: { percent: 2.9, fixed: 0.3 }, storeLabel: 'Shopify' };
    renderWithProviders(<PrinterQuotes productId="p1" sale={sale} />);
    // Nothing is asked until the seller asks.
    expect(fetch.calls).toHaveLength(0);
    const country = screen.getByLabelText("Buyer's country");
    await user.clear(country);
    await user.type(country, 'jp');
    await user.click(screen.getByRole('button', { name: 'Compare printers' }));
    const table = await screen.findByTestId('printer-quotes');
    expect(fetch.calls[0]?.url.search).toBe('?country=JP');
    const [, printful, gelato] = within(table).getAllByRole('row');
    // Profit by the price editor's and Orders' formula: 24.99 - 9.25 - 4.75 - (0.72 + 0.30) = 9.97 (#28).
    expect(printful).toHaveTextContent('Printful sandbox9.25 USD4.75 USD14.00 USD$9.977–14 days');
    expect(gelato).toHaveTextContent('Gelato sandboxNo quote: Gelato: cannot be delivered to JP');
  });
});
