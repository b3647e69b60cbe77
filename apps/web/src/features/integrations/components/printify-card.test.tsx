import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { PrintifyCard } from './printify-card';

afterEach(() => vi.unstubAllGlobals());

type Printify = { connected: boolean; sandbox: boolean; accountName: string | null };

/** The server as the card sees it: the printers list and Printify's calls, over one state. */
function server(initial: Printify, connectAnswer?: { status: number; body: unknown }, oauthConfigured = false) {
  const state = { ...initial };
  const statusBody = () => ({
    oauthConfigured,
    connected: state.connected,
    sandbox: state.sandbox,
    shopName: state.accountName,
    currency: state.connected || state.sandbox ? 'USD' : null,
  });
  const fetch = fakeFetch({
    '/api/fulfillment/providers': () =>
      json({
        providers: [
          { id: 'printful', name: 'Printful', available: true, connected: false, sandbox: true, accountName: null },
          { id: 'printify', name: 'Printify', available: true, ...state },
          { id: 'gelato', name: 'Gelato', available: false, connected: false, sandbox: false, accountName: null },
        ],
      }),
    '/api/printify/status': () => json(statusBody()),
    'POST /api/printify/connect': () => {
      if (connectAnswer) return json(connectAnswer.body, connectAnswer.status);
      Object.assign(state, { connected: true, sandbox: false, accountName: 'Ada Prints' });
      return json(statusBody());
    },
    'POST /api/printify/sandbox': () => {
      Object.assign(state, { connected: false, sandbox: true, accountName: 'Printify Sandbox' });
      return json(statusBody());
    },
    'POST /api/printify/disconnect': () => {
      Object.assign(state, { connected: false, sandbox: false, accountName: null });
      return json(statusBody());
    },
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const card = () => screen.getByTestId('fulfillment-printify');

describe('PrintifyCard', () => {
  it('connects with a personal access token and the billing currency, then disconnects after asking', async () => {
    const fetch = server({ connected: false, sandbox: false, accountName: null });
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <PrintifyCard />
        <Toaster />
      </>,
    );
    expect(await within(card()).findByText('Not connected')).toBeInTheDocument();
    const connect = within(card()).getByRole('button', { name: 'Connect' });
    expect(connect).toBeDisabled();
    await user.type(within(card()).getByLabelText('Personal access token'), 'pfy_token_of_the_seller_1234');
    await user.selectOptions(within(card()).getByLabelText('Your Printify account bills in'), 'EUR');
    await user.click(connect);
    expect(await screen.findByText('Printify Connected')).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.url.pathname === '/api/printify/connect')?.body).toEqual({
      token: 'pfy_token_of_the_seller_1234',
      currency: 'EUR',
    });
    expect(await within(card()).findByText('Connected')).toBeInTheDocument();
    expect(within(card()).getByText('Ada Prints')).toBeInTheDocument();

    await user.click(within(card()).getByRole('button', { name: 'Disconnect' }));
    const ask = await screen.findByRole('dialog', { name: 'Disconnect Printify?' });
    await user.click(within(ask).getByRole('button', { name: 'Disconnect' }));
    expect(await within(card()).findByText('Not connected')).toBeInTheDocument();
    expect(fetch.calls.some((c) => c.url.pathname === '/api/printify/disconnect')).toBe(true);
  });

  it('uses the sandbox: the Sandbox badge and a link to what it received', async () => {
    server({ connected: false, sandbox: false, accountName: null });
    const user = userEvent.setup();
    renderWithProviders(<PrintifyCard />);
    await user.click(await within(card()).findByRole('button', { name: 'Use the Printify Sandbox' }));
    expect(await within(card()).findByText('Sandbox')).toBeInTheDocument();
    expect(within(card()).getByText('Printify Sandbox')).toBeInTheDocument();
    expect(within(card()).getByRole('link', { name: 'See what it received' })).toHaveAttribute(
      'href',
      '/integrations/printify-sandbox',
    );
  });

  it("shows the server's reason when Printify refuses the token, and stays not connected", async () => {
    server(
      { connected: false, sandbox: false, accountName: null },
      { status: 400, body: { error: 'Printify did not accept this token', code: 'BAD_REQUEST' } },
    );
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <PrintifyCard />
        <Toaster />
      </>,
    );
    await user.type(await within(card()).findByLabelText('Personal access token'), 'pfy_wrong_token_0000000000');
    await user.click(within(card()).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Printify did not accept this token')).toBeInTheDocument();
    expect(within(card()).getByText('Not connected')).toBeInTheDocument();
  });

  it('offers the Printify app flow when the server has one, with the chosen currency; reports its outcome once', async () => {
    server({ connected: true, sandbox: false, accountName: 'Merchant Shop' }, undefined, true);
    renderWithProviders(
      <>
        <PrintifyCard />
        <Toaster />
      </>,
      { path: '/integrations?printify=connected' },
    );
    expect(await screen.findByText('Orders of Printify products go to your shop.')).toBeInTheDocument();
    expect(await within(card()).findByText('Merchant Shop')).toBeInTheDocument();
  });

  it('links Connect with Printify to the app flow with the billing currency', async () => {
    server({ connected: false, sandbox: false, accountName: null }, undefined, true);
    const user = userEvent.setup();
    renderWithProviders(<PrintifyCard />);
    const link = await within(card()).findByRole('link', { name: 'Connect with Printify' });
    expect(link).toHaveAttribute('href', '/api/printify/oauth/start?currency=USD');
    await user.selectOptions(within(card()).getByLabelText('Your Printify account bills in'), 'CAD');
    expect(link).toHaveAttribute('href', '/api/printify/oauth/start?currency=CAD');
  });
});
