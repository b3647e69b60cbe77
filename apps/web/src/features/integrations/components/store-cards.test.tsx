import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { storeIntegration } from '@/test/integration-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { EtsyCard } from './etsy-card';
import { EtsySandboxScreen } from './etsy-sandbox';
import { WooCommerceCard } from './woocommerce-card';
import { WooCommerceSandboxScreen } from './woocommerce-sandbox';

afterEach(() => vi.unstubAllGlobals());

const store = (over: Parameters<typeof storeIntegration>[0] = {}) =>
  storeIntegration({
    id: 'e1',
    platform: 'etsy',
    storeName: 'PodforgeSandboxShop (Sandbox)',
    name: 'PodforgeSandboxShop (Sandbox)',
    sandbox: true,
    ...over,
  });

const SETUP = {
  integrationId: 'e1',
  shopName: 'Real Shop',
  shippingProfiles: [
    { id: '11', name: 'Standard' },
    { id: '12', name: 'Express' },
  ],
  processingProfiles: [{ id: '21', name: 'Made to order, 2-5 days' }],
  productionPartners: [{ id: '31', name: 'Printful' }],
  chosen: { shippingProfileId: null, readinessStateId: '21', productionPartnerId: null },
};

describe('EtsyCard', () => {
  it('says in a seller’s words that a sandbox shop is a practice shop, naming no server setting (#28)', async () => {
    vi.stubGlobal('fetch', fakeFetch({ '/api/integrations': () => json([store({ isConnected: true })]) }));
    renderWithProviders(<EtsyCard onNavigate={vi.fn()} />);
    expect(await screen.findByText(/Practice shop: this Podforge is not linked to an Etsy app yet/)).toHaveTextContent(
      'Nothing is listed on Etsy and no buyer sees it.',
    );
    expect(document.body).not.toHaveTextContent(/ETSY_API_KEY|server has no/);
  });

  it('connects through /auth/etsy/start and toasts the outcome', async () => {
    vi.stubGlobal('fetch', fakeFetch({ '/api/integrations': () => json([]) }));
    const navigate = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <EtsyCard onNavigate={navigate} />
        <Toaster />
      </>,
      { path: '/integrations?etsy_error=failed' },
    );
    expect(await screen.findByText('Etsy Not Connected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect Etsy' }));
    expect(navigate).toHaveBeenCalledWith('/auth/etsy/start');
  });

  it('a shop waiting for setup offers its profiles; saving sends the choice', async () => {
    let pending = true;
    const fetch = fakeFetch({
      '/api/integrations': () =>
        json([
          store({
            status: pending ? 'pending' : 'connected',
            isConnected: !pending,
            sandbox: false,
            name: 'Real Shop',
          }),
        ]),
      'GET /api/etsy/e1/setup': () => json(SETUP),
      'POST /api/etsy/e1/setup': () => {
        pending = false;
        return json({
          ...SETUP,
          chosen: { shippingProfileId: '12', readinessStateId: '21', productionPartnerId: '31' },
        });
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<EtsyCard onNavigate={vi.fn()} />);
    const row = await screen.findByTestId('etsy-store');
    expect(within(row).getByText('Setup needed')).toBeInTheDocument();
    await user.selectOptions(await within(row).findByLabelText('Shipping profile'), '12');
    await user.click(within(row).getByRole('button', { name: 'Save settings' }));
    await vi.waitFor(() => expect(within(screen.getByTestId('etsy-store')).getByText('Connected')).toBeInTheDocument());
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({
      shippingProfileId: '12',
      readinessStateId: '21',
      productionPartnerId: '31',
    });
  });

  it('a sandbox shop is labelled and links to its page', async () => {
    vi.stubGlobal('fetch', fakeFetch({ '/api/integrations': () => json([store()]) }));
    renderWithProviders(<EtsyCard onNavigate={vi.fn()} />);
    const row = await screen.findByTestId('etsy-store');
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View sandbox shop' })).toHaveAttribute(
      'href',
      '/integrations/etsy-sandbox',
    );
  });

  it('a shop connected without the order scopes says what to do, and Connect asks Etsy again', async () => {
    const problem = 'Reconnect Etsy to let Podforge read orders: the connection lacks transactions_r';
    vi.stubGlobal('fetch', fakeFetch({ '/api/integrations': () => json([store({ problem })]) }));
    const navigate = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<EtsyCard onNavigate={navigate} />);
    const row = await screen.findByTestId('etsy-store');
    expect(within(row).getByRole('alert')).toHaveTextContent(problem);
    await user.click(screen.getByRole('button', { name: 'Reconnect Etsy' }));
    expect(navigate).toHaveBeenCalledWith('/auth/etsy/start');
  });
});

describe('WooCommerceCard', () => {
  it('checks the address before sending, shows the store’s refusal, and connects the sandbox store', async () => {
    let connected = false;
    const fetch = fakeFetch({
      '/api/integrations': () =>
        json(connected ? [store({ id: 'w1', platform: 'woocommerce', name: 'Podforge Sandbox Store (Sandbox)' })] : []),
      'POST /api/woocommerce/connect': ({ body }) => {
        if ((body as { sandbox?: boolean }).sandbox) {
          connected = true;
          return json({ success: true, integrationId: 'w1', sandbox: true }, 201);
        }
        return json(
          { error: 'consumerKey: the store refused these keys (Consumer key is invalid.)', code: 'BAD_REQUEST' },
          400,
        );
      },
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<WooCommerceCard />);
    const card = await screen.findByTestId('store-woocommerce');
    await user.type(within(card).getByLabelText('Store address'), 'http://shop.example.com');
    await user.type(within(card).getByLabelText('Consumer key'), `ck_${'a'.repeat(20)}`);
    await user.type(within(card).getByLabelText('Consumer secret'), `cs_${'b'.repeat(20)}`);
    await user.click(within(card).getByRole('button', { name: 'Connect' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('https://');
    expect(fetch.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(card).getByLabelText('Store address'));
    await user.type(within(card).getByLabelText('Store address'), 'https://shop.example.com');
    await user.click(within(card).getByRole('button', { name: 'Connect' }));
    expect(await within(card).findByRole('alert')).toHaveTextContent('the store refused these keys');

    // An application password goes with its username; both go to the server, which proves them before saving.
    await user.type(within(card).getByLabelText('Application password'), 'abcd efgh ijkl mnop qrst uvwx');
    await user.click(within(card).getByRole('button', { name: 'Connect' }));
    expect(within(card).getByRole('alert')).toHaveTextContent('wpUsername: is needed with the application password');
    await user.type(within(card).getByLabelText('WordPress username'), 'shopmanager');
    await user.click(within(card).getByRole('button', { name: 'Connect' }));
    await waitFor(() =>
      expect(fetch.calls.filter((c) => c.method === 'POST').at(-1)?.body).toMatchObject({
        wpUsername: 'shopmanager',
        wpAppPassword: 'abcdefghijklmnopqrstuvwx',
      }),
    );

    await user.click(within(card).getByRole('button', { name: 'Use the sandbox store' }));
    const row = await screen.findByTestId('woocommerce-store');
    expect(within(row).getByText('Sandbox')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'View sandbox store' })).toHaveAttribute(
      'href',
      '/integrations/woocommerce-sandbox',
    );
  });
});

describe('WooCommerceCard connect toast', () => {
  it('says the store is connected even when the list shows it connected before the answer comes (the form is gone)', async () => {
    let connected = false;
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/integrations': () =>
          json(
            connected ? [store({ id: 'w1', platform: 'woocommerce', name: 'Podforge Sandbox Store (Sandbox)' })] : [],
          ),
        'POST /api/woocommerce/connect': () => {
          connected = true;
          return new Promise<Response>((resolve) => {
            answer = resolve;
          });
        },
      }),
    );
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(
      <>
        <WooCommerceCard />
        <Toaster />
      </>,
    );
    const card = await screen.findByTestId('store-woocommerce');
    await user.click(within(card).getByRole('button', { name: 'Use the sandbox store' }));
    // The workspace's events refresh the list first: the store shows connected and the connect form goes.
    await queryClient.invalidateQueries();
    await screen.findByTestId('woocommerce-store');
    expect(within(card).queryByRole('button', { name: 'Use the sandbox store' })).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the form's unmount effects run
    answer(json({ success: true, integrationId: 'w1', sandbox: true }, 201));
    expect(await screen.findByText('WooCommerce Connected')).toBeInTheDocument();
    expect(screen.getByText('The sandbox store is ready for uploads.')).toBeInTheDocument();
  });
});

describe('sandbox pages', () => {
  it('the Etsy sandbox shows a listing as a buyer sees it: pictures per colour, variations, prices, SKUs', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/etsy/sandbox/listings': () =>
          json({
            sandbox: true,
            shops: [
              {
                integrationId: 'e1',
                shopId: '7001',
                name: 'PodforgeSandboxShop (Sandbox)',
                listings: [
                  {
                    listing_id: 9,
                    title: 'Sunset Tee',
                    state: 'active',
                    tags: ['sunset'],
                    price: '25.00',
                    url: '/integrations/etsy-sandbox#9',
                    images: [{ listing_image_id: 1, rank: 1, url_fullxfull: '/api/etsy/sandbox/images/1' }],
                    inventory: {
                      products: [
                        {
                          sku: 'PF-1',
                          property_values: [
                            { property_id: 513, property_name: 'Color', values: ['Navy'] },
                            { property_id: 514, property_name: 'Size', values: ['M'] },
                          ],
                          offerings: [{ price: '25.00', quantity: 999, is_enabled: true }],
                        },
                      ],
                    },
                    variation_images: [{ value: 'Navy', image_id: 1 }],
                  },
                ],
              },
            ],
          }),
      }),
    );
    renderWithProviders(<EtsySandboxScreen />);
    const listing = await screen.findByTestId('etsy-sandbox-listing');
    expect(within(listing).getByText('active')).toBeInTheDocument();
    expect(within(listing).getByRole('img', { name: 'Sunset Tee, Navy' })).toHaveAttribute(
      'src',
      '/api/etsy/sandbox/images/1',
    );
    expect(within(listing).getByTestId('etsy-sandbox-variation')).toHaveTextContent('Navy / M25.00PF-1');
  });

  it('the WooCommerce sandbox shows attributes and variations, and places a test order', async () => {
    const fetch = fakeFetch({
      'POST /api/woocommerce/sandbox/orders': () =>
        json({ remoteOrderId: '120', name: '#120', total: '50.00', currency: 'USD' }, 201),
      '/api/woocommerce/sandbox/products': () =>
        json({
          sandbox: true,
          stores: [
            {
              integrationId: 'w1',
              url: 'https://ws-1.woo-sandbox.invalid',
              name: 'Podforge Sandbox Store (Sandbox)',
              products: [
                {
                  id: 5,
                  name: 'Sunset Tee',
                  status: 'publish',
                  type: 'variable',
                  permalink: 'https://ws-1.woo-sandbox.invalid/product/sunset-tee/',
                  tags: [],
                  attributes: [{ name: 'Color', options: ['Navy'] }],
                  images: [{ id: 7, src: '/api/woocommerce/sandbox/images/7' }],
                  variations: [
                    {
                      id: 8,
                      sku: 'PF-1',
                      regular_price: '25.00',
                      attributes: [{ name: 'Color', option: 'Navy' }],
                      image: { id: 7, src: '/api/woocommerce/sandbox/images/7' },
                    },
                  ],
                },
              ],
            },
          ],
        }),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<WooCommerceSandboxScreen />);
    const product = await screen.findByTestId('woo-sandbox-product');
    expect(within(product).getByText('published')).toBeInTheDocument();
    expect(within(product).getByText('Color: Navy')).toBeInTheDocument();
    expect(within(product).getByTestId('woo-sandbox-variation')).toHaveTextContent('Navy25.00PF-1');

    const form = within(screen.getByRole('form', { name: 'Place a test order in Podforge Sandbox Store (Sandbox)' }));
    expect(form.getByRole('combobox')).toHaveTextContent('Sunset Tee - Navy (25.00)');
    await user.clear(form.getByRole('spinbutton'));
    await user.type(form.getByRole('spinbutton'), '2');
    await user.click(form.getByRole('button', { name: 'Place test order' }));
    expect(await form.findByText(/Test order #120 placed/)).toBeInTheDocument();
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      integrationId: 'w1',
      lines: [{ sku: 'PF-1', quantity: 2 }],
    });
  });
});
