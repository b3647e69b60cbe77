import type { TCatalogProduct, TCatalogProductPage } from '@podforge/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, renderWithProviders } from '@/test/render';
import { ProductPickerScreen } from './product-picker-screen';

const product = (id: number, over: Partial<TCatalogProduct> = {}): TCatalogProduct => ({
  id,
  categoryId: 24,
  type: 'tshirt',
  name: `Product ${id}`,
  brand: 'Brand',
  model: 'M',
  description: `Description ${id}`,
  basePrice: 9.5,
  currency: 'USD',
  mockupUrls: [`/templates/catalog/products/${id}/white.svg`],
  variantCount: 3,
  variants: [],
  sizes: [],
  colors: [],
  printAreas: [],
  ...over,
});

const pageOf = (items: TCatalogProduct[], over: Partial<TCatalogProductPage> = {}): TCatalogProductPage => ({
  items,
  page: 1,
  pageSize: 12,
  total: items.length,
  totalPages: 1,
  source: 'bundled',
  ...over,
});

/** Records each products URL and answers with `answer(url)`. */
function stubProducts(answer: (url: URL) => TCatalogProductPage | Promise<TCatalogProductPage>) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://app.test');
      urls.push(url);
      return json(await answer(url));
    }),
  );
  return urls;
}

afterEach(() => vi.unstubAllGlobals());

describe('ProductPickerScreen', () => {
  it('shows 8 skeleton cards, then cards with price to 2 decimals, variant count and image fallbacks', async () => {
    let release: (p: TCatalogProductPage) => void = () => {};
    stubProducts(() => new Promise((resolve) => (release = resolve)));
    renderWithProviders(<ProductPickerScreen />);
    expect(await screen.findAllByTestId('product-skeleton')).toHaveLength(8);
    release(pageOf([product(1, { basePrice: 12 }), product(2, { mockupUrls: [] }), product(3, { variantCount: 1 })]));
    expect(await screen.findByText('$12.00')).toBeInTheDocument();
    expect(screen.getAllByText('3 variants')).toHaveLength(2);
    expect(screen.getByText('1 variant')).toBeInTheDocument();
    expect(screen.getByText('No image')).toBeInTheDocument();
    const img = screen.getByRole('img', { name: 'Product 1' });
    expect(img).toHaveAttribute('src', '/templates/catalog/products/1/white.svg');
    fireEvent.error(img);
    expect(await screen.findByText('Image unavailable')).toBeInTheDocument();
    // A card opens the wizard with that product (and its category) chosen.
    const [first] = screen.getAllByTestId('catalog-product');
    expect(within(first as HTMLElement).getByRole('link', { name: 'Create a product on Product 1' })).toHaveAttribute(
      'href',
      '/create?product=1&category=24',
    );
  });

  it('sends the category, price band and search, and pages for real', async () => {
    const urls = stubProducts((url) =>
      pageOf([product(Number(url.searchParams.get('page')) * 100)], { total: 30, totalPages: 3 }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ProductPickerScreen />);
    expect(await screen.findByText('Product 100')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(await screen.findByText('Product 300')).toBeInTheDocument();
    expect(urls.at(-1)?.searchParams.get('page')).toBe('3');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Category' }), 'Hoodies');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Price' }), '$15 - $25');
    await waitFor(() => expect(urls.at(-1)?.search).toBe('?category=Hoodies&minPrice=15&maxPrice=25&page=1'));
    await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'fleece');
    await waitFor(() => expect(urls.at(-1)?.searchParams.get('search')).toBe('fleece'));
  });

  it('shows the empty state', async () => {
    stubProducts(() => pageOf([]));
    renderWithProviders(<ProductPickerScreen />);
    expect(await screen.findByText('No products found.')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search or filters.')).toBeInTheDocument();
  });
});
