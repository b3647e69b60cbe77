import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { FulfillmentServices } from './fulfillment-services';

afterEach(() => vi.unstubAllGlobals());

/** The Gelato card and the routing rule read their own state. */
const OTHERS = {
  '/api/gelato/status': () => json({ connected: false, sandbox: false, email: null, webhookUrl: null }),
  '/api/routing': () => json({ mode: 'first', provider: null }),
};

describe('FulfillmentServices', () => {
  it('offers Connect when Printful is not connected; Printify and Gelato are real cards', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ '/api/printful/status': () => json({ connected: false, oauthConfigured: true }), ...OTHERS }),
    );
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Not connected')).toBeInTheDocument();
    expect(within(printful).getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      '/api/printful/oauth/start',
    );
    const gelato = screen.getByTestId('fulfillment-gelato');
    expect(await within(gelato).findByText('Not connected')).toBeInTheDocument();
    expect(within(gelato).getByRole('button', { name: 'Use the Gelato Sandbox' })).toBeInTheDocument();
    const printify = screen.getByTestId('fulfillment-printify');
    expect(await within(printify).findByRole('button', { name: 'Use the Printify Sandbox' })).toBeEnabled();
  });

  it('disconnects a connected Printful and reports the callback outcome once', async () => {
    let connected = true;
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/printful/status': () =>
          json({ connected, oauthConfigured: true, via: 'oauth', storeName: 'My Print Store' }),
        '/api/printful/disconnect': () => {
          connected = false;
          return json({ connected: false, oauthConfigured: true });
        },
        ...OTHERS,
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <FulfillmentServices />
        <Toaster />
      </>,
      { path: '/integrations?printful=connected' },
    );
    expect(await screen.findByText('Printful Connected')).toBeInTheDocument();
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('My Print Store')).toBeInTheDocument();
    // Disconnect asks first: Cancel sends nothing.
    await user.click(within(printful).getByRole('button', { name: 'Disconnect' }));
    const ask = await screen.findByRole('dialog', { name: 'Disconnect Printful?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(connected).toBe(true);
    await user.click(within(printful).getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect Printful?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    expect(await within(printful).findByText('Not connected')).toBeInTheDocument();
  });

  it('explains how to enable Connect when OAuth is not configured', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ '/api/printful/status': () => json({ connected: false, oauthConfigured: false }), ...OTHERS }),
    );
    renderWithProviders(<FulfillmentServices />);
    // Plain words for sellers; the variable names are in the README, for the operator.
    expect(
      await screen.findByText(/The operator of this app has not enabled the Printful connection yet/),
    ).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/PRINTFUL_|_SECRET|_TOKEN/);
    expect(within(screen.getByTestId('fulfillment-printful')).getByRole('button', { name: 'Connect' })).toBeDisabled();
  });

  it('lets the seller choose the Printful store orders go to when the account has several', async () => {
    let chosen = false;
    const fetch = fakeFetch({
      '/api/printful/status': () =>
        json(
          chosen
            ? { connected: true, oauthConfigured: true, via: 'oauth', storeName: 'Second Store' }
            : { connected: false, oauthConfigured: true, choosingStore: true },
        ),
      '/api/printful/stores': () =>
        json([
          { id: 1, name: 'Main Store' },
          { id: 2, name: 'Second Store' },
        ]),
      'POST /api/printful/store': () => {
        chosen = true;
        return json({ connected: true, oauthConfigured: true, via: 'oauth', storeName: 'Second Store' });
      },
      ...OTHERS,
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <FulfillmentServices />
        <Toaster />
      </>,
      { path: '/integrations?printful=choose_store' },
    );
    expect(await screen.findByText('Choose a Printful Store')).toBeInTheDocument();
    const printful = screen.getByTestId('fulfillment-printful');
    await user.click(await within(printful).findByRole('button', { name: 'Second Store' }));
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({ storeId: 2 });
    expect(await within(printful).findByText('Second Store')).toBeInTheDocument();
    expect(within(printful).getByText('Connected')).toBeInTheDocument();
  });
});
