import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { StorePlatforms } from './store-platforms';

afterEach(() => vi.unstubAllGlobals());

const MESSAGE = 'Please enter a valid Shopify store domain (e.g., your-store.myshopify.com).';
const store = (over: Parameters<typeof storeIntegration>[0] = {}) =>
  storeIntegration({ id: 'i1', storeName: 'demo (Sandbox)', name: 'demo (Sandbox)', sandbox: true, ...over });

describe('StorePlatforms', () => {
  it('offers Reconnect on a store Shopify no longer accepts, which starts the approval for that store', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/integrations': () => json([store({ status: 'error', isConnected: false })]),
      }),
    );
    const navigate = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<StorePlatforms onNavigate={navigate} />);
    const row = await screen.findByTestId('shopify-store', {}, { timeout: 2000 });
    expect(within(row).getByText('Reconnect needed')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Sync' })).toBeDisabled();
    await user.click(within(row).getByRole('button', { name: 'Reconnect' }));
    expect(navigate).toHaveBeenCalledWith('/auth/shopify/reconnect/i1');
  });

  it("says on the store that order data needs Shopify's approval and what to do, and offers to connect again", async () => {
    const problem =
      'Shopify has not approved Podforge for protected customer data. The app’s owner must request access in the Shopify Partner Dashboard (Apps > Podforge > API access > Protected customer data). Once Shopify approves it, connect this store again.';
    vi.stubGlobal('fetch', fakeFetch({ '/api/integrations': () => json([store({ sandbox: false, problem })]) }));
    const navigate = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<StorePlatforms onNavigate={navigate} />);
    const row = await screen.findByTestId('shopify-store', {}, { timeout: 2000 });
    expect(within(row).getByTestId('shopify-store-problem')).toHaveTextContent(
      'Partner Dashboard (Apps > Podforge > API access > Protected customer data)',
    );
    expect(within(row).getByRole('button', { name: 'Sync' })).toBeEnabled();
    await user.click(within(row).getByRole('button', { name: 'Connect again' }));
    expect(navigate).toHaveBeenCalledWith('/auth/shopify/reconnect/i1');
  });

  it('a public app listed in the App Store asks for no domain: the merchant installs it from the listing', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/integrations': () => json([]),
        '/api/shopify/connect-options': () =>
          json({ sandbox: false, appStoreUrl: 'https://apps.shopify.com/podforge' }),
      }),
    );
    renderWithProviders(<StorePlatforms onNavigate={vi.fn()} />);
    const shopify = await screen.findByTestId('store-shopify', {}, { timeout: 2000 });
    const install = await within(shopify).findByRole('link', { name: 'Install from the Shopify App Store' });
    expect(install).toHaveAttribute('href', 'https://apps.shopify.com/podforge');
    expect(within(shopify).queryByLabelText('Store domain')).not.toBeInTheDocument();
  });

  it('shows a skeleton first, then Shopify with domain validation, Etsy, WooCommerce and Amazon', async () => {
    const fetch = fakeFetch({
      '/api/integrations': () => json([]),
      '/api/shopify/validate-domain?shop=nope.myshopify.com': () =>
        json(
          {
            error: 'The Shopify store domain you entered does not exist. Please double-check your spelling.',
            code: 'NOT_FOUND',
          },
          404,
        ),
      '/api/shopify/validate-domain?shop=my-shop.myshopify.com': () =>
        json({ valid: true, shop: 'my-shop.myshopify.com', sandbox: true }),
    });
    vi.stubGlobal('fetch', fetch);
    const navigate = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<StorePlatforms onNavigate={navigate} />);
    expect(screen.getByTestId('store-platforms-loading')).toBeInTheDocument();
    const shopify = await screen.findByTestId('store-shopify', {}, { timeout: 2000 });

    const amazon = screen.getByTestId('store-amazon');
    // Cards are as tall as their content: the short Amazon card is not stretched to its row-mate's height (#28).
    expect(screen.getByTestId('store-platforms')).toHaveClass('items-start');
    await user.selectOptions(within(amazon).getByRole('combobox', { name: 'Sell on' }), 'A1F83G8C2ARO7P');
    await user.click(within(amazon).getByRole('button', { name: 'Connect Amazon' }));
    expect(navigate).toHaveBeenCalledWith('/auth/amazon/start?marketplace=A1F83G8C2ARO7P');
    navigate.mockClear();
    expect(within(screen.getByTestId('store-etsy')).getByRole('button', { name: 'Connect Etsy' })).toBeEnabled();
    expect(
      within(screen.getByTestId('store-woocommerce')).getByRole('button', { name: 'Use the sandbox store' }),
    ).toBeEnabled();

    const input = within(shopify).getByLabelText('Store domain');
    const connect = within(shopify).getByRole('button', { name: 'Connect' });
    expect(connect).toBeDisabled();
    await user.type(input, 'bad domain');
    expect(within(shopify).getByRole('alert')).toHaveTextContent(MESSAGE);
    expect(connect).toBeDisabled();
    await user.clear(input);
    expect(within(shopify).queryByRole('alert')).not.toBeInTheDocument();

    await user.type(input, 'nope.myshopify.com');
    expect(connect).toBeEnabled();
    await user.click(connect);
    expect(await within(shopify).findByRole('alert')).toHaveTextContent('does not exist');
    expect(navigate).not.toHaveBeenCalled();

    await user.clear(input);
    await user.type(input, 'my-shop.myshopify.com');
    await user.click(within(shopify).getByRole('button', { name: 'Connect' }));
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/auth/shopify/start?shop=my-shop.myshopify.com'));
  });

  it('lists a connected sandbox store with Sync feedback and Disconnect, and toasts the connect outcome', async () => {
    let connected = true;
    let syncs = 0;
    const fetch = fakeFetch({
      '/api/integrations': () => json(connected ? [store()] : [store({ status: 'disconnected', isConnected: false })]),
      '/api/shopify/sync?shop=i1': () => {
        syncs += 1;
        return syncs === 1
          ? json({
              success: true,
              integrationId: 'i1',
              ordersRead: 0,
              ordersNew: 0,
              listingsChecked: 3,
              listingsRemoved: 1,
              listingsChanged: 0,
              lastSyncAt: '2026-01-02T00:00:00Z',
            })
          : json({ error: 'Shopify rejected the access token; reconnect the store', code: 'UPSTREAM_ERROR' }, 502);
      },
      'POST /api/shopify/disconnect/i1': () => {
        connected = false;
        return json({ success: true, integrationId: 'i1' });
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <StorePlatforms onNavigate={vi.fn()} />
        <Toaster />
      </>,
      { path: '/integrations?connected=shopify' },
    );
    expect(await screen.findByText('Shopify Connected')).toBeInTheDocument();
    const row = await screen.findByTestId('shopify-store', {}, { timeout: 2000 });
    expect(within(row).getByText('demo (Sandbox)')).toBeInTheDocument();
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
    expect(within(row).getByText('Connected')).toBeInTheDocument();
    expect(within(row).getByText('Last sync: never')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View sandbox store' })).toHaveAttribute(
      'href',
      '/integrations/shopify-sandbox',
    );
    expect(screen.queryByLabelText('Store domain')).not.toBeInTheDocument();

    expect(within(row).queryByRole('button', { name: 'Reconnect' })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Sync' }));
    expect(await within(row).findByRole('status')).toHaveTextContent(
      'Synced successfully. 1 product was deleted or archived in your store: see My Products.',
    );
    await user.click(within(row).getByRole('button', { name: 'Sync' }));
    await vi.waitFor(() =>
      expect(within(row).getByRole('status')).toHaveTextContent(
        'Shopify rejected the access token; reconnect the store',
      ),
    );

    await user.click(within(row).getByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('dialog', { name: /^Disconnect .*\?$/ });
    expect(screen.queryByLabelText('Store domain')).not.toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByLabelText('Store domain')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/SHOPIFY_API|_SECRET/);
  });
});
