import type { TEtsySandboxListing, TEtsySandboxListings } from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { EtsySandboxScreen } from './etsy-sandbox';

afterEach(() => vi.unstubAllGlobals());

const listing = (id: number, title: string, state: string, skus: [string, string][]): TEtsySandboxListing => ({
  listing_id: id,
  title,
  state,
  tags: [],
  price: '24.00',
  url: `/integrations/etsy-sandbox#${id}`,
  images: [],
  inventory: {
    products: skus.map(([sku, size]) => ({
      sku,
      property_values: [
        { property_id: 513, property_name: 'Color', values: ['Navy'] },
        { property_id: 514, property_name: 'Size', values: [size] },
      ],
      offerings: [{ price: size === 'M' ? '26.00' : '24.00', quantity: 999, is_enabled: true }],
    })),
  },
  variation_images: [],
});

const sandbox: TEtsySandboxListings = {
  sandbox: true,
  shops: [
    {
      integrationId: 'shop-1',
      shopId: '7001',
      name: 'PodforgeSandboxShop (Sandbox)',
      listings: [
        listing(11, 'Forest Tee', 'active', [
          ['PF-A-1', 'S'],
          ['PF-A-2', 'M'],
        ]),
        // A draft is not for sale: its SKUs are not offered.
        listing(12, 'Draft Tee', 'draft', [['PF-B-1', 'S']]),
      ],
    },
  ],
};

describe('EtsySandboxScreen: Place a test order', () => {
  it('offers the active listings’ SKUs and places a paid order with the chosen variant, quantity and address', async () => {
    const fetch = fakeFetch({
      '/api/etsy/sandbox/listings': () => json(sandbox),
      'POST /api/etsy/sandbox/orders': () =>
        json({ remoteOrderId: '1000123', name: '#1000123', total: '52.00', currency: 'USD' }, 201),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<EtsySandboxScreen />);
    const form = within(
      await screen.findByRole('form', { name: 'Place a test order in PodforgeSandboxShop (Sandbox)' }),
    );
    const options = form.getAllByRole('option').map((o) => o.getAttribute('value'));
    expect(options).toEqual(['PF-A-1', 'PF-A-2']);
    expect(form.getByText(/read by Podforge from the shop’s receipts/)).toBeInTheDocument();
    await user.selectOptions(form.getByLabelText('Variant'), 'PF-A-2');
    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '2');
    await user.clear(form.getByLabelText('City'));
    await user.type(form.getByLabelText('City'), 'Austin');
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByText(/Test order #1000123 placed/)).toBeInTheDocument();
    expect(form.getByRole('link', { name: 'Orders tab' })).toHaveAttribute('href', '/?tab=orders');
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.url.pathname).toBe('/api/etsy/sandbox/orders');
    expect(post?.body).toMatchObject({
      integrationId: 'shop-1',
      lines: [{ sku: 'PF-A-2', quantity: 2 }],
      address: { city: 'Austin' },
    });
  });

  it("shows the server's reason when the order is refused", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/etsy/sandbox/listings': () => json(sandbox),
        'POST /api/etsy/sandbox/orders': () =>
          json({ error: 'SKU PF-A-1 is not sold in PodforgeSandboxShop (Sandbox); push the product there first' }, 400),
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<EtsySandboxScreen />);
    const form = within(
      await screen.findByRole('form', { name: 'Place a test order in PodforgeSandboxShop (Sandbox)' }),
    );
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByRole('alert')).toHaveTextContent('push the product there first');
  });
});
