import type { TAiProductType, TProductStatus, TProductType } from '@podforge/contract';
import {
  AI_PRODUCT_TYPE_LABELS,
  PRODUCT_STATUSES,
  PRODUCT_TAG_MAX_LENGTH,
  PRODUCT_TAGS_MAX,
  PRODUCT_TYPE_PLURAL_LABELS,
} from '@podforge/contract/plain';

export type StatusFilter = TProductStatus | 'all';
export type TypeFilter = 'all' | Extract<TProductType, 'tshirt' | 'hoodie' | 'mug' | 'poster'>;

/** Spec 2 'My Products': the two filters, as shown and as sent. */
export const STATUS_FILTERS: readonly { value: StatusFilter; label: string }[] = [
  { value: 'all', label: 'All Status' },
  { value: 'draft', label: 'Draft' },
  { value: 'ready', label: 'Ready' },
  { value: 'processing', label: 'Processing' },
  { value: 'live', label: 'Live' },
];

export const TYPE_FILTERS: readonly { value: TypeFilter; label: string }[] = [
  { value: 'all', label: 'All Types' },
  ...(['tshirt', 'hoodie', 'mug', 'poster'] as const).map((value) => ({
    value,
    label: PRODUCT_TYPE_PLURAL_LABELS[value],
  })),
];

export function parseStatusFilter(raw: string | null): StatusFilter {
  return (PRODUCT_STATUSES as readonly (string | null)[]).includes(raw) ? (raw as TProductStatus) : 'all';
}

export function parseTypeFilter(raw: string | null): TypeFilter {
  return TYPE_FILTERS.find((t) => t.value === raw)?.value ?? 'all';
}

export function parsePage(raw: string | null): number {
  const page = Number(raw);
  return Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1;
}

export const productTypeLabel = (type: string) => AI_PRODUCT_TYPE_LABELS[type as TAiProductType] ?? type;

/**
 * '$1,234.50'. The contract carries no currency: prices are US dollars (spec 2 shows '$'). Written out rather than
 * with Intl.NumberFormat, whose first use in a page costs tens of milliseconds of main thread (ICU set-up) before
 * My Products can show its rows.
 */
export function formatPrice(price: number): string {
  const [whole = '0', cents = '00'] = Math.abs(price).toFixed(2).split('.');
  return `${price < 0 ? '-' : ''}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}

export const formatVariantCount = (count: number) => `${count} ${count === 1 ? 'variant' : 'variants'}`;

// The browser's first date format costs tens of milliseconds (ICU loads the locale's calendar and the time zone):
// made once, when this screen's code arrives, while its first page of products is still on the way.
const localDate = new Intl.DateTimeFormat();

/** The local date format (as `toLocaleDateString()`), as the dashboard's recent uploads. */
export const formatDate = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? 'Invalid Date' : localDate.format(date);
};

/** Comma separated tags: trimmed, empty ones dropped, and no duplicates (ignoring case; the first spelling wins). */
export { parseTags } from '@podforge/contract/plain';

export function tagsError(tags: string[]): string | null {
  if (tags.length > PRODUCT_TAGS_MAX) return `Use at most ${PRODUCT_TAGS_MAX} tags.`;
  if (tags.some((t) => t.length > PRODUCT_TAG_MAX_LENGTH))
    return `Each tag must be at most ${PRODUCT_TAG_MAX_LENGTH} characters.`;
  return null;
}
