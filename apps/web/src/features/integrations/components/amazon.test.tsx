import type {
  TAmazonSandboxListing,
  TAmazonSandboxListings,
  TAmazonSandboxOrders,
  TIntegration,
} from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { AmazonCard } from './amazon-card';
import { AmazonSandboxScreen } from './amazon-sandbox';

afterEach(() => vi.unstubAllGlobals());

const US = 'ATVPDKIKX0DER';
const txt = (value: string) => [{ value, language_tag: 'en_US', marketplace_id: US }];
const sku = (over: Partial<TAmazonSandboxListing> & { sku: string }): TAmazonSandboxListing => ({
  parentage: 'child',
  parentSku: 'PF-1-PARENT',
  productType: 'SHIRT',
  marketplaceId: US,
  asin: 'B0TEST0001',
  attributes: {},
  status: ['BUYABLE', 'DISCOVERABLE'],
  issues: [],
  processing: false,
  updatedAt: '2026-11-27T10:00:00Z',
  ...over,
});
const child = (code: string, color: string, size: string) =>
  sku({
    sku: code,
    attributes: {
      item_name: txt('Forest Tee'),
      color: txt(color),
      shirt_size: [{ size_system: 'as4', size_class: 'alpha', size, marketplace_id: US }],
      purchasable_offer: [{ currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 25 }] }], marketplace_id: US }],
      fulfillment_availability: [{ fulfillment_channel_code: 'DEFAULT', quantity: 999, lead_time_to_ship_max_days: 5 }],
    },
  });

const listings: TAmazonSandboxListings = {
  sandbox: true,
  sellers: [
    {
      integrationId: 'seller-1',
      sellerId: 'A1B2C3D4E5F6A7',
      name: 'Amazon seller A1B2C3D4E5F6A7 (Sandbox)',
      listings: [
        sku({
          sku: 'PF-1-PARENT',
          parentage: 'parent',
          parentSku: null,
          status: ['DISCOVERABLE'],
          attributes: {
            item_name: txt('Forest Tee'),
            brand: txt('Generic'),
            variation_theme: [{ name: 'SIZE/COLOR' }],
          },
        }),
        child('PF-1-BLK-S', 'Black', 's'),
        { ...child('PF-1-BLK-M', 'Black', 'm'), status: [], processing: true },
      ],
    },
  ],
};
const orders: TAmazonSandboxOrders = {
  sandbox: true,
  orders: [
    {
      integrationId: 'seller-1',
      orderId: '111-0001001-1234567',
      marketplaceId: US,
      status: 'SHIPPED',
      createdTime: '2026-11-27T10:00:00Z',
      currency: 'USD',
      lines: [{ sku: 'PF-1-BLK-S', quantity: 2, price: '25.00' }],
      shipmentConfirmed: true,
      carrier: 'USPS',
      tracking: '9400111',
    },
  ],
};

describe('AmazonSandboxScreen', () => {
  it('shows the family (parent, children with price, stock, handling time, status), orders and their shipment', async () => {
    const fetch = fakeFetch({
      '/api/amazon/sandbox/listings': () => json(listings),
      '/api/amazon/sandbox/orders': () => json(orders),
      'POST /api/amazon/sandbox/orders': () =>
        json({ remoteOrderId: '111-0001002-1', name: '111-0001002-1', total: '25.00', currency: 'USD' }, 201),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<AmazonSandboxScreen />);
    const card = within(await screen.findByTestId('amazon-sandbox-listing'));
    expect(
      card.getByText(/Parent PF-1-PARENT · SHIRT · Amazon.com · Brand Generic · Variation theme SIZE\/COLOR/),
    ).toBeInTheDocument();
    const rows = card.getAllByTestId('amazon-sandbox-sku');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('PF-1-BLK-SBlacks25.00 USD999 / 5 daysBuyable'),
      expect.stringContaining('PF-1-BLK-MBlackm25.00 USD999 / 5 daysProcessing'),
    ]);
    const order = await screen.findByTestId('amazon-sandbox-order');
    expect(order).toHaveTextContent('111-0001001-1234567');
    expect(order).toHaveTextContent('USPS 9400111');

    // Only buyable SKUs can be ordered.
    const form = within(screen.getByRole('form', { name: /Place a test order in Amazon seller/ }));
    expect(form.getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['PF-1-BLK-S']);
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByText(/Test order 111-0001002-1 placed|111-0001002-1/)).toBeInTheDocument();
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.url.pathname).toBe('/api/amazon/sandbox/orders');
    expect(post?.body).toMatchObject({ integrationId: 'seller-1', lines: [{ sku: 'PF-1-BLK-S', quantity: 1 }] });
  });
});

describe('AmazonCard', () => {
  it('says what Amazon still needs, and saves the marketplace, brand, GTIN exemption and handling time', async () => {
    const store: TIntegration = {
      id: 'seller-1',
      kind: 'store',
      platform: 'amazon',
      storeName: 'Amazon seller A1 (Sandbox)',
      name: 'Amazon seller A1 (Sandbox)',
      status: 'connected',
      isConnected: true,
      sandbox: true,
      verifiedAt: '2026-11-27T10:00:00Z',
      lastSyncAt: null,
      problem: null,
    };
    const settings = {
      integrationId: 'seller-1',
      sellerId: 'A1',
      marketplaceId: US,
      brand: null,
      gtinExempt: false,
      handlingDays: 5,
      missing: ['Amazon needs the brand printed on your products.'],
      notifications: {
        state: 'failed',
        problem: 'Amazon notifications not set up: Access to requested resource is denied',
      },
    };
    const fetch = fakeFetch({
      '/api/integrations': () => json([store]),
      '/api/amazon/seller-1/settings': () => json(settings),
      'POST /api/amazon/seller-1/settings': () =>
        json({ ...settings, brand: 'Generic', gtinExempt: true, missing: [] }),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<AmazonCard onNavigate={vi.fn()} />);
    const form = within(await screen.findByRole('form', { name: 'Amazon listing settings' }));
    expect(form.getByText('Amazon needs the brand printed on your products.')).toBeInTheDocument();
    expect(
      form.getByText(/notifications not set up: Access to requested resource is denied\. Podforge still checks/),
    ).toBeInTheDocument();
    expect(form.getByRole('button', { name: 'Save settings' })).toBeDisabled();
    await user.selectOptions(form.getByRole('combobox', { name: 'Marketplace' }), 'A1PA6795UKMFR9');
    await user.type(form.getByRole('textbox', { name: 'Brand' }), 'Generic');
    await user.click(form.getByRole('checkbox', { name: /My brand has a GTIN exemption/ }));
    await user.clear(form.getByRole('textbox', { name: /Handling time/ }));
    await user.type(form.getByRole('textbox', { name: /Handling time/ }), '40');
    expect(form.getByRole('alert')).toHaveTextContent('from 1 to 30');
    await user.clear(form.getByRole('textbox', { name: /Handling time/ }));
    await user.type(form.getByRole('textbox', { name: /Handling time/ }), '3');
    await user.click(form.getByRole('button', { name: 'Save settings' }));
    const post = fetch.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({
      marketplaceId: 'A1PA6795UKMFR9',
      brand: 'Generic',
      gtinExempt: true,
      handlingDays: 3,
    });
    expect(screen.queryByRole('button', { name: 'Connect Amazon' })).toBeNull();
  });
});
