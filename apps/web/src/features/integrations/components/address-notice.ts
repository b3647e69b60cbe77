import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { type ToastInput, toast } from '@/components/ui/use-toast';

/**
 * What the address says a redirect came back with (an OAuth callback's outcome): the notice to show, 'silent' when
 * it carries an outcome with nothing to show, or null when it carries none.
 */
export type AddressNoticeReader = (params: URLSearchParams) => ToastInput | 'silent' | null;

/**
 * Shows a redirect's outcome once as a toast, then `drop` removes its parameters from the address (replacing the
 * history entry), so a reload does not repeat it. Pass module-level functions: they are effect dependencies.
 */
export function useAddressNotice(read: AddressNoticeReader, drop: (params: URLSearchParams) => void) {
  const [params, setParams] = useSearchParams();
  const search = params.toString();
  const shown = useRef(false);
  useEffect(() => {
    const notice = read(new URLSearchParams(search));
    if (notice === null) return;
    if (notice !== 'silent' && !shown.current) {
      shown.current = true;
      // The Toaster picks up toasts raised before it subscribed (see use-toast.ts).
      toast(notice);
    }
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        drop(next);
        return next;
      },
      { replace: true },
    );
  }, [search, read, drop, setParams]);
}

/** The reader for a `?<param>=<outcome>` address, each outcome's notice from `outcomes` (others: silent). */
export const outcomeParam =
  (param: string, outcomes: Record<string, ToastInput>): AddressNoticeReader =>
  (params) => {
    const outcome = params.get(param);
    if (!outcome) return null;
    return outcomes[outcome] ?? 'silent';
  };
