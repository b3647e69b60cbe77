import type { TSandboxProducts } from '@podforge/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { ShopifySandboxScreen } from './shopify-sandbox';

afterEach(() => vi.unstubAllGlobals());

const variant = (title: string, image: string | null, availableForSale = true) => ({
  title,
  price: '24.99',
  sku: `SKU-${title}`,
  availableForSale,
  image,
});
const product = (over: Partial<TSandboxProducts['stores'][number]['products'][number]>) => ({
  id: '1',
  title: 'Sun Tee',
  handle: 'podforge-1',
  status: 'ACTIVE',
  productType: 'tshirt',
  tags: ['sun'],
  updatedAt: '2026-11-23T09:00:00Z',
  onlineStore: true,
  options: ['Color', 'Size'],
  variants: [variant('Black / S', '/api/shopify/sandbox/files/a/black.png'), variant('Red / S', '/red.png')],
  images: 2,
  imageUrls: ['/api/shopify/sandbox/files/a/black.png', '/red.png'],
  failedImages: [],
  ...over,
});

function setup(products: ReturnType<typeof product>[]) {
  const answer: TSandboxProducts = {
    sandbox: true,
    stores: [{ integrationId: 'i1', shop: 'sun.myshopify.com', name: 'sun (Sandbox)', products }],
  };
  vi.stubGlobal('fetch', fakeFetch({ '/api/shopify/sandbox/products': () => json(answer) }));
  renderWithProviders(<ShopifySandboxScreen />);
}

describe('ShopifySandboxScreen', () => {
  it('shows what a buyer sees: pictures per colour, options, prices, availability, the Online Store', async () => {
    setup([
      product({}),
      product({
        id: '2',
        title: 'Hidden Tee',
        status: 'ARCHIVED',
        onlineStore: false,
        variants: [variant('S', null, false)],
        images: 0,
        imageUrls: [],
        failedImages: [{ alt: 'Hidden Tee - Black', message: 'Image could not be processed' }],
      }),
    ]);
    const [sun, hidden] = await screen.findAllByTestId('sandbox-product');
    const card = within(sun as HTMLElement);
    expect(card.getByTestId('online-store')).toHaveTextContent('On the Online Store: buyers can see it');
    expect(card.getByText(/options Color, Size/)).toBeInTheDocument();
    expect(card.getByRole('img', { name: 'Sun Tee, main' })).toHaveAttribute(
      'src',
      '/api/shopify/sandbox/files/a/black.png',
    );
    expect(card.getByRole('img', { name: 'Red / S' })).toHaveAttribute('src', '/red.png');
    expect(card.getAllByText('Available')).toHaveLength(2);
    expect(card.getAllByText('24.99')).toHaveLength(2);

    const off = within(hidden as HTMLElement);
    expect(off.getByTestId('online-store')).toHaveTextContent('Not on the Online Store: buyers cannot see it');
    expect(off.getByText('ARCHIVED')).toBeInTheDocument();
    expect(off.getByText('Sold out')).toBeInTheDocument();
    expect(off.getByText('No picture')).toBeInTheDocument();
    expect(off.getByRole('alert')).toHaveTextContent(
      'Picture "Hidden Tee - Black" failed: Image could not be processed',
    );
  });
});
