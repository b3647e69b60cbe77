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
  createDestination: { rate: 1, burst: 5 },
  getDestinations: { rate: 1, burst: 5 },
  createSubscription: { rate: 1, burst: 5 },
  getSubscription: { rate: 1, burst: 5 },
  deleteSubscriptionById: { rate: 1, burst: 5 },
};

/**
 * The notifications Podforge subscribes a seller to, with the payload version each is read in (LISTINGS_ITEM_ISSUES_CHANGE
 * 1.0 was retired in September 2024 for 2023-12-13).
 */
export const NOTIFICATION_PAYLOAD_VERSIONS = {
  ORDER_CHANGE: '1.0',
  LISTINGS_ITEM_ISSUES_CHANGE: '2023-12-13',
} as const;
export type AmazonNotificationType = keyof typeof NOTIFICATION_PAYLOAD_VERSIONS;

/** The LWA scope of the grantless Notifications operations (destinations). */
export const NOTIFICATIONS_SCOPE = 'sellingpartnerapi::notifications';

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
