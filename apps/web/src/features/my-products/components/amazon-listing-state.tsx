import { useAmazonProductListings } from '@/api/amazon/product-listings';

const STATE_TEXT = {
  processing: 'Amazon is still processing this listing (accepted, not yet for sale).',
  live: 'Buyable on Amazon.',
  not_buyable: 'Not buyable on Amazon:',
  gone: 'Amazon no longer holds this listing.',
} as const;

/**
 * A product live on Amazon: what Amazon made of it since it accepted it (ACCEPTED is not listed), with the issues
 * Amazon found (a brand without a GTIN exemption, a picture it could not use) in its own words.
 */
export function AmazonListingState({ productId }: { productId: string }) {
  const { data } = useAmazonProductListings(productId, true);
  if (!data || data.listings.length === 0) return null;
  return (
    <div className="w-full space-y-1" data-testid="amazon-listing-state">
      {data.listings.map((l) => (
        <div key={l.integrationId} className="text-sm">
          <p
            className={
              l.state === 'live' ? 'text-green-700' : l.state === 'processing' ? 'text-slate-600' : 'text-red-700'
            }
          >
            {STATE_TEXT[l.state]}
          </p>
          {l.issues.length > 0 && (
            <ul className="list-disc pl-5 text-red-700" aria-label="Amazon's issues">
              {l.issues.slice(0, 5).map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
              {l.issues.length > 5 && <li>and {l.issues.length - 5} more</li>}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}
