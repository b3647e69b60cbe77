import { DEFAULT_STORE_FEES, type TProduct, type TProductPage } from '@podforge/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { storeIntegration } from '@/test/integration-fixtures';
import { buildProduct, legacyVariant } from '@/test/product-fixtures';
import { type FakeRequest, fakeFetch, json, renderWithProviders } from '@/test/render';
import { MyProductsScreen } from './my-products-screen';

const product = (id: string, over: Partial<TProduct> = {}): TProduct => buildProduct(id, over);

const pageOf = (items: TProduct[], over: Partial<TProductPage> = {}): TProductPage => ({
  items,
  page: 1,
  pageSize: 10,
  total: items.length,
  totalPages: items.length ? 1 : 0,
  ...over,
});

function LocationSearch() {
  return <output data-testid="location">{useLocation().search}</output>;
}

const STORES = [
  storeIntegration({ id: 's1', platform: 'shopify', name: 'Cat Shop' }),
  storeIntegration({ id: 's2', platform: 'etsy', name: 'Cat Etsy', storeName: 'Cat Etsy' }),
];

function setup(routes: Parameters<typeof fakeFetch>[0], path = '/?tab=my-products') {
  const fetch = fakeFetch({ 'GET /api/integrations': () => json(STORES), ...routes });
  vi.stubGlobal('fetch', fetch);
  const user = userEvent.setup();
  renderWithProviders(
    <>
      <MyProductsScreen />
      <LocationSearch />
      <Toaster />
    </>,
    { path },
  );
  const listCalls = () => fetch.calls.filter((c) => c.method === 'GET' && c.url.pathname === '/api/products');
  const lastListQuery = () => listCalls().at(-1)?.url.search;
  return { fetch, user, listCalls, lastListQuery };
}

const rowOf = (title: string) => {
  const row = screen.getByText(title).closest('li');
  if (!row) throw new Error(`no row for ${title}`);
  return within(row);
};

const toastText = async (title: string) => {
  const toast = (await screen.findByText(title)).closest('li');
  if (!toast) throw new Error(`no toast ${title}`);
  return toast.textContent;
};

afterEach(() => vi.unstubAllGlobals());

describe('MyProductsScreen', () => {
  it('sends the debounced search, status, type and page, and keeps them in the URL next to the tab', async () => {
    const { user, listCalls, lastListQuery } = setup({
      'GET /api/products': ({ url }) =>
        json(pageOf([product('a')], { page: Number(url.searchParams.get('page')), total: 30, totalPages: 3 })),
    });
    expect(await screen.findByText('Product a')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?page=1&pageSize=10');

    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'mug');
    await waitFor(() => expect(lastListQuery()).toBe('?search=mug&page=1&pageSize=10'));
    // Debounced: the half-typed words were never sent.
    expect(listCalls().map((c) => c.url.searchParams.get('search'))).toEqual([null, 'mug']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Live');
    await waitFor(() => expect(lastListQuery()).toBe('?search=mug&status=live&page=1&pageSize=10'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Mugs');
    await waitFor(() => expect(lastListQuery()).toBe('?search=mug&status=live&type=mug&page=1&pageSize=10'));
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastListQuery()).toBe('?search=mug&status=live&type=mug&page=2&pageSize=10'));
    expect(screen.getByTestId('location')).toHaveTextContent('?tab=my-products&search=mug&status=live&type=mug&page=2');

    // A new filter starts again at page 1 (that page is still cached from before, so it is not fetched again).
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'All Types');
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(/^\?tab=my-products&search=mug&status=live$/),
    );
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('starts from the filters and page in the URL', async () => {
    const { lastListQuery } = setup(
      { 'GET /api/products': () => json(pageOf([product('a')], { page: 3, total: 30, totalPages: 3 })) },
      '/?tab=my-products&search=cat&status=draft&type=hoodie&page=3',
    );
    expect(await screen.findByText('Product a')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?search=cat&status=draft&type=hoodie&page=3&pageSize=10');
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('cat');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('Draft');
    expect(screen.getByRole('combobox', { name: 'Type' })).toHaveDisplayValue('Hoodies');
  });

  it('shows skeleton rows while loading, then each row with picture, title, price, variants, date and badge', async () => {
    let release: (r: Response) => void = () => {};
    setup({
      'GET /api/products': () => new Promise<Response>((resolve) => (release = resolve)),
    });
    expect(await screen.findAllByTestId('product-row-skeleton')).toHaveLength(5);
    release(
      json(
        pageOf([
          product('a', { title: 'Cat Tee', price: 24.5, status: 'ready' }),
          product('b', {
            title: 'Dog Mug',
            productType: 'mug',
            status: 'live',
            mockupUrl: null,
            designThumbnailUrl: '/api/designs/d1/thumbnail',
            variants: [legacyVariant('One size', 12)],
            createdAt: '2024-12-25T12:00:00.000Z',
          }),
          product('c', { title: 'Bare Poster', status: 'processing', mockupUrl: null }),
          product('d', { title: 'Draft Tote', status: 'draft' }),
        ]),
      ),
    );
    expect(await screen.findByText('Cat Tee')).toBeInTheDocument();
    expect(screen.queryByTestId('product-row-skeleton')).not.toBeInTheDocument();
    expect(screen.getAllByTestId('product-row')).toHaveLength(4);

    const cat = rowOf('Cat Tee');
    expect(cat.getByText('$24.50')).toBeInTheDocument();
    expect(cat.getByText('2 variants')).toBeInTheDocument();
    expect(cat.getByText(new Date('2025-03-04T10:00:00.000Z').toLocaleDateString())).toBeInTheDocument();
    expect(cat.getByRole('img', { name: 'Cat Tee' })).toHaveAttribute('src', '/api/mockups/a.png');
    expect(cat.getByText('Ready')).toHaveClass('bg-emerald-100');

    const dog = rowOf('Dog Mug');
    expect(dog.getByText('$25.00')).toBeInTheDocument();
    expect(dog.getByText('1 variant')).toBeInTheDocument();
    expect(dog.getByText('Mug')).toBeInTheDocument();
    expect(dog.getByText(new Date('2024-12-25T12:00:00.000Z').toLocaleDateString())).toBeInTheDocument();
    // No mockup: the design's thumbnail.
    expect(dog.getByRole('img', { name: 'Dog Mug' })).toHaveAttribute('src', '/api/designs/d1/thumbnail');
    expect(dog.getByText('Live')).toHaveClass('bg-blue-100');

    const poster = rowOf('Bare Poster');
    expect(poster.getByRole('img', { name: 'No image' })).toBeInTheDocument();
    expect(poster.getByText('Processing')).toHaveClass('bg-yellow-100');
    // Any other status: a grey badge with the raw text.
    expect(rowOf('Draft Tote').getByText('draft')).toHaveClass('bg-slate-100');
  });

  it('a push waiting for the store’s spent request limit says so, and until when, not that it is working', async () => {
    const waiting = "Waiting for Etsy's request limit; resumes at 14:05 UTC";
    setup({
      'GET /api/products': () =>
        json(
          pageOf([
            product('w', {
              title: 'Patient one',
              status: 'processing',
              storeCopies: [
                {
                  integrationId: 'e1',
                  platform: 'etsy',
                  storeName: null,
                  status: 'processing',
                  url: null,
                  error: null,
                  waiting,
                  resumesAt: '2026-11-27T14:05:00.000Z',
                  changesNotInStore: false,
                },
              ],
            }),
          ]),
        ),
    });
    await screen.findByText('Patient one');
    const copy = rowOf('Patient one').getByTestId('store-copy');
    expect(copy).toHaveTextContent(waiting);
    expect(copy).not.toHaveTextContent('Working on');
  });

  it('lets draft and ready be uploaded; live shows Live on Shopify and processing a disabled Processing...', async () => {
    setup({
      'GET /api/products': () =>
        json(
          pageOf([
            product('a', { title: 'Draft one', status: 'draft' }),
            product('b', { title: 'Ready one', status: 'ready' }),
            product('c', {
              title: 'Live one',
              status: 'live',
              storeUrl: 'https://sunset.myshopify.com/products/live-one',
              storeCopies: [
                {
                  integrationId: 's1',
                  platform: 'shopify',
                  storeName: 'Cat Shop',
                  status: 'published',
                  url: 'https://sunset.myshopify.com/products/live-one',
                  error: null,
                  changesNotInStore: false,
                },
              ],
            }),
            product('f', { title: 'Old live one', status: 'live', storeUrl: 'https://sunset.myshopify.com/p/old' }),
            product('d', { title: 'Busy one', status: 'processing' }),
            product('e', { title: 'Gone one', status: 'ready', storeNotice: 'Deleted in store' }),
          ]),
        ),
    });
    await screen.findByText('Draft one');
    for (const title of ['Draft one', 'Ready one']) {
      const row = rowOf(title);
      expect(await row.findByRole('button', { name: /^Upload to Shopify/ })).toBeEnabled();
      expect(row.getByRole('button', { name: /^Upload to Etsy/ })).toBeEnabled();
      expect(row.queryByText('Live on Shopify')).not.toBeInTheDocument();
    }
    const live = rowOf('Live one');
    // Each store's copy on its own, with its link and its own Remove; the store without it still offers Upload (#28).
    expect(live.getByTestId('store-copy')).toHaveTextContent('Live on Shopify · Cat Shop');
    expect(live.getByRole('link', { name: 'View Live one in Cat Shop' })).toHaveAttribute(
      'href',
      'https://sunset.myshopify.com/products/live-one',
    );
    expect(live.getByRole('button', { name: 'Remove Live one from Cat Shop' })).toBeEnabled();
    expect(live.queryByRole('button', { name: /^Upload to Shopify/ })).not.toBeInTheDocument();
    expect(live.getByRole('button', { name: /^Upload to Etsy/ })).toBeEnabled();
    // Listed before copies were recorded per store: 'Live on' and View in Store as before.
    const old = rowOf('Old live one');
    expect(old.getByText('Live on Shopify')).toBeInTheDocument();
    expect(old.getByRole('link', { name: 'View in Store' })).toHaveAttribute(
      'href',
      'https://sunset.myshopify.com/p/old',
    );
    for (const title of ['Draft one', 'Ready one', 'Busy one']) {
      expect(rowOf(title).queryByRole('link', { name: 'View in Store' })).not.toBeInTheDocument();
    }
    // Deleted in the store: the row says so, and the product can be uploaded again.
    const gone = rowOf('Gone one');
    expect(gone.getByTestId('store-notice')).toHaveTextContent('Deleted in store');
    expect(gone.getByRole('button', { name: /^Upload to Shopify/ })).toBeEnabled();
    expect(live.queryByTestId('store-notice')).not.toBeInTheDocument();
    expect(live.queryByRole('button', { name: 'Processing...' })).not.toBeInTheDocument();
    const busy = rowOf('Busy one');
    expect(busy.getByRole('button', { name: 'Processing...' })).toBeDisabled();
    expect(busy.queryByRole('button', { name: /Upload to/ })).not.toBeInTheDocument();
    for (const title of ['Draft one', 'Ready one', 'Live one', 'Busy one']) {
      for (const action of ['Edit', 'Preview', 'Duplicate', 'Delete']) {
        expect(rowOf(title).getByRole('button', { name: `${action} ${title}` })).toBeEnabled();
      }
    }
  });

  it('takes a live product out of one store, archived by default, and keeps it in the others (#28)', async () => {
    let copies: TProduct['storeCopies'] = [
      {
        integrationId: 's1',
        platform: 'shopify',
        storeName: 'Cat Shop',
        status: 'published',
        url: 'https://cat.myshopify.com/products/t',
        error: null,
        changesNotInStore: false,
      },
      {
        integrationId: 's2',
        platform: 'etsy',
        storeName: 'Cat Etsy',
        status: 'published',
        url: 'https://www.etsy.com/listing/1',
        error: null,
        changesNotInStore: false,
      },
    ];
    const { fetch, user } = setup({
      'GET /api/products': () =>
        json(pageOf([product('p1', { title: 'Two Store Tee', status: 'live', storeCopies: copies })])),
      'POST /api/products/p1/remove-from-store': () => {
        copies = copies.filter((c) => c.integrationId !== 's2');
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Remove Two Store Tee from Cat Etsy' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Remove from Cat Etsy?' }));
    expect(dialog.getByRole('radio', { name: /Archive it/ })).toBeChecked();
    await user.click(dialog.getByRole('button', { name: 'Remove from Cat Etsy' }));
    expect(await toastText('Removed from Store')).toContain('Two Store Tee was archived in Cat Etsy.');
    const post = fetch.calls.find((c) => c.method === 'POST') as FakeRequest;
    expect(post.body).toEqual({ integrationId: 's2', removal: 'archive' });
    await waitFor(() => expect(screen.getAllByTestId('store-copy')).toHaveLength(1));
    expect(screen.getByTestId('store-copy')).toHaveTextContent('Live on Shopify · Cat Shop');
    expect(await screen.findByRole('button', { name: /^Upload to Etsy/ })).toBeEnabled();
  });

  it('uploads to Shopify with an empty JSON body, toasts Upload Successful and refreshes the list', async () => {
    let status: TProduct['status'] = 'ready';
    const { fetch, user, listCalls } = setup({
      'GET /api/products': () => json(pageOf([product('p1', { title: 'Cat Tee', status })])),
      'POST /api/upload/shopify/p1': () => {
        status = 'live';
        return json({ success: true, platform: 'shopify' });
      },
    });
    await user.click((await screen.findByRole('button', { name: /^Upload to Shopify/ })) as HTMLElement);
    expect(await toastText('Upload Successful')).toContain('Cat Tee was uploaded to Shopify.');
    const post = fetch.calls.find((c) => c.method === 'POST') as FakeRequest;
    expect(post.body).toEqual({});
    expect(await screen.findByText('Live on Shopify')).toBeInTheDocument();
    expect(listCalls()).toHaveLength(2);
  });

  it('sends a double click on Upload to Shopify once, and the success stays', async () => {
    let status: TProduct['status'] = 'ready';
    const { fetch, user } = setup({
      'GET /api/products': () => json(pageOf([product('p1', { title: 'Cat Tee', status })])),
      'POST /api/upload/shopify/p1': () => {
        if (status === 'live') return json({ error: '"Cat Tee" is already live', code: 'CONFLICT' }, 409);
        status = 'live';
        return json({ success: true, platform: 'shopify' });
      },
    });
    await user.dblClick(await screen.findByRole('button', { name: /^Upload to Shopify/ }));
    expect(await toastText('Upload Successful')).toContain('Cat Tee was uploaded to Shopify.');
    expect(await screen.findByText('Live on Shopify')).toBeInTheDocument();
    expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(screen.queryByText('Upload Failed')).not.toBeInTheDocument();
  });

  it("shows a product's next scheduled upload, and Schedule opens scheduling for any product", async () => {
    const { user } = setup({
      'GET /api/products': () =>
        json(pageOf([product('p1', { title: 'Cat Tee' }), product('p2', { title: 'Dog Mug', status: 'ready' })])),
      'GET /api/schedules': () =>
        json([
          {
            id: 's1',
            productId: 'p2',
            platform: 'shopify',
            scheduledDate: '2026-12-24',
            scheduledTime: '09:30',
            timeZone: 'UTC',
            runAt: '2026-12-24T09:30:00.000Z',
            status: 'pending',
            integrationId: 'store-1',
            error: null,
            createdAt: '2026-11-22T10:00:00.000Z',
          },
        ]),
      'GET /api/integrations': () => json([]),
      'GET /api/products/p1/schedules': () => json([]),
    });
    await screen.findByText('Dog Mug');
    const next = await within(screen.getByText('Dog Mug').closest('li') as HTMLElement).findByTestId('next-schedule');
    expect(next).toHaveTextContent(/Next upload: .*2026.* to Shopify/);
    expect(within(screen.getByText('Cat Tee').closest('li') as HTMLElement).queryByTestId('next-schedule')).toBeNull();

    await user.click(rowOf('Cat Tee').getByRole('button', { name: /^Schedule / }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule Upload' });
    expect(await within(dialog).findByText(/No Connected Stores/)).toBeInTheDocument();
  });

  it('toasts Upload Failed with the fixed sentence and the server reason on its own line', async () => {
    const { user } = setup({
      'GET /api/products': () => json(pageOf([product('p1', { title: 'Cat Tee' })])),
      'POST /api/upload/etsy/p1': () => json({ error: 'Etsy is not available yet', code: 'NOT_IMPLEMENTED' }, 501),
      'POST /api/upload/shopify/p1': () =>
        json(
          { error: 'No Shopify store is connected. Connect one in Integrations first.', code: 'NOT_CONNECTED' },
          409,
        ),
    });
    await user.click(await screen.findByRole('button', { name: /^Upload to Etsy/ }));
    const etsy = (await screen.findByText('Failed to upload product to Etsy. Please try again.')).parentElement;
    expect(screen.getByText('Upload Failed')).toBeInTheDocument();
    expect(within(etsy as HTMLElement).getByText('Etsy is not available yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Upload to Shopify/ }));
    expect(await screen.findByText('Failed to upload product to Shopify. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('No Shopify store is connected. Connect one in Integrations first.')).toBeInTheDocument();
  });

  it('says only the fixed sentence when the server gives no reason (a bare 500)', async () => {
    const { user } = setup({
      'GET /api/products': () => json(pageOf([product('p1')])),
      'POST /api/upload/shopify/p1': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    await user.click(await screen.findByRole('button', { name: /^Upload to Shopify/ }));
    const description = (await screen.findByText('Failed to upload product to Shopify. Please try again.'))
      .parentElement as HTMLElement;
    expect(description.textContent).toBe('Failed to upload product to Shopify. Please try again.');
  });

  it('duplicates a product, toasts Product Duplicated and shows the copy', async () => {
    let items = [product('p1', { title: 'Cat Tee' })];
    const { fetch, user } = setup({
      'GET /api/products': () => json(pageOf(items)),
      'POST /api/products/p1/duplicate': () => {
        const copy = product('p2', { title: 'Cat Tee (copy)' });
        items = [copy, ...items];
        return json(copy, 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: /^Duplicate / }));
    expect(await toastText('Product Duplicated')).toContain('Cat Tee (copy) was added to your products.');
    expect(await screen.findAllByTestId('product-row')).toHaveLength(2);
    expect(fetch.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/api/products/p1/duplicate',
    ]);
  });

  it('edits the product read by id (the dialog is tested in edit-product-dialog.test.tsx) and refreshes the list', async () => {
    let current = product('p1', { title: 'Cat Tee', price: 25, tags: ['cats'], description: 'Soft.' });
    const { fetch, user } = setup({
      'GET /api/products': () => json(pageOf([current])),
      'GET /api/products/p1': () => json({ ...current, printFiles: [] }),
      'GET /api/settings': () => json({ targetMargin: 30, storeFees: DEFAULT_STORE_FEES }),
      'PATCH /api/products/p1': ({ body }) => {
        current = { ...current, ...(body as Partial<TProduct>), updatedAt: '2025-03-05T10:00:00.000Z' };
        return json(current);
      },
    });
    await user.click(await screen.findByRole('button', { name: /^Edit / }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Product' }));
    await user.clear(await dialog.findByLabelText('Title'));
    await user.type(dialog.getByLabelText('Title'), '  Cat Tee Deluxe ');
    await user.click(dialog.getByRole('button', { name: 'Save changes' }));
    expect(await toastText('Product Updated')).toContain('Cat Tee Deluxe was saved.');
    const patch = fetch.calls.find((c) => c.method === 'PATCH') as FakeRequest;
    expect(patch.body).toEqual({ title: 'Cat Tee Deluxe' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Cat Tee Deluxe')).toBeInTheDocument();
  });

  it('previews the product read by id: picture, title, price, description, tags and variants', async () => {
    const listed = product('p1', { title: 'Cat Tee' });
    setup({
      'GET /api/products': () => json(pageOf([listed])),
      'GET /api/products/p1': () =>
        json({
          ...listed,
          description: 'A soft cotton tee.',
          tags: ['cats', 'cute'],
          variants: [legacyVariant('Small', 25, 'S'), legacyVariant('Extra Large', 27)],
        }),
    });
    await userEvent.click(await screen.findByRole('button', { name: /^Preview / }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Product Preview' }));
    expect(await dialog.findByText('A soft cotton tee.')).toBeInTheDocument();
    expect(dialog.getByRole('img', { name: 'Cat Tee' })).toHaveAttribute('src', '/api/mockups/p1.png');
    expect(dialog.getByRole('heading', { name: 'Cat Tee' })).toBeInTheDocument();
    expect(dialog.getAllByText('$25.00').length).toBeGreaterThan(0);
    expect(
      within(dialog.getByRole('list', { name: 'Tags' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['cats', 'cute']);
    const rows = dialog.getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['OptionPriceSKU', 'Small$25.00S', 'Extra Large$27.00—']);
    await userEvent.click(dialog.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('deletes only after confirming, then refreshes the list', async () => {
    let items = [product('p1', { title: 'Cat Tee' }), product('p2', { title: 'Dog Mug' })];
    const { fetch, user } = setup({
      'GET /api/products': () => json(pageOf(items)),
      'DELETE /api/products/p1': () => {
        items = items.filter((p) => p.id !== 'p1');
        return new Response(null, { status: 204 });
      },
    });
    await screen.findByText('Cat Tee');
    await user.click(rowOf('Cat Tee').getByRole('button', { name: /^Delete / }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Delete product?' }));
    expect(dialog.getByText(/will be deleted\. This cannot be undone\./)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetch.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await user.click(rowOf('Cat Tee').getByRole('button', { name: /^Delete / }));
    dialog = within(await screen.findByRole('dialog', { name: 'Delete product?' }));
    await user.click(dialog.getByRole('button', { name: 'Delete product' }));
    expect(await toastText('Product Deleted')).toContain('Cat Tee was deleted.');
    await waitFor(() => expect(screen.queryByText('Cat Tee')).not.toBeInTheDocument());
    expect(screen.getAllByTestId('product-row')).toHaveLength(1);
    expect(fetch.calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname)).toEqual(['/api/products/p1']);
  });

  it('pages for real: range text, numbered pages with an ellipsis, previous and next', async () => {
    const { user, lastListQuery } = setup({
      'GET /api/products': ({ url }) => {
        const page = Number(url.searchParams.get('page'));
        const count = page === 13 ? 5 : 10;
        const items = Array.from({ length: count }, (_, i) => product(`${page}-${i}`));
        return json(pageOf(items, { page, total: 125, totalPages: 13 }));
      },
    });
    expect(await screen.findByText('Showing 1 to 10 of 125 products')).toBeInTheDocument();
    const pages = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pages.getAllByRole('button').map((b) => b.getAttribute('aria-label'))).toEqual([
      'Previous page',
      'Page 1',
      'Page 2',
      'Page 3',
      'Page 4',
      'Page 5',
      'Page 13',
      'Next page',
    ]);
    expect(pages.getByText('…')).toBeInTheDocument();
    expect(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await user.click(pages.getByRole('button', { name: 'Page 13' }));
    expect(await screen.findByText('Showing 121 to 125 of 125 products')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?page=13&pageSize=10');
    expect(pages.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Page 13' })).toHaveAttribute('aria-current', 'page');

    await user.click(pages.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('Showing 111 to 120 of 125 products')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?page=12&pageSize=10');
  });

  it('moves to the last page when the page asked for is past the end', async () => {
    const { lastListQuery } = setup(
      {
        'GET /api/products': ({ url }) => {
          const page = Number(url.searchParams.get('page'));
          return json(pageOf(page > 2 ? [] : [product(`p${page}`)], { page, total: 15, totalPages: 2 }));
        },
      },
      '/?tab=my-products&page=5',
    );
    expect(await screen.findByText('Product p2')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?page=2&pageSize=10');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\?tab=my-products&page=2$/);
  });

  it('with no products at all, invites creating the first one', async () => {
    setup({ 'GET /api/products': () => json(pageOf([])) });
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
    expect(screen.getByText('Create your first product to get started!')).toBeInTheDocument();
    const links = screen.getAllByRole('link', { name: 'Create Product' });
    expect(links.at(-1)).toHaveAttribute('href', '/create-product');
    expect(screen.queryByText(/Showing/)).not.toBeInTheDocument();
  });

  it('with filters that match nothing, says so and clears them', async () => {
    const { user, lastListQuery } = setup(
      {
        'GET /api/products': ({ url }) => json(pageOf(url.searchParams.has('status') ? [] : [product('a')])),
      },
      '/?tab=my-products&search=zebra&status=live',
    );
    expect(await screen.findByText('No products match your filters.')).toBeInTheDocument();
    expect(screen.queryByText('No products found.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Product a')).toBeInTheDocument();
    expect(lastListQuery()).toBe('?page=1&pageSize=10');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\?tab=my-products$/);
    expect(screen.getByRole('searchbox', { name: 'Search products' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveDisplayValue('All Status');
  });

  it('shows the error with Retry, which loads the list again', async () => {
    let fail = true;
    const { user } = setup({
      'GET /api/products': () =>
        fail ? json({ error: 'Database unavailable', code: 'INTERNAL' }, 503) : json(pageOf([product('a')])),
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load your products.');
    expect(alert).toHaveTextContent('Database unavailable');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Product a')).toBeInTheDocument();
  });

  it('names every row action and picture after the product', async () => {
    setup({
      'GET /api/products': () =>
        json(pageOf([product('a', { title: 'Cat Tee', status: 'ready', thumbnailUrl: '/t.png' })])),
    });
    const row = rowOf(await screen.findByText('Cat Tee').then((el) => el.textContent ?? ''));
    for (const name of ['Edit Cat Tee', 'Preview Cat Tee', 'Duplicate Cat Tee', 'Schedule Cat Tee', 'Delete Cat Tee']) {
      expect(row.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(await row.findByRole('button', { name: 'Upload to Shopify: Cat Tee' })).toBeEnabled();
    expect(row.getByRole('button', { name: 'Upload to Etsy: Cat Tee' })).toBeEnabled();
    expect(row.getByRole('img', { name: 'Cat Tee' })).toBeInTheDocument();
  });

  it('offers no Upload to a store before one is connected, and says where to connect one', async () => {
    setup({
      'GET /api/integrations': () => json([storeIntegration({ id: 's1', platform: 'shopify', isConnected: false })]),
      'GET /api/products': () => json(pageOf([product('a', { title: 'Cat Tee', status: 'ready' })])),
    });
    expect(await screen.findByTestId('no-store-note')).toHaveTextContent(
      'Connect a store on the Integrations page to upload products.',
    );
    expect(rowOf('Cat Tee').queryByRole('button', { name: /^Upload to/ })).not.toBeInTheDocument();
  });

  it("shows when a live product's store copy is out of date, with Update in store in the row", async () => {
    setup({
      'GET /api/products': () =>
        json(
          pageOf([
            product('a', { title: 'Stale Tee', status: 'live', changesNotInStore: true }),
            product('b', { title: 'Fresh Tee', status: 'live', changesNotInStore: false }),
          ]),
        ),
    });
    const stale = rowOf((await screen.findByText('Stale Tee')).textContent ?? '');
    expect(stale.getByTestId('store-out-of-date')).toHaveTextContent('Store copy out of date');
    // The row's action names its product (#28: accessible names on every row action).
    expect(await stale.findByRole('button', { name: 'Update Stale Tee in store' })).toBeEnabled();
    expect(rowOf('Fresh Tee').queryByTestId('store-out-of-date')).not.toBeInTheDocument();
  });

  it('Escape on the Edit dialog gives the focus back to the Edit button that opened it', async () => {
    const current = product('p1', { title: 'Cat Tee' });
    const { user } = setup({
      'GET /api/products': () => json(pageOf([current])),
      'GET /api/products/p1': () => json({ ...current, printFiles: [] }),
      'GET /api/settings': () => json({ targetMargin: 30, storeFees: DEFAULT_STORE_FEES }),
    });
    const edit = await screen.findByRole('button', { name: 'Edit Cat Tee' });
    await user.click(edit);
    const dialog = await screen.findByRole('dialog', { name: 'Edit Product' });
    // The browser's showModal moves the focus into the dialog.
    (await within(dialog).findByLabelText('Title')).focus();
    // Escape: the browser fires 'cancel' on a modal dialog (jsdom has no modal dialogs, so the test fires it).
    fireEvent(dialog, new Event('cancel', { cancelable: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(edit).toHaveFocus();
  });
});
