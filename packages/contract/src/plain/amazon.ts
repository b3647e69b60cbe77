/**
 * Amazon (issue #30): the marketplaces a seller can list in, and the Amazon product type each of our product types
 * is listed as. Marketplace ids and regions are Amazon's (apis-next.md H.1).
 */
export const AMAZON_MARKETPLACES = [
  {
    id: 'ATVPDKIKX0DER',
    code: 'US',
    name: 'Amazon.com',
    region: 'na',
    currency: 'USD',
    languageTag: 'en_US',
    sellerCentral: 'https://sellercentral.amazon.com',
  },
  {
    id: 'A1F83G8C2ARO7P',
    code: 'UK',
    name: 'Amazon.co.uk',
    region: 'eu',
    currency: 'GBP',
    languageTag: 'en_GB',
    sellerCentral: 'https://sellercentral.amazon.co.uk',
  },
  {
    id: 'A1PA6795UKMFR9',
    code: 'DE',
    name: 'Amazon.de',
    region: 'eu',
    currency: 'EUR',
    languageTag: 'de_DE',
    sellerCentral: 'https://sellercentral.amazon.de',
  },
] as const;
export type TAmazonMarketplace = (typeof AMAZON_MARKETPLACES)[number];
export const AMAZON_MARKETPLACE_IDS = AMAZON_MARKETPLACES.map((m) => m.id) as [string, ...string[]];
export const DEFAULT_AMAZON_MARKETPLACE = 'ATVPDKIKX0DER';
export const amazonMarketplace = (id: string): TAmazonMarketplace | null =>
  AMAZON_MARKETPLACES.find((m) => m.id === id) ?? null;

/** Our product type -> Amazon's product type (its product type definition decides the attributes). */
export const AMAZON_PRODUCT_TYPES: Record<string, string> = {
  tshirt: 'SHIRT',
  hoodie: 'SWEATSHIRT',
  mug: 'DRINKING_CUP',
  poster: 'POSTER',
};

/** The brand Amazon expects on unbranded goods. */
export const AMAZON_GENERIC_BRAND = 'Generic';

/** Days between an order and its shipment a print-on-demand listing promises (Amazon's handling time). */
export const AMAZON_DEFAULT_HANDLING_DAYS = 5;

/** How often the server reads each connected Amazon store's orders (searchOrders allows one call in 3 minutes). */
export const AMAZON_ORDER_READ_MINUTES = 5;
