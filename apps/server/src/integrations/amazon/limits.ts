/** Amazon's published limits and lists, which the client keeps to and the fake enforces. */

/** Amazon's default rate (requests per second) and burst per operation (apis-next.md H.3, from the models). */
export const OPERATION_LIMITS: Record<string, { rate: number; burst: number }> = {
  getDefinitionsProductType: { rate: 5, burst: 10 },
  searchDefinitionsProductTypes: { rate: 5, burst: 10 },
  putListingsItem: { rate: 5, burst: 10 },
  getListingsItem: { rate: 5, burst: 10 },
  patchListingsItem: { rate: 5, burst: 5 },
  deleteListingsItem: { rate: 5, burst: 5 },
  searchListingsItems: { rate: 5, burst: 5 },
  searchOrders: { rate: 0.0056, burst: 20 },
  getOrder: { rate: 0.5, burst: 30 },
  confirmShipment: { rate: 2, burst: 10 },
};

/** Carrier codes Seller Central lists (a part of them); another carrier is sent as `Other` with its name. */
export const AMAZON_CARRIER_CODES = [
  'USPS',
  'UPS',
  'FedEx',
  'DHL',
  'DHL eCommerce',
  'Royal Mail',
  'Parcelforce',
  'Deutsche Post',
  'DPD',
  'Hermes',
  'GLS',
  'Evri',
  'Other',
];
