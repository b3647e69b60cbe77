import type { TProduct } from '@podforge/contract';

type StoreCopy = TProduct['storeCopies'][number];

const STATE_TEXT = {
  processing: 'Amazon is still processing this listing (accepted, not yet for sale).',
  live: 'Buyable on Amazon.',
  not_buyable: 'Not buyable on Amazon:',
  gone: 'Amazon no longer holds this listing.',
} as const;

/**
 * A product live on Amazon: what Amazon made of it since it accepted it (ACCEPTED is not listed), with the issues
 * Amazon found (a brand without a GTIN exemption, a picture it could not use) in its own words. The server reads them
 * in the background and on Amazon's notification and keeps them on the store copy; the list follows the server's
 * changes (live updates), so nothing is asked of Amazon from here.
 */
export function AmazonListingState({ copies }: { copies: StoreCopy[] }) {
  const live = copies.filter((c) => c.platform === 'amazon' && c.status === 'published');
  if (live.length === 0) return null;
  return (
    <div className="w-full space-y-1" data-testid="amazon-listing-state">
      {live.map((c) => {
        // Not read yet: the push was accepted moments ago.
        const state = c.listing?.state ?? 'processing';
        const issues = c.listing?.issues ?? [];
        return (
          <div key={c.integrationId} className="text-sm">
            <p
              className={
                state === 'live' ? 'text-green-700' : state === 'processing' ? 'text-slate-600' : 'text-red-700'
              }
            >
              {STATE_TEXT[state]}
            </p>
            {issues.length > 0 && (
              <ul className="list-disc pl-5 text-red-700" aria-label="Amazon's issues">
                {issues.slice(0, 5).map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
                {issues.length > 5 && <li>and {issues.length - 5} more</li>}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}
