import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { FulfillmentServices } from './fulfillment-services';

afterEach(() => vi.unstubAllGlobals());

describe('FulfillmentServices', () => {
  it('offers Connect when Printful is not connected; Gelato and Printify are coming soon', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ '/api/printful/status': () => json({ connected: false, oauthConfigured: true }) }),
    );
    renderWithProviders(<FulfillmentServices />);
    const printful = screen.getByTestId('fulfillment-printful');
    expect(await within(printful).findByText('Not connected')).toBeInTheDocument();
    expect(within(printful).getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      '/api/printful/oauth/start',
    );
    for (const name of ['gelato', 'printify']) {
      const card = screen.getByTestId(`fulfillment-${name}`);
      expect(within(card).getByText('Coming Soon')).toBeInTheDocument();
      expect(within(card).getByRole('button', { name: 'Not Available' })).toBeDisabled();
    }
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
    await user.click(within(printful).getByRole('button', { name: 'Disconnect' }));
    expect(await within(printful).findByText('Not connected')).toBeInTheDocument();
  });

  it('explains how to enable Connect when OAuth is not configured', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({ '/api/printful/status': () => json({ connected: false, oauthConfigured: false }) }),
    );
    renderWithProviders(<FulfillmentServices />);
    expect(await screen.findByText(/Set PRINTFUL_CLIENT_ID and PRINTFUL_CLIENT_SECRET/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeDisabled();
  });
});
