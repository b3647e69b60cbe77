import type { TSandboxProducts } from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { ShopifySandboxScreen } from './shopify-sandbox';

afterEach(() => vi.unstubAllGlobals());

const sandbox: TSandboxProducts = {
  sandbox: true,
  stores: [
    {
      integrationId: 'store-1',
      shop: 'demo.myshopify.com',
      name: 'demo (Sandbox)',
      products: [
        {
          id: '1',
          title: 'Sunset Tee',
          handle: 'podforge-1',
          status: 'ACTIVE',
          productType: 'tshirt',
          tags: [],
          updatedAt: null,
          variants: [
            { title: 'White / S', price: '24.00', sku: 'PF-A-71002', availableForSale: true, image: null },
            { title: 'White / M', price: '26.00', sku: 'PF-A-71003', availableForSale: true, image: null },
          ],
          images: 1,
          onlineStore: true,
          options: ['Color', 'Size'],
          imageUrls: [],
          failedImages: [],
        },
      ],
    },
  ],
};

describe('ShopifySandboxScreen: Place a test order', () => {
  it('places a paid order for the chosen variant, quantity and test address, and links to the Orders tab', async () => {
    const fetch = fakeFetch({
      '/api/shopify/sandbox/products': () => json(sandbox),
      'POST /api/shopify/sandbox/orders': () =>
        json({ remoteOrderId: '77', name: '#1001', total: '52.00', currency: 'USD' }, 201),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<ShopifySandboxScreen />);
    const form = within(await screen.findByRole('form', { name: 'Place a test order in demo (Sandbox)' }));
    await user.selectOptions(form.getByLabelText('Variant'), 'PF-A-71003');
    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '2');
    await user.clear(form.getByLabelText('City'));
    await user.type(form.getByLabelText('City'), 'Austin');
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByText(/Test order #1001 placed/)).toBeInTheDocument();
    expect(form.getByRole('link', { name: 'Orders tab' })).toHaveAttribute('href', '/?tab=orders');
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({
      integrationId: 'store-1',
      lines: [{ sku: 'PF-A-71003', quantity: 2 }],
      address: {
        name: 'Test Buyer',
        address1: '19749 Dearborn St',
        city: 'Austin',
        provinceCode: 'CA',
        countryCode: 'US',
        zip: '91311',
      },
    });
  });

  it("refuses a quantity out of range, and shows the server's reason for a refusal", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/shopify/sandbox/products': () => json(sandbox),
        'POST /api/shopify/sandbox/orders': () =>
          json(
            {
              error: 'SKU PF-A-71002 is not sold in demo (Sandbox); push the product there first',
              code: 'BAD_REQUEST',
            },
            400,
          ),
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ShopifySandboxScreen />);
    const form = within(await screen.findByRole('form', { name: /Place a test order/ }));
    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '0');
    expect(form.getByText('The quantity must be 1 to 100.')).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Place test order' })).toBeDisabled();
    await user.clear(form.getByLabelText('Quantity'));
    await user.type(form.getByLabelText('Quantity'), '1');
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByRole('alert')).toHaveTextContent('is not sold in demo (Sandbox)');
  });
});
