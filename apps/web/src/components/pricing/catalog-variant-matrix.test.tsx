import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useCatalogProduct } from '@/api/catalog/get-catalog-product';
import { catalogTee } from '@/test/catalog-fixtures';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { CatalogVariantMatrix } from './catalog-variant-matrix';

function Harness({ onChange, named }: { onChange: (ids: number[], productId: number) => void; named?: boolean }) {
  const catalog = useCatalogProduct(71);
  return (
    <CatalogVariantMatrix
      catalog={catalog}
      enabledIds={[4016]}
      named={named}
      onChange={(ids, product) => onChange(ids, product.id)}
    />
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('CatalogVariantMatrix', () => {
  it("shows the product's colours x sizes once loaded, with its name when asked, and reports the new choice", async () => {
    vi.stubGlobal('fetch', fakeFetch({ 'GET /api/printful/products/71': () => json(catalogTee) }));
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} named />);
    expect(screen.getByLabelText('Loading the catalogue product')).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'White / S' }));
    expect(onChange).toHaveBeenCalledWith([4011, 4016], 71);
    expect(screen.getByText(catalogTee.name)).toBeInTheDocument();
  });

  it('says why the catalogue product could not be loaded and reads it again on Retry', async () => {
    let answers = 0;
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        'GET /api/printful/products/71': () =>
          answers++ === 0 ? json({ error: 'Printful is down' }, 502) : json(catalogTee),
      }),
    );
    renderWithProviders(<Harness onChange={() => {}} />);
    expect(await screen.findByRole('alert')).toHaveTextContent("The catalogue product's colours and sizes could not");
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'White / S' })).toBeInTheDocument();
    expect(screen.queryByText(catalogTee.name)).not.toBeInTheDocument();
  });
});
