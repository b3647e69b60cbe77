/** Where an order ships, as stored (encrypted) by order intake and read when the printer's order is drafted. */
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
