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
  it('says Sandbox, not Not connected, while the built-in Printful Sandbox prints the orders, and offers Connect', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/printful/status': () => json({ connected: false, oauthConfigured: true, sandbox: true }),
        ...OTHERS,
      }),
    );
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Sandbox', { exact: true })).toBeInTheDocument();
    expect(within(printful).queryByText('Not connected')).toBeNull();
    expect(within(printful).getByTestId('printful-sandbox-note')).toHaveTextContent(
      'Test orders: your store orders are printed by the built-in Printful Sandbox.',
    );
    expect(within(printful).getByTestId('printful-sandbox-note')).toHaveTextContent(
      'Connect your own Printful account to have Printful print and ship them.',
    );
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
          connected
            ? json({ connected, oauthConfigured: true, via: 'oauth', storeName: 'My Print Store', sandbox: false })
            : json({ connected, oauthConfigured: true, sandbox: true }),
        '/api/printful/disconnect': () => {
          connected = false;
          return json({ connected: false, oauthConfigured: true, sandbox: true });
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
    expect(within(printful).getByText('Connected', { exact: true })).toBeInTheDocument();
    // The seller's own account prints the orders: no sandbox note.
    expect(within(printful).queryByTestId('printful-sandbox-note')).toBeNull();
    // Disconnect asks first: Cancel sends nothing.
    await user.click(within(printful).getByRole('button', { name: 'Disconnect' }));
    const ask = await screen.findByRole('dialog', { name: 'Disconnect Printful?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(connected).toBe(true);
    await user.click(within(printful).getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect Printful?' });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    // Back to the sandbox, which prints the orders again.
    expect(await within(printful).findByText('Sandbox', { exact: true })).toBeInTheDocument();
    expect(within(printful).getByTestId('printful-sandbox-note')).toBeInTheDocument();
  });

  it('explains how to enable Connect when OAuth is not configured', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/printful/status': () => json({ connected: false, oauthConfigured: false, sandbox: true }),
        ...OTHERS,
      }),
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
            ? { connected: true, oauthConfigured: true, via: 'oauth', storeName: 'Second Store', sandbox: false }
            : { connected: false, oauthConfigured: true, choosingStore: true, sandbox: true },
        ),
      '/api/printful/stores': () =>
        json([
          { id: 1, name: 'Main Store' },
          { id: 2, name: 'Second Store' },
        ]),
      'POST /api/printful/store': () => {
        chosen = true;
        return json({
          connected: true,
          oauthConfigured: true,
          via: 'oauth',
          storeName: 'Second Store',
          sandbox: false,
        });
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

  it('says Not connected only when no printer prints the orders', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/printful/status': () => json({ connected: false, oauthConfigured: true, sandbox: false }),
        ...OTHERS,
      }),
    );
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Not connected')).toBeInTheDocument();
    expect(within(printful).queryByTestId('printful-sandbox-note')).toBeNull();
    expect(within(printful).getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      '/api/printful/oauth/start',
    );
  });

  it('says Status unknown, and nothing about the sandbox, when the state could not be read', async () => {
    vi.stubGlobal('fetch', fakeFetch({ '/api/printful/status': () => json({ error: 'down' }, 500), ...OTHERS }));
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Status unknown')).toBeInTheDocument();
    expect(within(printful).queryByTestId('printful-sandbox-note')).toBeNull();
  });

  it("with the operator's catalogue token, says the orders still go to the sandbox and offers Connect", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/printful/status': () =>
          json({
            connected: true,
            via: 'token',
            oauthConfigured: true,
            storeName: 'Printful (private token)',
            sandbox: true,
          }),
        ...OTHERS,
      }),
    );
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Sandbox', { exact: true })).toBeInTheDocument();
    expect(within(printful).queryByText('Connected', { exact: true })).toBeNull();
    expect(within(printful).getByText('Printful (private token)')).toBeInTheDocument();
    expect(within(printful).getByTestId('printful-sandbox-note')).toBeInTheDocument();
    expect(within(printful).getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      '/api/printful/oauth/start',
    );
  });
});
