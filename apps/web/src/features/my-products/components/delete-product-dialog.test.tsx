import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProduct } from '@/test/product-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { DeleteProductDialog } from './delete-product-dialog';

afterEach(() => vi.unstubAllGlobals());

function setup(status: 'live' | 'ready', answer: () => Response = () => new Response(null, { status: 204 })) {
  const fetch = fakeFetch({ 'DELETE /api/products/p1': answer });
  vi.stubGlobal('fetch', fetch);
  const onClose = vi.fn();
  renderWithProviders(
    <DeleteProductDialog product={buildProduct('p1', { title: 'Cat Tee', status })} onClose={onClose} />,
  );
  return { fetch, onClose, user: userEvent.setup() };
}

describe('DeleteProductDialog', () => {
  it('asks what happens in the store to a live product, archive first, and sends the choice', async () => {
    const { fetch, onClose, user } = setup('live');
    expect(screen.getByRole('radio', { name: /Archive it in the store/ })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Delete it from the store too/ }));
    await user.click(screen.getByRole('button', { name: 'Delete product' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}${c.url.search}`)).toEqual([
      'DELETE /api/products/p1?store=delete',
    ]);
  });

  it('asks nothing about a store for a product that is not live, and shows a refusal', async () => {
    const { fetch, user } = setup('ready', () => json({ error: 'Shopify: the store could not be reached' }, 502));
    expect(screen.queryByRole('radio')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete product' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Shopify: the store could not be reached');
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}${c.url.search}`)).toEqual(['DELETE /api/products/p1']);
  });
});
