import { DEFAULT_STORE_FEES, type TOrder, type TOrderPage } from '@podforge/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { OrdersScreen } from './orders-screen';

const settings = {
  targetMargin: 30,
  storeFees: DEFAULT_STORE_FEES,
  orderConfirmation: { mode: 'manual', delayMinutes: 60 },
};

const order = (id: string, over: Partial<TOrder> = {}): TOrder => ({
  id,
  integrationId: 'store-1',
  storeName: 'loop-shop (Sandbox)',
  externalId: `5000${id}`,
  name: `#100${id}`,
  status: 'waiting_approval',
  currency: 'USD',
  revenue: '74.00',
  cost: '33.15',
  costCurrency: 'USD',
  storeFee: '2.45',
  profit: '38.40',
  fulfillmentProvider: 'sandbox',
  printerReason: null,
  printerOrderId: '7001',
  confirmAt: null,
  failureReason: null,
  carrier: null,
  trackingNumber: null,
  trackingUrl: null,
  shipments: [],
  addressErased: false,
  orderedAt: '2026-11-23T09:00:00.000Z',
  lines: [
    {
      id: `${id}-1`,
      title: 'Sunset Tee - White / S',
      sku: 'PF-ABC-71002',
      quantity: 2,
      price: '24.00',
      productId: 'p1',
      variantOption: 'White / S',
      fromPodforge: true,
      mockupUrl: '/api/mockups/m1/file/preview',
    },
    {
      id: `${id}-2`,
      title: 'Gift card',
      sku: null,
      quantity: 1,
      price: '26.00',
      productId: null,
      variantOption: null,
      fromPodforge: false,
      mockupUrl: null,
    },
  ],
  ...over,
});

/** A one-page answer of `GET /api/orders` (or page `page` of `total` orders). */
const pageOf = (items: TOrder[], over: Partial<TOrderPage> = {}): TOrderPage => ({
  items,
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: items.length ? 1 : 0,
  ...over,
});

function setup(routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch({
    'GET /api/settings': () => json(settings),
    'GET /api/integrations': () => json([]),
    ...routes,
  });
  vi.stubGlobal('fetch', fetch);
  const user = userEvent.setup();
  renderWithProviders(
    <>
      <OrdersScreen />
      <Toaster />
    </>,
    { path: '/?tab=orders' },
  );
  return { fetch, user };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OrdersScreen', () => {
  it("names a store that cannot hand over its orders in full, and what to do (Shopify's approval)", async () => {
    const problem =
      'Shopify has not approved Podforge for protected customer data, so new orders are not sent to Podforge. The app’s owner must request access in the Shopify Partner Dashboard (Apps > Podforge > API access > Protected customer data).';
    setup({
      'GET /api/orders': () => json(pageOf([])),
      'GET /api/integrations': () =>
        json([
          {
            id: 'store-1',
            kind: 'store',
            platform: 'shopify',
            externalId: 'loop-shop.myshopify.com',
            storeName: 'Loop Shop',
            name: 'Loop Shop',
            status: 'connected',
            isConnected: true,
            sandbox: false,
            problem,
            lastSyncAt: null,
            verifiedAt: null,
            createdAt: '2026-11-23T09:00:00.000Z',
          },
        ]),
    });
    const notice = await screen.findByTestId('orders-store-problems');
    expect(notice).toHaveTextContent('Loop Shop:');
    expect(notice).toHaveTextContent('Partner Dashboard (Apps > Podforge > API access > Protected customer data)');
  });

  it('says there are no orders yet, and what will bring them', async () => {
    setup({ 'GET /api/orders': () => json(pageOf([])) });
    expect(await screen.findByText('No orders yet')).toBeInTheDocument();
    expect(screen.getByText(/When a product you pushed to Shopify, Etsy or WooCommerce sells/)).toBeInTheDocument();
  });

  it('names the printer of each order and, when a routing rule chose it, why', async () => {
    setup({
      'GET /api/orders': () =>
        json(
          pageOf([
            order('1', {
              fulfillmentProvider: 'gelato-sandbox',
              printerReason: 'Fastest to US: Gelato sandbox 14.57 USD (products 10.26 + shipping 4.31, 3–5 days)',
            }),
          ]),
        ),
    });
    const card = await screen.findByTestId('order');
    expect(within(card).getByText(/Printed by Gelato Sandbox/)).toBeInTheDocument();
    expect(within(card).getByTestId('order-printer-reason')).toHaveTextContent(
      'Why this printer: Fastest to US: Gelato sandbox 14.57 USD',
    );
  });

  it('shows each order with its status, lines and mockups, money, and the lines not from Podforge', async () => {
    setup({
      'GET /api/orders': () =>
        json(
          pageOf([
            order('1'),
            order('2', {
              status: 'shipped',
              carrier: 'USPS',
              trackingNumber: '9400123',
              trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400123',
              shipments: [
                {
                  carrier: 'USPS',
                  trackingNumber: '9400123',
                  trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400123',
                  lines: null,
                  sentToStore: true,
                  delivered: false,
                },
              ],
            }),
          ]),
        ),
    });
    const cards = await screen.findAllByTestId('order');
    expect(cards).toHaveLength(2);
    const first = within(cards[0] as HTMLElement);
    expect(first.getByText('Order #1001')).toBeInTheDocument();
    expect(first.getByTestId('order-status')).toHaveTextContent('Waiting for approval');
    expect(first.getByRole('img', { name: 'Sunset Tee - White / S' })).toHaveAttribute(
      'src',
      '/api/mockups/m1/file/preview',
    );
    expect(first.getByText('Not from Podforge')).toBeInTheDocument();
    expect(first.getByText('$74.00')).toBeInTheDocument();
    expect(first.getByText('$33.15')).toBeInTheDocument();
    expect(first.getByText('$38.40')).toBeInTheDocument();
    expect(first.getByText(/Nothing is charged until you approve/)).toBeInTheDocument();
    expect(first.getByRole('button', { name: 'Approve' })).toBeEnabled();

    const second = within(cards[1] as HTMLElement);
    expect(second.getByTestId('order-status')).toHaveTextContent('Shipped');
    // One parcel, not yet arrived.
    expect(second.getByTestId('order-shipment-delivery')).toHaveTextContent('In transit');
    // No parcels, no parcel section.
    expect(first.queryByTestId('order-shipment')).toBeNull();
    expect(second.getByRole('link', { name: /Track USPS 9400123/ })).toHaveAttribute(
      'href',
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400123',
    );
    expect(second.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(second.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });

  it('shows each parcel of an order shipped in parts: delivered or in transit, carrier, number, lines, store', async () => {
    setup({
      'GET /api/orders': () =>
        json(
          pageOf([
            order('4', {
              status: 'shipped',
              shipments: [
                {
                  carrier: 'USPS',
                  trackingNumber: '9400111',
                  trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111',
                  lines: [{ title: 'Sunset Tee - White / S', quantity: 2 }],
                  sentToStore: true,
                  delivered: true,
                },
                {
                  carrier: 'DHL',
                  trackingNumber: 'JD0142',
                  trackingUrl: null,
                  lines: [{ title: 'Sunset Tee - White / M', quantity: 1 }],
                  sentToStore: false,
                  delivered: false,
                },
              ],
            }),
          ]),
        ),
    });
    const card = within(await screen.findByTestId('order'));
    expect(card.getByRole('heading', { name: '2 parcels' })).toBeInTheDocument();
    const [first, second] = card.getAllByTestId('order-shipment').map((el) => within(el));
    // Where each parcel is, as the printer says: the first arrived, the second is on its way.
    expect(first?.getByTestId('order-shipment-delivery')).toHaveTextContent('Parcel 1 of 2 — delivered');
    expect(second?.getByTestId('order-shipment-delivery')).toHaveTextContent('Parcel 2 of 2 — in transit');
    expect(first?.getByRole('link', { name: /Track USPS 9400111/ })).toHaveAttribute(
      'href',
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111',
    );
    expect(first?.getByText('2 × Sunset Tee - White / S')).toBeInTheDocument();
    expect(first?.getByText('Sent to the store')).toBeInTheDocument();
    // No tracking page: the number as text, not a link.
    expect(second?.queryByRole('link')).toBeNull();
    expect(second?.getByText('DHL JD0142')).toBeInTheDocument();
    expect(second?.getByText('1 × Sunset Tee - White / M')).toBeInTheDocument();
    expect(second?.getByText('Tracking not sent to the store')).toBeInTheDocument();
  });

  it('shows a cost charged in another currency in that currency, and no profit', async () => {
    setup({
      'GET /api/orders': () =>
        json(
          pageOf([order('3', { currency: 'EUR', revenue: '30.00', cost: '13.95', costCurrency: 'USD', profit: null })]),
        ),
    });
    const card = within(await screen.findByTestId('order'));
    expect(card.getByText('€30.00')).toBeInTheDocument();
    expect(card.getByText('$13.95')).toBeInTheDocument();
    expect(card.getByText('— (cost in USD, sale in EUR)')).toBeInTheDocument();
  });

  it('approves a waiting order and reads the list again', async () => {
    let approved = false;
    const { fetch, user } = setup({
      'GET /api/orders': () => json(pageOf([order('1', approved ? { status: 'sent' } : {})])),
      'POST /api/orders/1/approve': () => {
        approved = true;
        return json(order('1'), 202);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Order approved: it goes to the printer now.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('order-status')).toHaveTextContent('Sent to printer'));
    expect(fetch.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/api/orders/1/approve',
    ]);
  });

  it("shows Printful's reason for a failure and offers a retry; a refusal shows the server's reason", async () => {
    const { user } = setup({
      'GET /api/orders': () =>
        json(
          pageOf([
            order('1', { status: 'failed', failureReason: 'Printful: Printfile could not be downloaded (front)' }),
          ]),
        ),
      'POST /api/orders/1/retry': () =>
        json({ error: 'Order #1001 is delivered: it cannot be retried', code: 'CONFLICT' }, 409),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Printfile could not be downloaded (front)');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Order #1001 is delivered: it cannot be retried')).toBeInTheDocument();
  });

  it('filters by status through the API and says when a status has none', async () => {
    const { fetch, user } = setup({
      'GET /api/orders': (req) => json(pageOf(req.url.searchParams.get('status') === 'delivered' ? [] : [order('1')])),
    });
    await screen.findByTestId('order');
    await user.selectOptions(screen.getByLabelText('Status'), 'delivered');
    expect(await screen.findByText('No delivered orders')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.url.searchParams.get('status') === 'delivered')).toBe(true);
  });

  it('pages through more orders than one page holds, and a filter starts again at its first page', async () => {
    const { fetch, user } = setup({
      'GET /api/orders': (req) => {
        const page = Number(req.url.searchParams.get('page'));
        const status = req.url.searchParams.get('status');
        const total = status ? 3 : 45;
        const count = Math.min(20, total - (page - 1) * 20);
        const items = Array.from({ length: count }, (_, i) => order(String((page - 1) * 20 + i + 1)));
        return json(pageOf(items, { page, total, totalPages: Math.ceil(total / 20) }));
      },
    });
    expect(await screen.findByTestId('orders-range')).toHaveTextContent('Showing 1 to 20 of 45 orders');
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(screen.getByTestId('orders-range')).toHaveTextContent('Showing 41 to 45 of 45 orders'));
    expect(screen.getAllByTestId('order')).toHaveLength(5);
    await user.selectOptions(screen.getByLabelText('Status'), 'sent');
    await waitFor(() => expect(screen.getByTestId('orders-range')).toHaveTextContent('Showing 1 to 3 of 3 orders'));
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(fetch.calls.at(-1)?.url.search).toBe('?page=1&status=sent');
  });

  it('saves the confirmation rule: after a waiting time of so many minutes', async () => {
    const { fetch, user } = setup({
      'GET /api/orders': () => json(pageOf([])),
      'PATCH /api/settings': (req) =>
        json({ ...settings, orderConfirmation: (req.body as { orderConfirmation: unknown }).orderConfirmation }),
    });
    const select = await screen.findByLabelText('Send orders to the printer');
    await waitFor(() => expect(select).toHaveValue('manual'));
    await user.selectOptions(select, 'delay');
    const minutes = screen.getByLabelText('Waiting time (minutes)');
    await user.clear(minutes);
    await user.type(minutes, '0');
    expect(screen.getByText('The waiting time must be 1 to 10080 minutes.')).toBeInTheDocument();
    await user.clear(minutes);
    await user.type(minutes, '90');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      orderConfirmation: { mode: 'delay', delayMinutes: 90 },
    });
  });
});
