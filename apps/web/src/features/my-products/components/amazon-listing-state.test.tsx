import type { TProduct } from '@podforge/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AmazonListingState } from './amazon-listing-state';

const copy = (listing: TProduct['storeCopies'][number]['listing']): TProduct['storeCopies'][number] => ({
  integrationId: 's1',
  platform: 'amazon',
  storeName: 'Amazon seller A1',
  status: 'published',
  url: null,
  error: null,
  changesNotInStore: false,
  listing,
});

describe('AmazonListingState', () => {
  it("shows that Amazon accepted but has not listed the product, then Amazon's issues in its words", () => {
    render(
      <AmazonListingState
        copies={[
          copy({
            state: 'not_buyable',
            issues: [
              "PF-1-BLK-S: The brand 'Acme' has no GTIN exemption for SHIRT in this marketplace. (externally_assigned_product_identifier, brand)",
            ],
          }),
        ]}
      />,
    );
    expect(screen.getByText('Not buyable on Amazon:')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: "Amazon's issues" })).toHaveTextContent(/has no GTIN exemption for SHIRT/);
  });

  it('says Amazon is still processing, also before the listing was first read', () => {
    const { unmount } = render(<AmazonListingState copies={[copy({ state: 'processing', issues: [] })]} />);
    expect(screen.getByText(/Amazon is still processing this listing/)).toBeInTheDocument();
    unmount();
    render(<AmazonListingState copies={[copy(null)]} />);
    expect(screen.getByText(/Amazon is still processing this listing/)).toBeInTheDocument();
  });

  it('shows nothing for a product on no Amazon store', () => {
    const { container } = render(<AmazonListingState copies={[{ ...copy(null), platform: 'etsy' }]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
