import type { TProduct, TProductDetail, TProductMockup, TProductVariant } from '@podforge/contract';

/** A free-text variant of an older product (no catalogue variant behind it). */
export const legacyVariant = (option: string, price: number, sku: string | null = null): TProductVariant => ({
  id: `v-${option}`,
  catalogVariantId: null,
  option,
  color: null,
  colorHex: null,
  size: null,
  baseCost: null,
  price,
  sku,
});

/** A catalogue variant as the API answers it. */
export const catalogVariant = (
  v: { id: number; color: string; colorHex: string; size: string; baseCost: number },
  price: number,
): TProductVariant => ({
  id: `v-${v.id}`,
  catalogVariantId: v.id,
  option: `${v.color} / ${v.size}`,
  color: v.color,
  colorHex: v.colorHex,
  size: v.size,
  baseCost: v.baseCost,
  price,
  sku: `PF-P1-${v.id}`,
});

export const productMockup = (id: string, color: string | null, main = false): TProductMockup => ({
  id,
  color,
  url: `/api/mockups/${id}/file`,
  previewUrl: `/api/mockups/${id}/preview`,
  main,
});

/** A product as `GET /api/products` lists it; `over` replaces any field. */
export const buildProduct = (id: string, over: Partial<TProduct> = {}): TProduct => ({
  id,
  title: `Product ${id}`,
  description: `Description ${id}`,
  price: 25,
  tags: ['cats'],
  productType: 'tshirt',
  catalogProductId: null,
  placements: [],
  variants: [legacyVariant('Small', 25, 'S'), legacyVariant('Medium', 25, 'M')],
  mockups: [],
  mockupUrl: `/api/mockups/${id}.png`,
  status: 'draft',
  designId: null,
  designThumbnailUrl: null,
  thumbnailUrl: null,
  storeUrl: null,
  changesNotInStore: false,
  storeNotice: null,
  storeCopies: [],
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-04T10:00:00.000Z',
  ...over,
});

export const buildProductDetail = (id: string, over: Partial<TProductDetail> = {}): TProductDetail => ({
  ...buildProduct(id),
  printFiles: [],
  ...over,
});
