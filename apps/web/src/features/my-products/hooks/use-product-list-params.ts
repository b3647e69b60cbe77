import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { parsePage, parseStatusFilter, parseTypeFilter, type StatusFilter, type TypeFilter } from '../product-format';

export type ProductListParams = { search: string; status: StatusFilter; type: TypeFilter; page: number };

const SEARCH_MAX = 100;

/**
 * The list's search, filters and page live in the URL (next to `tab`), so reload, back and a shared link keep them.
 * Defaults are left out of the URL; changing a filter goes back to page 1.
 */
export function useProductListParams() {
  const [params, setParams] = useSearchParams();
  const current: ProductListParams = {
    search: (params.get('search') ?? '').slice(0, SEARCH_MAX),
    status: parseStatusFilter(params.get('status')),
    type: parseTypeFilter(params.get('type')),
    page: parsePage(params.get('page')),
  };

  // react-router's setter closes over the params of its render: a debounced call must use the newest one.
  const setParamsRef = useRef(setParams);
  const paramsRef = useRef(params);
  useEffect(() => {
    setParamsRef.current = setParams;
    paramsRef.current = params;
  }, [setParams, params]);

  const update = useCallback((changes: Partial<ProductListParams>, options: { replace?: boolean } = {}) => {
    const next = new URLSearchParams(paramsRef.current);
    const put = (key: string, value: string, isDefault: boolean) => {
      if (isDefault) next.delete(key);
      else next.set(key, value);
    };
    if (changes.search !== undefined) put('search', changes.search, !changes.search.trim());
    if (changes.status !== undefined) put('status', changes.status, changes.status === 'all');
    if (changes.type !== undefined) put('type', changes.type, changes.type === 'all');
    const page = changes.page ?? 1;
    put('page', String(page), page === 1);
    paramsRef.current = next;
    setParamsRef.current(next, options);
  }, []);

  return { params: current, update };
}
