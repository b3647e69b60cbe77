import type { TProductDetail } from '@podforge/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { catalogTee, settings } from '@/test/catalog-fixtures';
import { storeIntegration } from '@/test/integration-fixtures';
import { buildProductDetail, catalogVariant, legacyVariant, productMockup } from '@/test/product-fixtures';
import { type FakeRequest, fakeFetch, json, renderWithProviders } from '@/test/render';
import { EditProductDialog } from './edit-product-dialog';

const [whiteS, whiteM] = catalogTee.variants as [
  (typeof catalogTee.variants)[number],
  (typeof catalogTee.variants)[number],
];
const detail = (over: Partial<TProductDetail> = {}) =>
  buildProductDetail('p1', {
    title: 'Cat Tee',
    description: 'Soft.',
    tags: ['cats'],
    catalogProductId: 71,
    placements: [{ placement: 'front', technique: 'dtg' }],
    variants: [catalogVariant(whiteS, 12.99), catalogVariant(whiteM, 19.99)],
    price: 12.99,
    mockups: [productMockup(WHITE, 'White', true), productMockup(BLACK, 'Black')],
    ...over,
  });
const WHITE = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const BLACK = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const store = storeIntegration({ id: 'int-1', storeName: 'demo.myshopify.com', name: 'Demo Shop', sandbox: true });

/** What Printful's sandbox quotes for one tee to the US (its flat first-item rate). */
const sandboxQuote = {
  ok: true,
  provider: 'sandbox',
  name: 'Printful Sandbox',
  currency: 'USD',
  products: '9.25',
  shipping: '4.75',
  total: '14.00',
  shippingMethod: 'Flat Rate',
  minDeliveryDays: 3,
  maxDeliveryDays: 5,
};

const onClose = vi.fn();
function setup(routes: Parameters<typeof fakeFetch>[0]) {
  const fetch = fakeFetch({
    'GET /api/printful/products/71': () => json(catalogTee),
    'GET /api/settings': () => json(settings),
    'GET /api/quotes/blank': () => json(sandboxQuote),
    ...routes,
  });
  vi.stubGlobal('fetch', fetch);
  onClose.mockReset();
  renderWithProviders(
    <>
      <EditProductDialog product={{ id: 'p1', title: 'Cat Tee' }} onClose={onClose} />
      <Toaster />
    </>,
  );
  return { fetch, user: userEvent.setup() };
}
const dialog = () => within(screen.getByRole('dialog', { name: 'Edit Product' }));
const patches = (fetch: { calls: FakeRequest[] }) => fetch.calls.filter((c) => c.method === 'PATCH');

afterEach(() => vi.unstubAllGlobals());

describe('EditProductDialog', () => {
  it('opens the whole product: listing, colours and sizes, prices, placement and mockups', async () => {
    const { fetch, user } = setup({ 'GET /api/products/p1': () => json(detail()) });
    expect(await dialog().findByLabelText('Title')).toHaveValue('Cat Tee');
    expect(dialog().getByLabelText('Description')).toHaveValue('Soft.');
    expect(dialog().getByLabelText('Tags')).toHaveValue('cats');
    expect(await dialog().findByRole('button', { name: 'White / S' })).toHaveAttribute('aria-pressed', 'true');
    expect(dialog().getByRole('button', { name: 'Black / S' })).toHaveAttribute('aria-pressed', 'false');
    const rows = dialog().getAllByTestId('pricing-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByTestId('base-cost')).toHaveTextContent('$9.25');
    expect(within(rows[0] as HTMLElement).getByTestId('margin-warning')).toHaveTextContent(
      'Below your 30% target margin.',
    );
    // The printer's shipping as quoted for the product's first variant, subtracted as an order's bill is (#28):
    // 12.99 - 9.25 - 4.75 - 0.68 = -1.69.
    expect(await within(rows[0] as HTMLElement).findByText('$4.75')).toHaveAttribute('data-testid', 'shipping');
    expect(within(rows[0] as HTMLElement).getByTestId('profit')).toHaveTextContent('-$1.69');
    // The fees of the store the sale is made in: Etsy's 9.5% + 0.45 of 12.99 is 1.68, so 12.99 - 9.25 - 4.75 - 1.68.
    expect(dialog().getByRole('combobox', { name: 'Sold on' })).toHaveValue('shopify');
    await user.selectOptions(dialog().getByRole('combobox', { name: 'Sold on' }), 'etsy');
    expect(within(rows[0] as HTMLElement).getByTestId('store-fee')).toHaveTextContent('$1.68');
    expect(within(rows[0] as HTMLElement).getByTestId('profit')).toHaveTextContent('-$2.69');
    const asked = fetch.calls.find((c) => c.url.pathname === '/api/quotes/blank')?.url.searchParams;
    expect(Object.fromEntries(asked ?? [])).toEqual({
      network: 'printful',
      catalogProductId: '71',
      catalogVariantId: '4011',
      country: 'US',
    });
    expect(dialog().getByRole('combobox', { name: 'Printed at' })).toHaveValue('front');
    expect(dialog().getByRole('option', { name: 'Back print (1800 x 2400 px at 150 DPI)' })).toBeInTheDocument();
    expect(dialog().getByRole('radio', { name: 'Main picture: White' })).toBeChecked();
    expect(dialog().queryByTestId('store-update')).toBeNull();
  });

  it('saves the listing, the full set of enabled variants with prices, the placement and the main mockup', async () => {
    let current = detail();
    const { fetch, user } = setup({
      'GET /api/products/p1': () => json(current),
      'PATCH /api/products/p1': () => {
        current = { ...current, title: 'Cat Tee', updatedAt: '2026-01-02T00:00:00.000Z' };
        return json(current);
      },
    });
    await user.click(await dialog().findByRole('button', { name: 'Black / M' }));
    const added = dialog().getAllByTestId('pricing-row')[2] as HTMLElement;
    // A newly offered variant starts at the workspace's target margin, ending in .99.
    expect(within(added).getByLabelText('Price of Black / M')).toHaveValue('15.99');
    await user.clear(dialog().getByLabelText('Price of White / S'));
    await user.type(dialog().getByLabelText('Price of White / S'), '14.99');
    await user.selectOptions(dialog().getByRole('combobox', { name: 'Printed at' }), 'back');
    await user.click(dialog().getByRole('radio', { name: 'Main picture: Black' }));
    await user.clear(dialog().getByLabelText('Tags'));
    await user.type(dialog().getByLabelText('Tags'), ' cats, Cats ,kittens,, ');
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(patches(fetch).map((c) => c.body)).toEqual([
      {
        tags: ['cats', 'kittens'],
        variants: [
          { catalogVariantId: 4011, price: 14.99 },
          { catalogVariantId: 4012, price: 19.99 },
          { catalogVariantId: 4017, price: 15.99 },
        ],
        price: 14.99,
        placement: 'back',
        mockupId: BLACK,
        mockupIds: [WHITE, BLACK],
      },
    ]);
    expect(await screen.findByText('Product Updated')).toBeInTheDocument();
  });

  it('refuses a title of spaces and a price below base cost, naming the variant, without calling the server', async () => {
    const { fetch, user } = setup({ 'GET /api/products/p1': () => json(detail()) });
    await dialog().findByRole('button', { name: 'White / S' });
    await user.clear(dialog().getByLabelText('Title'));
    await user.type(dialog().getByLabelText('Title'), '   ');
    await user.clear(dialog().getByLabelText('Price of White / M'));
    await user.type(dialog().getByLabelText('Price of White / M'), '9');
    expect(dialog().getByTestId('price-problem')).toHaveTextContent('Price is below its base cost of 9.25');
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));
    expect(dialog().getByText('Title is required.')).toBeInTheDocument();
    expect(dialog().getByLabelText('Title')).toHaveAttribute('aria-invalid', 'true');
    expect(dialog().getByRole('alert')).toHaveTextContent('White / M: price is below its base cost of 9.25.');
    await user.clear(dialog().getByLabelText('Price of White / M'));
    await user.type(dialog().getByLabelText('Price of White / M'), '0');
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));
    expect(dialog().getByRole('alert')).toHaveTextContent('White / M: price must be above 0.');
    expect(patches(fetch)).toHaveLength(0);
  });

  it("keeps the dialog open with the server's reason when saving fails", async () => {
    const { user } = setup({
      'GET /api/products/p1': () => json(detail()),
      'PATCH /api/products/p1': () =>
        json({ error: "variants: 'White / S' is priced below its base cost of 9.25", code: 'VALIDATION' }, 400),
    });
    await user.type(await dialog().findByLabelText('Title'), ' 2');
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));
    expect(await dialog().findByRole('alert')).toHaveTextContent(
      "Could not save the product. variants: 'White / S' is priced below its base cost of 9.25",
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('changes only the prices of an older product with free-text variants', async () => {
    const { fetch, user } = setup({
      'GET /api/products/p1': () =>
        json(
          detail({
            catalogProductId: null,
            placements: [],
            variants: [legacyVariant('Small', 25, 'S'), legacyVariant('Extra Large', 27)],
          }),
        ),
      'PATCH /api/products/p1': () => json(detail()),
    });
    await user.clear(await dialog().findByLabelText('Price of Extra Large'));
    await user.type(dialog().getByLabelText('Price of Extra Large'), '29');
    expect(dialog().queryByRole('table', { name: 'Colours and sizes' })).toBeNull();
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(patches(fetch)).toHaveLength(1));
    expect(patches(fetch)[0]?.body).toEqual({
      variants: [
        { option: 'Small', price: 25, sku: 'S' },
        { option: 'Extra Large', price: 29 },
      ],
      price: 25,
    });
  });

  it('saving a live product closes the dialog with a toast that points to Update in store', async () => {
    let current = detail({ status: 'live', changesNotInStore: false });
    const { user } = setup({
      'GET /api/products/p1': () => json(current),
      'GET /api/integrations': () => json([store]),
      'PATCH /api/products/p1': () => {
        current = { ...current, price: 15.99, changesNotInStore: true, updatedAt: '2026-01-02T00:00:00.000Z' };
        return json(current);
      },
    });
    expect(await dialog().findByTestId('store-in-sync')).toHaveTextContent('the store has every saved change');
    await dialog().findByRole('button', { name: 'White / S' });
    await user.click(dialog().getByRole('button', { name: 'Set prices from margin' }));
    await user.click(dialog().getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saved = (await screen.findByText('Product Updated')).closest('li');
    expect(saved).toHaveTextContent(
      'Cat Tee was saved. Buyers still see the old version: use Update in store on its row.',
    );
  });

  it('names each mockup picture after the product and its colour', async () => {
    setup({ 'GET /api/products/p1': () => json(detail()) });
    expect(await dialog().findByRole('img', { name: 'Cat Tee mockup, White' })).toBeInTheDocument();
    expect(dialog().getByRole('img', { name: 'Cat Tee mockup, Black' })).toBeInTheDocument();
  });

  it('updates a live product in its store, showing the reason of a refusal and then the success', async () => {
    let current = detail({ status: 'live', changesNotInStore: true });
    let attempts = 0;
    const { fetch, user } = setup({
      'GET /api/products/p1': () => json(current),
      'GET /api/integrations': () =>
        json([
          store,
          { ...store, id: 'int-2', name: 'Gone', isConnected: false },
          { ...store, id: 'pf', kind: 'fulfillment' },
        ]),
      'POST /api/products/p1/update-in-store': () => {
        attempts += 1;
        if (attempts === 1) return json({ error: 'Shopify refused: price must be at least 1.00', code: 'STORE' }, 502);
        current = { ...current, changesNotInStore: false };
        return json({
          success: true,
          platform: 'shopify',
          integrationId: 'int-1',
          remoteProductId: 'gid://shopify/Product/1',
          remoteUrl: 'https://demo.myshopify.com/products/cat-tee',
        });
      },
    });
    expect(await dialog().findByText('Changes not in store')).toBeInTheDocument();
    // The one connected store is used: no choice to make.
    expect(await dialog().findByText('Demo Shop')).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Update in store' }));
    expect(
      await dialog().findByText('Could not update the store. Shopify refused: price must be at least 1.00'),
    ).toBeInTheDocument();
    await user.click(dialog().getByRole('button', { name: 'Update in store' }));
    expect(await dialog().findByTestId('store-in-sync')).toHaveTextContent('Updated in Demo Shop.');
    expect(fetch.calls.filter((c) => c.url.pathname.endsWith('/update-in-store')).map((c) => c.body)).toEqual([
      { integrationId: 'int-1' },
      { integrationId: 'int-1' },
    ]);
    // The spec's upload is not this: nothing went to /api/upload.
    expect(fetch.calls.some((c) => c.url.pathname.startsWith('/api/upload/'))).toBe(false);
  });
});
