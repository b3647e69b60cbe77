import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json, renderWithProviders } from '@/test/render';
import { AmazonListingState } from './amazon-listing-state';

afterEach(() => vi.unstubAllGlobals());

describe('AmazonListingState', () => {
  it("shows that Amazon accepted but has not listed the product, then Amazon's issues in its words", async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/amazon/products/p1/listings': () =>
          json({
            listings: [
              {
                integrationId: 's1',
                storeName: 'Amazon seller A1',
                remoteProductId: 'PF-1-PARENT',
                state: 'not_buyable',
                issues: [
                  "PF-1-BLK-S: The brand 'Acme' has no GTIN exemption for SHIRT in this marketplace. (externally_assigned_product_identifier, brand)",
                ],
              },
            ],
          }),
      }),
    );
    renderWithProviders(<AmazonListingState productId="p1" />);
    expect(await screen.findByText('Not buyable on Amazon:')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: "Amazon's issues" })).toHaveTextContent(/has no GTIN exemption for SHIRT/);
  });

  it('says when Amazon is still processing', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch({
        '/api/amazon/products/p2/listings': () =>
          json({
            listings: [{ integrationId: 's1', storeName: 'A', remoteProductId: 'X', state: 'processing', issues: [] }],
          }),
      }),
    );
    renderWithProviders(<AmazonListingState productId="p2" />);
    expect(await screen.findByText(/Amazon is still processing this listing/)).toBeInTheDocument();
  });
});
