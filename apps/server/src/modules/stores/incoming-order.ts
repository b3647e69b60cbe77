/**
 * A store's order in one shape, whichever platform it came from (a webhook or a read): what the StorePlatform port's
 * `readOrders` answers and the order intake (modules/orders/order-intake.ts) stores once.
 */

export type ShippingAddress = {
  name: string;
  address1: string;
  address2?: string | undefined;
  city: string;
  provinceCode?: string | undefined;
  countryCode: string;
  zip: string;
  phone?: string | undefined;
};

export type IncomingOrder = {
  remoteOrderId: string;
  name: string;
  currency: string;
  total: string;
  orderedAt: Date;
  /** When the store last changed it, where the store says (a periodic read moves its cursor by it). */
  changedAt?: Date | undefined;
  cancelled: boolean;
  customerId: string | null;
  address: ShippingAddress | null;
  lines: {
    remoteLineId: string;
    remoteVariantId: string | null;
    /** The store's product (listing) the line buys, where the store names it. */
    remoteProductId?: string | undefined;
    sku: string | null;
    title: string;
    quantity: number;
    price: string;
  }[];
};
