import type { TCatalogProductDetail } from '@podforge/contract';

/** A catalogue product of 2 colours x 3 sizes (XL only in Black), as `GET /api/printful/products/71` answers. */
export const catalogTee: TCatalogProductDetail = {
  id: 71,
  type: 'T-SHIRT',
  name: 'Unisex Staple T-Shirt | Bella + Canvas 3001',
  brand: 'Bella + Canvas',
  model: '3001',
  description: 'A soft tee.',
  currency: 'USD',
  variants: [
    { id: 4011, color: 'White', colorHex: '#ffffff', size: 'S', baseCost: 9.25 },
    { id: 4012, color: 'White', colorHex: '#ffffff', size: 'M', baseCost: 9.25 },
    { id: 4016, color: 'Black', colorHex: '#0b0b0b', size: 'S', baseCost: 9.95 },
    { id: 4017, color: 'Black', colorHex: '#0b0b0b', size: 'M', baseCost: 9.95 },
    { id: 4018, color: 'Black', colorHex: '#0b0b0b', size: 'XL', baseCost: 11.5 },
  ],
  placements: [
    { placement: 'front', title: 'Front print', technique: 'dtg', widthPx: 1800, heightPx: 2400, dpi: 150 },
    { placement: 'back', title: 'Back print', technique: 'dtg', widthPx: 1800, heightPx: 2400, dpi: 150 },
  ],
};

export const settings = {
  targetMargin: 30,
  storeFees: {
    shopify: { percent: 2.9, fixed: 0.3 },
    etsy: { percent: 9.5, fixed: 0.45 },
    woocommerce: { percent: 2.9, fixed: 0.3 },
    amazon: { percent: 15, fixed: 0 },
  },
};
