import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { ProductPickerScreen } from './product-picker-screen';

afterEach(() => vi.unstubAllGlobals());

const providers = {
  providers: [
    { id: 'printful', name: 'Printful', available: true, connected: false, sandbox: true, accountName: null },
    { id: 'printify', name: 'Printify', available: true, connected: false, sandbox: true, accountName: null },
    { id: 'gelato', name: 'Gelato', available: false, connected: false, sandbox: false, accountName: null },
  ],
};

describe('Product Picker: filter by printer', () => {
  it("switches to Printify's catalogue: search, then a product's variants with base costs and print areas", async () => {
    const fetch = fakeFetch({
      '/api/fulfillment/providers': () => json(providers),
      'GET /api/printful/products': () =>
        json({ items: [], page: 1, pageSize: 12, total: 0, totalPages: 1, source: 'bundled' }),
      'GET /api/providers/printify/products': ({ url }) =>
        json({
          provider: 'printify',
          source: 'printify-sandbox',
          products: url.searchParams.get('search')
            ? [{ id: '6', provider: 'printify', name: 'Unisex Heavy Cotton Tee', description: 'Gildan 5000' }]
            : [
                { id: '6', provider: 'printify', name: 'Unisex Heavy Cotton Tee', description: 'Gildan 5000' },
                { id: '68', provider: 'printify', name: 'Mug 11oz', description: 'Generic brand' },
              ],
        }),
      '/api/providers/printify/products/6': () =>
        json({
          id: '6',
          provider: 'printify',
          name: 'Unisex Heavy Cotton Tee',
          description: '',
          type: 'tshirt',
          brand: 'Gildan',
          model: '5000',
          currency: 'USD',
          variants: [{ id: '17390', color: 'Heather Grey', colorHex: '#b4b4b4', size: 'XS', baseCost: '8.90' }],
          placements: [{ placement: 'front', widthPx: 3153, heightPx: 3995, dpi: 300 }],
        }),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<ProductPickerScreen />);
    const printer = await screen.findByRole('combobox', { name: 'Printer' });
    // Only printers this server can print with are offered.
    expect(
      within(printer)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Printful', 'Printify']);
    await user.selectOptions(printer, 'printify');
    expect(await screen.findByText('Printify catalogue of the built-in Printify Sandbox')).toBeInTheDocument();
    expect(screen.getAllByTestId('provider-product')).toHaveLength(2);
    // Printful's category and price filters do not apply to Printify's catalogue.
    expect(screen.queryByRole('combobox', { name: 'Category' })).not.toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'tee');
    await vi.waitFor(() => expect(screen.getAllByTestId('provider-product')).toHaveLength(1));
    expect(fetch.calls.some((c) => c.url.search === '?search=tee')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Variants and print areas' }));
    const row = await screen.findByTestId('provider-variant');
    expect(row).toHaveTextContent('Heather Grey');
    expect(row).toHaveTextContent('XS');
    expect(row).toHaveTextContent('8.90 USD');
    expect(screen.getByText(/front 3153×3995 px at 300 DPI/)).toBeInTheDocument();
  });
});
