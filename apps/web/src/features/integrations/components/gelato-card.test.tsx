import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { GelatoCard } from './gelato-card';
import { GelatoSandboxScreen } from './gelato-sandbox';

afterEach(() => vi.unstubAllGlobals());

const OFF = { connected: false, sandbox: false, email: null, webhookUrl: null };

describe('GelatoCard', () => {
  it('says why Use the Gelato Sandbox waits: the contact email, which enables it once typed (#28)', async () => {
    vi.stubGlobal('fetch', fakeFetch({ '/api/gelato/status': () => json(OFF) }));
    const user = userEvent.setup();
    renderWithProviders(<GelatoCard />);
    const sandbox = await screen.findByRole('button', { name: 'Use the Gelato Sandbox' });
    expect(sandbox).toBeDisabled();
    expect(sandbox).toHaveAccessibleDescription(/Enter the contact email first/);
    await user.type(screen.getByLabelText(/Contact email/), 'me@shop.test');
    expect(sandbox).toBeEnabled();
    expect(screen.queryByTestId('printer-missing')).toBeNull();
  });

  it('connects with an API key and a contact email; a refused key shows Gelato’s reason and keeps the form', async () => {
    let status: object = OFF;
    let tries = 0;
    const fetch = fakeFetch({
      '/api/gelato/status': () => json(status),
      'POST /api/gelato/connect': () => {
        tries++;
        if (tries === 1) {
          return json(
            { error: 'Gelato refused this API key (invalid_api_key_provided); copy it again from Gelato' },
            400,
          );
        }
        status = {
          connected: true,
          sandbox: false,
          email: 'me@shop.test',
          webhookUrl: 'https://app.test/api/webhooks/printers/gelato/abc',
        };
        return json(status);
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <GelatoCard />
        <Toaster />
      </>,
    );
    const card = screen.getByTestId('fulfillment-gelato');
    expect(await within(card).findByText('Not connected')).toBeInTheDocument();
    const connect = within(card).getByRole('button', { name: 'Connect' });
    expect(connect).toBeDisabled();
    await user.type(within(card).getByLabelText(/Contact email/), 'me@shop.test');
    await user.type(within(card).getByLabelText('Gelato API key'), 'wrong-key-123');
    await user.click(connect);
    expect(await screen.findByText(/invalid_api_key_provided/)).toBeInTheDocument();
    expect(within(card).getByText('Not connected')).toBeInTheDocument();

    await user.clear(within(card).getByLabelText('Gelato API key'));
    await user.type(within(card).getByLabelText('Gelato API key'), 'good-key-456');
    await user.click(within(card).getByRole('button', { name: 'Connect' }));
    expect(await within(card).findByText('Connected')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { mode: 'live', apiKey: 'wrong-key-123', email: 'me@shop.test' },
      { mode: 'live', apiKey: 'good-key-456', email: 'me@shop.test' },
    ]);
    // The URL to enter in Gelato's dashboard (Gelato has no API for webhooks).
    expect(within(card).getByTestId('gelato-webhook-url')).toHaveTextContent(
      'https://app.test/api/webhooks/printers/gelato/abc',
    );
  });

  it('uses the built-in sandbox (its page linked) and disconnects after asking', async () => {
    let status: object = OFF;
    const fetch = fakeFetch({
      '/api/gelato/status': () => json(status),
      'POST /api/gelato/connect': () => {
        status = { connected: true, sandbox: true, email: 'me@shop.test', webhookUrl: null };
        return json(status);
      },
      'POST /api/gelato/disconnect': () => {
        status = OFF;
        return json(status);
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<GelatoCard />);
    const card = screen.getByTestId('fulfillment-gelato');
    const sandbox = await within(card).findByRole('button', { name: 'Use the Gelato Sandbox' });
    expect(sandbox).toBeDisabled();
    await user.type(within(card).getByLabelText(/Contact email/), 'me@shop.test');
    await user.click(sandbox);
    expect(await within(card).findByText('Sandbox')).toBeInTheDocument();
    expect(within(card).getByText('me@shop.test')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'See what it received' })).toHaveAttribute(
      'href',
      '/integrations/gelato-sandbox',
    );
    await user.click(within(card).getByRole('button', { name: 'Disconnect' }));
    const ask = await screen.findByRole('dialog', { name: 'Disconnect Gelato?' });
    await user.click(within(ask).getByRole('button', { name: 'Disconnect' }));
    expect(await within(card).findByText('Not connected')).toBeInTheDocument();
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}`)).toContain('POST /api/gelato/disconnect');
  });
});

describe('GelatoSandboxScreen', () => {
  it('lists what the sandbox received: reference, split parts, cost and tracking', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/gelato/sandbox/orders': () =>
          json({
            orders: [
              {
                id: 'g-1',
                externalId: 'abc123',
                status: 'shipped',
                orderType: 'order',
                connectedOrderIds: ['g-2'],
                items: [{ productUid: 'apparel_tee_white_m', quantity: 1, files: ['https://x/f.png'] }],
                cost: { total: '18.20', currency: 'USD' },
                shipments: [
                  { id: 'p1', carrier: 'USPS Ground Advantage', trackingNumber: 'GT1', trackingUrl: 'https://t/GT1' },
                ],
              },
            ],
          }),
      }),
    );
    renderWithProviders(<GelatoSandboxScreen />);
    const order = await screen.findByTestId('gelato-sandbox-order');
    expect(within(order).getByText('Reference abc123')).toBeInTheDocument();
    expect(within(order).getByText(/2 orders share this reference/)).toBeInTheDocument();
    expect(within(order).getByText('Cost: 18.20 USD')).toBeInTheDocument();
    expect(within(order).getByRole('link', { name: 'GT1' })).toHaveAttribute('href', 'https://t/GT1');
  });
});
