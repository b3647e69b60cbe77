import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

export type PagerItem = number | 'gap-start' | 'gap-end';

/**
 * The page buttons to show: all of them up to 7 pages, else always 7 slots (first, last, the current page and its
 * neighbours, an ellipsis for each hidden run), so the pager does not change width as the user pages.
 */
export function pagerItems(page: number, totalPages: number): PagerItem[] {
  if (totalPages <= 7) return Array.from({ length: totalPages }, (_, i) => i + 1);
  if (page <= 4) return [1, 2, 3, 4, 5, 'gap-end', totalPages];
  if (page >= totalPages - 3)
    return [1, 'gap-start', totalPages - 4, totalPages - 3, totalPages - 2, totalPages - 1, totalPages];
  return [1, 'gap-start', page - 1, page, page + 1, 'gap-end', totalPages];
}

/** Previous, numbered pages with ellipses, next. Buttons are named 'Page N', 'Previous page' and 'Next page'. */
export function Pager({
  page,
  totalPages,
  onPageChange,
}: {
  page: number;
  totalPages: number;
  onPageChange: (page: number) => void;
}) {
  return (
    <nav className="flex items-center justify-center gap-1" aria-label="Pages">
      <Button
        variant="outline"
        size="sm"
        onClick={() => onPageChange(page - 1)}
        disabled={page <= 1}
        aria-label="Previous page"
      >
        <ChevronLeft />
      </Button>
      {pagerItems(page, totalPages).map((item) =>
        typeof item === 'number' ? (
          <Button
            key={item}
            variant={item === page ? 'default' : 'outline'}
            size="sm"
            onClick={() => onPageChange(item)}
            aria-current={item === page ? 'page' : undefined}
            aria-label={`Page ${item}`}
          >
            {item}
          </Button>
        ) : (
          <span key={item} className="px-2 text-sm text-slate-500" aria-hidden="true">
            …
          </span>
        ),
      )}
      <Button
        variant="outline"
        size="sm"
        onClick={() => onPageChange(page + 1)}
        disabled={page >= totalPages}
        aria-label="Next page"
      >
        <ChevronRight />
      </Button>
    </nav>
  );
}
