import type { TFulfilmentNetwork } from '@podforge/contract';
import { CATALOG_CATEGORY_FILTERS, CATALOG_PRICE_FILTERS } from '@podforge/contract/plain';
import { useEffect, useState } from 'react';
import { useFulfilmentProviders } from '@/api/printers/get-fulfilment-providers';
import { Card } from '@/components/ui/card';
import { FilterSelect } from '@/components/ui/filter-select';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { useCatalogProducts } from '../api/get-catalog-products';
import { ProductCard } from './product-card';
import { ProviderCatalogue } from './provider-catalogue';

const SKELETON_CARDS = 8;
const SEARCH_DEBOUNCE_MS = 250;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export function ProductPickerScreen() {
  const [searchInput, setSearchInput] = useState('');
  const [category, setCategory] = useState<string>('All Categories');
  const [priceLabel, setPriceLabel] = useState<string>('All Prices');
  const [page, setPage] = useState(1);
  const [printer, setPrinter] = useState<TFulfilmentNetwork>('printful');
  const search = useDebounced(searchInput, SEARCH_DEBOUNCE_MS);
  // The printers this server can print with (Printful always; Printify; Gelato once its adapter is there).
  const printers = (useFulfilmentProviders().data?.providers ?? []).filter((p) => p.available);
  const price = CATALOG_PRICE_FILTERS.find((p) => p.label === priceLabel) ?? CATALOG_PRICE_FILTERS[0];

  const { data, isPending, isError, error, isPlaceholderData } = useCatalogProducts({
    search,
    category,
    minPrice: price.min,
    maxPrice: price.max,
    page,
  });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Product Picker</h1>
          <p className="text-slate-500">Browse the print-on-demand catalogue and pick a product for your design.</p>
        </div>
        {printer === 'printful' && data && (
          <p className="text-sm text-slate-500" data-testid="catalog-source">
            {data.source === 'printful' ? 'Live Printful catalogue' : 'Bundled Printful catalogue'}
          </p>
        )}
      </div>

      <Card className="flex flex-col gap-3 p-4 md:flex-row md:items-center">
        <SearchInput
          label="Search products"
          placeholder="Search products..."
          value={searchInput}
          onChange={(e) => {
            // A new filter starts again at page 1.
            setSearchInput(e.target.value);
            setPage(1);
          }}
        />
        {printers.length > 1 && (
          <FilterSelect
            label="Printer"
            value={printer}
            options={printers.map((p) => ({ value: p.id, label: p.name }))}
            onChange={(value) => {
              setPrinter(value as TFulfilmentNetwork);
              setPage(1);
            }}
          />
        )}
        {printer === 'printful' && (
          <FilterSelect
            label="Category"
            value={category}
            options={CATALOG_CATEGORY_FILTERS}
            onChange={(value) => {
              setCategory(value);
              setPage(1);
            }}
          />
        )}
        {printer === 'printful' && (
          <FilterSelect
            label="Price"
            value={priceLabel}
            options={CATALOG_PRICE_FILTERS.map((p) => p.label)}
            onChange={(value) => {
              setPriceLabel(value);
              setPage(1);
            }}
          />
        )}
      </Card>

      {printer !== 'printful' ? (
        <ProviderCatalogue provider={printer} search={search} />
      ) : isPending ? (
        <div
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4"
          role="status"
          aria-busy="true"
          aria-label="Loading products"
        >
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
            <Card key={i} className="overflow-hidden" data-testid="product-skeleton">
              <Skeleton className="aspect-[4/5] rounded-none" />
              <div className="space-y-2 p-4">
                <Skeleton className="h-4 w-3/4" />
                <Skeleton className="h-3 w-full" />
                <Skeleton className="h-3 w-1/3" />
              </div>
            </Card>
          ))}
        </div>
      ) : isError ? (
        <Card className="p-10 text-center" role="alert">
          <p className="font-medium">Could not load products.</p>
          <p className="text-sm text-slate-500">
            {error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.'}
          </p>
        </Card>
      ) : data.items.length === 0 ? (
        <Card className="p-10 text-center">
          <p className="font-medium">No products found.</p>
          <p className="text-sm text-slate-500">Try adjusting your search or filters.</p>
        </Card>
      ) : (
        <>
          <div
            className={`grid gap-4 sm:grid-cols-2 lg:grid-cols-4 ${isPlaceholderData ? 'opacity-60' : ''}`}
            aria-busy={isPlaceholderData}
          >
            {data.items.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </div>
          <Pager page={page} totalPages={data.totalPages} onPageChange={setPage} />
          <p className="text-center text-xs text-slate-500">
            Showing {(data.page - 1) * data.pageSize + 1} to {Math.min(data.page * data.pageSize, data.total)} of{' '}
            {data.total} products
          </p>
        </>
      )}
    </div>
  );
}
