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

/** An address as a platform gives it, its fields named as ours; absent ones null, undefined or ''. */
export type AddressFields = {
  name?: string | null | undefined;
  address1?: string | null | undefined;
  address2?: string | null | undefined;
  city?: string | null | undefined;
  provinceCode?: string | null | undefined;
  countryCode?: string | null | undefined;
  zip?: string | null | undefined;
  phone?: string | null | undefined;
};

const optional = (v: string | null | undefined) => v || undefined;

/**
 * The one mapping of a platform's address to ours, for every store adapter: null without a first line, a city and a
 * country (nothing a printer can ship to); empty optional fields left out; a missing name or postcode is ''.
 */
export function shippingAddress(a: AddressFields | null | undefined): ShippingAddress | null {
  if (!a?.address1 || !a.city || !a.countryCode) return null;
  return {
    name: a.name ?? '',
    address1: a.address1,
    address2: optional(a.address2),
    city: a.city,
    provinceCode: optional(a.provinceCode),
    countryCode: a.countryCode,
    zip: a.zip ?? '',
    phone: optional(a.phone),
  };
}

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
