import type { TBulkJob, TCatalogProduct, TDesign } from '@podforge/contract';
import { screen, waitFor, within } from '@testing-library/react';
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

const job = (items: TBulkJob['items'], status: TBulkJob['status']): TBulkJob => ({
  jobId: 'job-1',
  status,
  done: items.filter((i) => i.status === 'done').length,
  total: items.length,
  productIds: items.flatMap((i) => (i.productId ? [i.productId] : [])),
  failures: items.flatMap((i) =>
    i.status === 'failed' ? [{ designId: i.designId, catalogProductId: i.catalogProductId, error: i.error ?? '' }] : [],
  ),
  items,
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
      '/api/designs': () => json(designs),
      'GET /api/printful/products': () => json({ items: blanks, page: 1, pageSize: 100, total: 2, totalPages: 1 }),
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
        '/api/designs': () => json(designs),
        'GET /api/printful/products': () => json({ items: blanks, page: 1, pageSize: 100, total: 2, totalPages: 1 }),
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
});
