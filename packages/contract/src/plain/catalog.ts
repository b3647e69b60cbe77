export const CATALOG_PAGE_SIZE = 12;

/** The spec's category filter names (section 9) and price bands; the picker sends minPrice/maxPrice. */
export const CATALOG_CATEGORY_FILTERS = [
  'All Categories',
  'T-Shirts',
  'Hoodies',
  'Mugs',
  'Posters',
  'Phone Cases',
] as const;
export const CATALOG_PRICE_FILTERS = [
  { label: 'All Prices', min: undefined, max: undefined },
  { label: 'Under $15', min: undefined, max: 14.99 },
  { label: '$15 - $25', min: 15, max: 25 },
  { label: '$25 - $40', min: 25, max: 40 },
  { label: 'Over $40', min: 40.01, max: undefined },
] as const;

/** The catalogue product a product of a bare type is made on (the simple flow); the seller can change it. */
export const DEFAULT_CATALOG_PRODUCT: Record<string, number> = {
  tshirt: 71,
  hoodie: 146,
  mug: 19,
  poster: 1,
  sticker: 358,
  tote: 367,
  phone_case: 181,
};
