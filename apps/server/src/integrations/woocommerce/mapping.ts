import { z } from 'zod';
import { type IncomingOrder, shippingAddress } from '../../modules/stores/incoming-order';

/** Paid, per WooCommerce's order statuses [SRC woocommerce-rest-api-docs v3 orders: status options]. */
export const PAID = ['processing', 'completed'];
const CANCELLED = ['cancelled', 'refunded'];

const ZWooAddress = z
  .object({
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    address_1: z.string().nullish(),
    address_2: z.string().nullish(),
    city: z.string().nullish(),
    state: z.string().nullish(),
    postcode: z.string().nullish(),
    country: z.string().nullish(),
    phone: z.string().nullish(),
  })
  .nullish();

/** The REST v3 order resource, which is what a WooCommerce webhook delivers for the order topics. */
const ZWooOrder = z.object({
  id: z.number().int(),
  number: z.union([z.string(), z.number()]).optional(),
  status: z.string().default('pending'),
  currency: z.string().default('USD'),
  total: z.union([z.string(), z.number()]),
  customer_id: z.number().int().nullish(),
  date_created_gmt: z.string().nullish(),
  shipping: ZWooAddress,
  billing: ZWooAddress,
  line_items: z
    .array(
      z.object({
        id: z.number().int(),
        name: z.string().default(''),
        variation_id: z.number().int().nullish(),
        sku: z.string().nullish(),
        quantity: z.number().int(),
        price: z.union([z.string(), z.number()]),
      }),
    )
    .default([]),
});

export function fromWooOrder(payload: unknown, now: Date): (IncomingOrder & { status: string }) | null {
  const parsed = ZWooOrder.safeParse(payload);
  if (!parsed.success) return null;
  const o = parsed.data;
  // The shipping address, else (an order with nothing to ship to elsewhere) the billing one.
  const a = o.shipping?.address_1 ? o.shipping : o.billing;
  const name = [a?.first_name, a?.last_name].filter(Boolean).join(' ');
  return {
    status: o.status,
    remoteOrderId: String(o.id),
    name: `#${o.number ?? o.id}`,
    currency: o.currency,
    total: Number(o.total).toFixed(2),
    // date_created_gmt has no zone designator: it is UTC.
    orderedAt: o.date_created_gmt ? new Date(`${o.date_created_gmt.replace(/Z$/, '')}Z`) : now,
    cancelled: CANCELLED.includes(o.status),
    customerId: o.customer_id ? String(o.customer_id) : null,
    address: shippingAddress(
      a && {
        name,
        address1: a.address_1,
        address2: a.address_2,
        city: a.city,
        provinceCode: a.state,
        countryCode: a.country,
        zip: a.postcode,
        phone: a.phone,
      },
    ),
    lines: o.line_items.map((l) => ({
      remoteLineId: String(l.id),
      remoteVariantId: l.variation_id ? String(l.variation_id) : null,
      sku: l.sku || null,
      title: l.name,
      quantity: l.quantity,
      price: Number(l.price).toFixed(2),
    })),
  };
}
