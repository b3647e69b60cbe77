import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { catalogTee } from '@/test/catalog-fixtures';
import { buildProduct, buildProductDetail, catalogVariant, productMockup } from '@/test/product-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { PreviewProductDialog } from './preview-product-dialog';

afterEach(() => vi.unstubAllGlobals());

describe('PreviewProductDialog', () => {
  it('shows the main mockup, the catalogue variants and the print files to download', async () => {
    const [whiteS] = catalogTee.variants;
    if (!whiteS) throw new Error('fixture');
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/products/p1': () =>
          json(
            buildProductDetail('p1', {
              title: 'Cat Tee',
              variants: [catalogVariant(whiteS, 19.99)],
              mockups: [productMockup('m-black', 'Black'), productMockup('m-white', 'White', true)],
              printFiles: [
                {
                  placement: 'front',
                  width: 1800,
                  height: 2400,
                  dpi: 150,
                  url: '/api/print-files/p1/front?sig=x&exp=1',
                  downloadUrl: '/api/products/p1/print-files/front',
                },
              ],
            }),
          ),
      }),
    );
    renderWithProviders(<PreviewProductDialog product={buildProduct('p1', { title: 'Cat Tee' })} onClose={() => {}} />);
    const dialog = within(screen.getByRole('dialog', { name: 'Product Preview' }));
    expect(await dialog.findByTestId('main-mockup')).toHaveAttribute('src', '/api/mockups/m-white/preview');
    expect(dialog.getAllByRole('row').map((r) => r.textContent)).toEqual([
      'OptionPriceSKU',
      'White / S$19.99PF-P1-4011',
    ]);
    const files = within(dialog.getByRole('list', { name: 'Print files' }));
    expect(files.getByText('1800 x 2400 px at 150 DPI')).toBeInTheDocument();
    expect(files.getByRole('link', { name: 'Download' })).toHaveAttribute('href', '/api/products/p1/print-files/front');
  });
});
