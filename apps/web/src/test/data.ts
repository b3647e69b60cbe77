import type { TProduct, TProductVariant } from '@podforge/contract';

/** Test data builders: a product and its variants as the API answers them, with what a test changes. */

let next = 0;

export const variantOf = (option: string, price: number, sku: string | null = null): TProductVariant => ({
  id: `v${++next}`,
  catalogVariantId: null,
  option,
  color: null,
  colorHex: null,
  size: null,
  baseCost: null,
  price,
  sku,
});

export const productOf = (id: string, over: Partial<TProduct> = {}): TProduct => ({
  id,
  title: `Product ${id}`,
  description: `Description ${id}`,
  price: 25,
  tags: ['cats'],
  productType: 'tshirt',
  catalogProductId: null,
  placements: [],
  variants: [variantOf('Small', 25, 'S'), variantOf('Medium', 25, 'M')],
  mockups: [],
  mockupUrl: null,
  status: 'draft',
  designId: null,
  designThumbnailUrl: null,
  thumbnailUrl: null,
  storeUrl: null,
  changesNotInStore: false,
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-04T10:00:00.000Z',
  ...over,
});
