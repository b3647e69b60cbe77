import type { TProduct } from '@podforge/contract';
import { useQueryClient } from '@tanstack/react-query';
import { PackageOpen, Plus } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useProducts } from '@/api/products/get-products';
import { upcomingSchedulesQueryOptions } from '@/api/products/get-upcoming-schedules';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FilterSelect } from '@/components/ui/filter-select';
import { Pager } from '@/components/ui/pager';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError } from '@/lib/api-client';
import { useProductListParams } from '../hooks/use-product-list-params';
import { STATUS_FILTERS, TYPE_FILTERS } from '../product-format';
import { ProductRow } from './product-row';

// The dialogs (the edit form with its pricing and store rules) load when one is first opened: the list shows
// without their code.
const EditProductDialog = lazy(async () => ({ default: (await import('./edit-product-dialog')).EditProductDialog }));
const PreviewProductDialog = lazy(async () => ({
  default: (await import('./preview-product-dialog')).PreviewProductDialog,
}));
const DeleteProductDialog = lazy(async () => ({
  default: (await import('./delete-product-dialog')).DeleteProductDialog,
}));

export const SEARCH_DEBOUNCE_MS = 250;
const SKELETON_ROWS = 5;

type OpenDialog = { kind: 'edit' | 'preview' | 'delete'; product: TProduct } | null;

/** Spec 2 'My Products': search, status and type filters, the product rows and a real pager. */
export function MyProductsScreen() {
  const { params, update } = useProductListParams();
  const { data, isPending, isError, error, refetch, isFetching, isPlaceholderData } = useProducts(params);
  // Each row shows its next scheduled upload: ask for the schedules beside the page of products, not after the rows
  // have appeared (which cost a second round trip and a second render of every row).
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.prefetchQuery(upcomingSchedulesQueryOptions());
  }, [queryClient]);
  const [dialog, setDialog] = useState<OpenDialog>(null);

  // The box shows what is typed; the URL (and so the query) follows once typing pauses.
  const [searchInput, setSearchInput] = useState(params.search);
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastSentSearch = useRef(params.search);
  useEffect(() => {
    // The URL changed by itself (back, forward, a link): show its search.
    if (params.search !== lastSentSearch.current) {
      lastSentSearch.current = params.search;
      setSearchInput(params.search);
    }
  }, [params.search]);
  useEffect(() => () => clearTimeout(searchTimer.current), []);

  const onSearch = (value: string) => {
    setSearchInput(value);
    clearTimeout(searchTimer.current);
    searchTimer.current = setTimeout(() => {
      lastSentSearch.current = value.trim() ? value : '';
      update({ search: value }, { replace: true });
    }, SEARCH_DEBOUNCE_MS);
  };

  const clearFilters = () => {
    clearTimeout(searchTimer.current);
    setSearchInput('');
    lastSentSearch.current = '';
    update({ search: '', status: 'all', type: 'all' });
  };

  // A page past the end (the last product of the last page was deleted, or an old link): go to the last page.
  const lastPage = data?.totalPages ?? 0;
  useEffect(() => {
    if (!isPlaceholderData && lastPage > 0 && params.page > lastPage) update({ page: lastPage }, { replace: true });
  }, [isPlaceholderData, lastPage, params.page, update]);

  const filtered = params.search.trim() !== '' || params.status !== 'all' || params.type !== 'all';

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">My Products</h1>
          <p className="text-slate-500">Search, edit and upload the products you have created.</p>
        </div>
        <Button asChild>
          <Link to="/create-product">
            <Plus aria-hidden="true" /> Create Product
          </Link>
        </Button>
      </div>

      <Card className="flex flex-col gap-3 p-4 md:flex-row md:items-center">
        <SearchInput
          label="Search products"
          placeholder="Search products..."
          value={searchInput}
          maxLength={100}
          onChange={(e) => onSearch(e.target.value)}
        />
        <FilterSelect
          label="Status"
          value={params.status}
          options={STATUS_FILTERS}
          onChange={(value) => update({ status: value as typeof params.status })}
        />
        <FilterSelect
          label="Type"
          value={params.type}
          options={TYPE_FILTERS}
          onChange={(value) => update({ type: value as typeof params.type })}
        />
      </Card>

      {isPending ? (
        <Card role="status" aria-busy="true" aria-label="Loading products">
          <ul className="divide-y divide-slate-100">
            {Array.from({ length: SKELETON_ROWS }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
              <li key={i} className="flex items-center gap-4 p-4" data-testid="product-row-skeleton">
                <Skeleton className="h-16 w-16" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-1/3" />
                  <Skeleton className="h-3 w-1/2" />
                </div>
                <Skeleton className="hidden h-8 w-64 lg:block" />
              </li>
            ))}
          </ul>
        </Card>
      ) : isError ? (
        <Card className="space-y-3 p-10 text-center" role="alert">
          <p className="font-medium">Could not load your products.</p>
          <p className="text-sm text-slate-500">
            {error instanceof ApiError ? (error.serverMessage ?? error.message) : 'Please try again.'}
          </p>
          <Button variant="outline" onClick={() => refetch()} disabled={isFetching}>
            {isFetching ? 'Retrying...' : 'Retry'}
          </Button>
        </Card>
      ) : data.items.length === 0 ? (
        data.total > 0 ? null : filtered ? (
          <Card className="space-y-3 p-10 text-center">
            <p className="font-medium">No products match your filters.</p>
            <Button variant="outline" onClick={clearFilters}>
              Clear filters
            </Button>
          </Card>
        ) : (
          <Card className="flex flex-col items-center gap-2 p-10 text-center">
            <PackageOpen className="h-10 w-10 text-slate-400" aria-hidden="true" />
            <p className="font-medium">No products found.</p>
            <p className="text-sm text-slate-500">Create your first product to get started!</p>
            <Button asChild className="mt-2">
              <Link to="/create-product">Create Product</Link>
            </Button>
          </Card>
        )
      ) : (
        <>
          <Card className={isPlaceholderData ? 'opacity-60' : undefined} aria-busy={isPlaceholderData}>
            <ul className="divide-y divide-slate-100" aria-label="Products">
              {data.items.map((product) => (
                <ProductRow
                  key={product.id}
                  product={product}
                  onEdit={(p) => setDialog({ kind: 'edit', product: p })}
                  onPreview={(p) => setDialog({ kind: 'preview', product: p })}
                  onDelete={(p) => setDialog({ kind: 'delete', product: p })}
                />
              ))}
            </ul>
          </Card>
          <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
            <p className="text-sm text-slate-500" data-testid="products-range">
              Showing {(data.page - 1) * data.pageSize + 1} to {Math.min(data.page * data.pageSize, data.total)} of{' '}
              {data.total} products
            </p>
            {data.totalPages > 1 && (
              <Pager page={params.page} totalPages={data.totalPages} onPageChange={(page) => update({ page })} />
            )}
          </div>
        </>
      )}

      <Suspense fallback={null}>
        {dialog?.kind === 'edit' && <EditProductDialog product={dialog.product} onClose={() => setDialog(null)} />}
        {dialog?.kind === 'preview' && (
          <PreviewProductDialog product={dialog.product} onClose={() => setDialog(null)} />
        )}
        {dialog?.kind === 'delete' && <DeleteProductDialog product={dialog.product} onClose={() => setDialog(null)} />}
      </Suspense>
    </div>
  );
}
