import type { TBulkJob, TCatalogProduct, TDesign, TIntegration } from '@podforge/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { BulkScreen } from './bulk-screen';

afterEach(() => vi.unstubAllGlobals());

const design = (id: string, name: string): TDesign => ({
  id,
  name,
  type: 'png',
  size: 1000,
  width: 400,
  height: 400,
  url: `/api/designs/${id}/file`,
  vector: false,
  thumbnailUrl: `/api/designs/${id}/file/thumbnail`,
  originalUrl: `/api/designs/${id}/file/original`,
  source: 'upload',
  createdAt: '2026-11-27T10:00:00.000Z',
});

const blank = (id: number, name: string, colors: string[]): TCatalogProduct => ({
  id,
  categoryId: 1,
  type: 'tshirt',
  name,
  brand: 'Brand',
  model: 'Model',
  description: '',
  basePrice: 9.25,
  currency: 'USD',
  mockupUrls: [],
  variantCount: colors.length,
  variants: [],
  sizes: ['M'],
  colors: colors.map((name) => ({ name, value: '#ffffff' })),
  printAreas: [],
});

const designs = [design('d1', 'Cat.png'), design('d2', 'Dog.png'), design('d3', 'Owl.png')];
const blanks = [blank(71, 'Staple Tee', ['White', 'Black']), blank(19, 'Glossy Mug', ['White'])];

type Item = Omit<TBulkJob['items'][number], 'pushes'> & { pushes?: TBulkJob['items'][number]['pushes'] };

const job = (list: Item[], status: TBulkJob['status'], extra: Partial<TBulkJob> = {}): TBulkJob => {
  const items = list.map((i) => ({ ...i, pushes: i.pushes ?? [] }));
  return {
    jobId: 'job-1',
    status,
    error: null,
    expectedFinishAt: null,
    scheduledFor: null,
    pushFailures: items.flatMap((i) =>
      i.pushes.flatMap((p) =>
        p.status === 'failed' && i.productId
          ? [{ productId: i.productId, integrationId: p.integrationId, error: p.error ?? '' }]
          : [],
      ),
    ),
    done: items.filter((i) => i.status === 'done').length,
    total: items.length,
    productIds: items.flatMap((i) => (i.productId ? [i.productId] : [])),
    failures: items.flatMap((i) =>
      i.status === 'failed'
        ? [{ designId: i.designId, catalogProductId: i.catalogProductId, error: i.error ?? '' }]
        : [],
    ),
    items,
    ...extra,
  };
};

const shop = {
  id: 's1',
  kind: 'store',
  platform: 'shopify',
  name: 'sunset-shop',
  isConnected: true,
} as TIntegration;
const etsyShop = { ...shop, id: 's2', platform: 'etsy', name: 'SunsetEtsy' } as TIntegration;

/** What the screen reads besides the job: the designs, the connected stores and the blanks. */
const screenRoutes = (stores: TIntegration[] = []) => ({
  '/api/designs': () => json(designs),
  '/api/integrations': () => json(stores),
  'GET /api/printful/products': () => json({ items: blanks, page: 1, pageSize: 100, total: 2, totalPages: 1 }),
});

describe('BulkScreen', () => {
  it('previews the grid, starts the job, follows each product and retries the failed one', async () => {
    const running = job(
      [
        { designId: 'd1', catalogProductId: 71, status: 'done', productId: 'p1', error: null },
        { designId: 'd2', catalogProductId: 71, status: 'running', productId: null, error: null },
      ],
      'running',
    );
    const withFailure = job(
      [
        { designId: 'd1', catalogProductId: 71, status: 'done', productId: 'p1', error: null },
        { designId: 'd2', catalogProductId: 71, status: 'failed', productId: null, error: 'AI credits used up' },
      ],
      'done',
    );
    const retried = job(
      [
        { designId: 'd1', catalogProductId: 71, status: 'done', productId: 'p1', error: null },
        { designId: 'd2', catalogProductId: 71, status: 'done', productId: 'p2', error: null },
      ],
      'done',
    );
    let polls = 0;
    const fetch = fakeFetch({
      ...screenRoutes(),
      'POST /api/bulk': () => json(running, 202),
      'GET /api/bulk/job-1': () => json(polls++ === 0 ? running : withFailure),
      'POST /api/bulk/job-1/retry': () => json(retried, 202),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<BulkScreen />);

    await user.click(await screen.findByRole('checkbox', { name: /Cat\.png/ }));
    await user.click(screen.getByRole('checkbox', { name: /Dog\.png/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Staple Tee/ }));
    expect(screen.getByTestId('bulk-grid')).toHaveTextContent('2 designs × 1 blank = 2 products');
    await user.click(screen.getByRole('checkbox', { name: 'Black' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Price rule' }), 'marginPercent');
    const amount = screen.getByRole('spinbutton', { name: /Margin after store fee/ });
    await user.clear(amount);
    await user.type(amount, '40');
    await user.click(screen.getByRole('button', { name: 'Create 2 products' }));

    await waitFor(() => expect(fetch.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toEqual({
      designIds: ['d1', 'd2'],
      catalogProductIds: [71],
      colors: ['Black'],
      pricing: { marginPercent: 40 },
      status: 'draft',
    });
    const list = await screen.findByRole('list', { name: 'Products of this bulk job' });
    expect(within(list).getByText(/Cat\.png on Staple Tee/).parentElement).toHaveTextContent('Made');

    // The poll finds the job done with one failure, which the seller retries.
    expect(await screen.findByText('AI credits used up', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Finished: 1 of 2 products made, 1 failed');
    await user.click(screen.getByRole('button', { name: 'Retry 1 failed' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Finished: 2 of 2 products made'));
    expect(fetch.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/api/bulk',
      '/api/bulk/job-1/retry',
    ]);
  });

  it('shows the server’s reason when the job is refused', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        ...screenRoutes(),
        'POST /api/bulk': () =>
          json({ error: 'pricing: Glossy Mug White / 11oz: price 3.00 is below its base cost of 5.95' }, 400),
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<BulkScreen />);
    await user.click(await screen.findByRole('checkbox', { name: /Owl\.png/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Glossy Mug/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Price rule' }), 'fixed');
    const amount = screen.getByRole('spinbutton', { name: /Fixed price/ });
    await user.clear(amount);
    await user.type(amount, '3');
    await user.click(screen.getByRole('button', { name: 'Create 1 product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'pricing: Glossy Mug White / 11oz: price 3.00 is below its base cost of 5.95',
    );
  });

  it('pushes to the chosen stores at a set time, shows each push and the expected finish, and retries a failed push', async () => {
    const pushes = (etsy: TBulkJob['items'][number]['pushes'][number]['status'], error: string | null = null) => [
      {
        integrationId: 's1',
        platform: 'shopify',
        storeName: 'sunset-shop',
        status: 'pushed' as const,
        remoteUrl: 'https://sunset-shop.example/products/1',
        error: null,
        scheduledFor: null,
      },
      {
        integrationId: 's2',
        platform: 'etsy',
        storeName: 'SunsetEtsy',
        status: etsy,
        remoteUrl: null,
        error,
        scheduledFor: null,
      },
    ];
    const made = { catalogProductId: 19, status: 'done' as const, error: null };
    const running = job(
      [
        { ...made, designId: 'd1', productId: 'p1', pushes: pushes('pushing') },
        { ...made, designId: 'd2', status: 'running', productId: null, pushes: pushes('pending') },
      ],
      'running',
      { expectedFinishAt: '2026-11-27T15:40:00.000Z', scheduledFor: null },
    );
    const withFailure = job(
      [
        { ...made, designId: 'd1', productId: 'p1', pushes: pushes('pushed') },
        {
          ...made,
          designId: 'd2',
          productId: 'p2',
          pushes: pushes('failed', "Etsy's daily request budget is spent; try again later"),
        },
      ],
      'done',
    );
    const retried = job(
      [
        { ...made, designId: 'd1', productId: 'p1', pushes: pushes('pushed') },
        { ...made, designId: 'd2', productId: 'p2', pushes: pushes('pushed') },
      ],
      'done',
    );
    let polls = 0;
    const fetch = fakeFetch({
      ...screenRoutes([shop, etsyShop]),
      'POST /api/bulk': () => json(running, 202),
      'GET /api/bulk/job-1': () => json(polls++ === 0 ? running : withFailure),
      'POST /api/bulk/job-1/retry': () => json(retried, 202),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<BulkScreen now={() => new Date('2026-11-27T10:00:00')} />);

    await user.click(await screen.findByRole('checkbox', { name: /Cat\.png/ }));
    await user.click(screen.getByRole('checkbox', { name: /Dog\.png/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Glossy Mug/ }));
    // The shared store picker, then the shared date and time fields.
    await user.click(await screen.findByRole('checkbox', { name: /sunset-shop/ }));
    await user.click(screen.getByRole('checkbox', { name: /SunsetEtsy/ }));
    await user.click(screen.getByRole('switch', { name: 'Schedule the uploads' }));
    expect(screen.getByRole('button', { name: 'Create 2 products' })).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-11-25' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a future date and time.');
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-01' } });
    await user.click(screen.getByRole('button', { name: 'Create 2 products' }));

    await waitFor(() => expect(fetch.calls.some((c) => c.method === 'POST')).toBe(true));
    expect(fetch.calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      designIds: ['d1', 'd2'],
      catalogProductIds: [19],
      stores: ['s1', 's2'],
      schedule: { scheduledDate: '2026-12-01', scheduledTime: '09:30' },
    });
    const list = await screen.findByRole('list', { name: 'Products of this bulk job' });
    const row = (name: RegExp) => within(list).getByText(name).parentElement;
    expect(row(/Cat\.png on Glossy Mug/)).toHaveTextContent('sunset-shop: live');
    expect(row(/Cat\.png on Glossy Mug/)).toHaveTextContent('SunsetEtsy: pushing');
    expect(screen.getByTestId('bulk-expected-finish')).toHaveTextContent('Expected to finish around');

    // The poll finds one push failed: the product is made, its push is retried.
    expect(await screen.findByText(/daily request budget/, {}, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Finished: 2 of 2 products made, 1 push failed');
    expect(screen.queryByTestId('bulk-expected-finish')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry 1 failed' }));
    await waitFor(() => expect(row(/Dog\.png on Glossy Mug/)).toHaveTextContent('SunsetEtsy: live'));
  });

  it("shows each scheduled upload's own planned time, a store's pace apart", async () => {
    const at = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    const scheduled = (designId: string, scheduledFor: string) => ({
      designId,
      catalogProductId: 19,
      status: 'done' as const,
      productId: `p-${designId}`,
      error: null,
      pushes: [
        {
          integrationId: 's1',
          platform: 'shopify',
          storeName: 'sunset-shop',
          status: 'scheduled' as const,
          remoteUrl: null,
          error: null,
          scheduledFor,
        },
      ],
    });
    const planned = job(
      [scheduled('d1', '2026-12-01T09:30:00.000Z'), scheduled('d2', '2026-12-01T09:31:00.000Z')],
      'done',
      { scheduledFor: '2026-12-01T09:30:00.000Z', expectedFinishAt: '2026-12-01T09:32:00.000Z' },
    );
    const fetch = fakeFetch({
      ...screenRoutes([shop]),
      'POST /api/bulk': () => json(planned, 202),
      'GET /api/bulk/job-1': () => json(planned),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<BulkScreen now={() => new Date('2026-11-27T10:00:00')} />);
    await user.click(await screen.findByRole('checkbox', { name: /Cat\.png/ }));
    await user.click(screen.getByRole('checkbox', { name: /Dog\.png/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Glossy Mug/ }));
    await user.click(await screen.findByRole('checkbox', { name: /sunset-shop/ }));
    await user.click(screen.getByRole('switch', { name: 'Schedule the uploads' }));
    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-12-01' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
    await user.click(screen.getByRole('button', { name: 'Create 2 products' }));
    const list = await screen.findByRole('list', { name: 'Products of this bulk job' });
    const row = (name: RegExp) => within(list).getByText(name).parentElement;
    expect(row(/Cat\.png on Glossy Mug/)).toHaveTextContent(
      `sunset-shop: scheduled for ${at('2026-12-01T09:30:00.000Z')}`,
    );
    expect(row(/Dog\.png on Glossy Mug/)).toHaveTextContent(
      `sunset-shop: scheduled for ${at('2026-12-01T09:31:00.000Z')}`,
    );
  });

  it('says why a run stopped and carries it on', async () => {
    const stopped = job(
      [{ designId: 'd1', catalogProductId: 19, status: 'pending', productId: null, error: null }],
      'failed',
      { error: 'The bulk job stopped after its retries with work left; retry to carry on where it stopped' },
    );
    const fetch = fakeFetch({
      ...screenRoutes(),
      'POST /api/bulk': () => json(stopped, 202),
      'GET /api/bulk/job-1': () => json(stopped),
      'POST /api/bulk/job-1/retry': () => json({ ...stopped, status: 'running', error: null }, 202),
    });
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderWithProviders(<BulkScreen />);
    await user.click(await screen.findByRole('checkbox', { name: /Cat\.png/ }));
    await user.click(await screen.findByRole('checkbox', { name: /Glossy Mug/ }));
    await user.click(screen.getByRole('button', { name: 'Create 1 product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('stopped after its retries');
    expect(screen.getByRole('status')).toHaveTextContent('Stopped: 0 of 1 products made');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(fetch.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
  });
});
