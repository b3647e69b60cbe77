import { z } from 'zod';
import { type IncomingOrder, shippingAddress } from '../../modules/stores/incoming-order';
import type { GqlOrder } from './orders-client';

/** Shopify's order payloads (REST webhook, GraphQL read) as the StorePlatform port's `IncomingOrder`. */

/** Financial statuses of an order the seller was paid for (Sync stores these, and cancelled ones). */
const PAID_STATUSES = ['PAID', 'PARTIALLY_REFUNDED', 'PARTIALLY_PAID'];

/** A read order Podforge acts on: paid, or cancelled. */
export const isPaidOrCancelled = (o: GqlOrder) =>
  PAID_STATUSES.includes(o.displayFinancialStatus ?? '') || Boolean(o.cancelledAt);

const numericId = (id: string | number) => String(id).split('/').pop() ?? String(id);

const ZRestOrder = z.object({
  id: z.union([z.number(), z.string()]),
  name: z.string().default(''),
  created_at: z.string().optional(),
  cancelled_at: z.string().nullable().optional(),
  currency: z.string().default('USD'),
  total_price: z.union([z.string(), z.number()]),
  customer: z
    .object({ id: z.union([z.number(), z.string()]) })
    .nullable()
    .optional(),
  shipping_address: z
    .object({
      name: z.string().nullable().optional(),
      address1: z.string().nullable().optional(),
      address2: z.string().nullable().optional(),
      city: z.string().nullable().optional(),
      province_code: z.string().nullable().optional(),
      country_code: z.string().nullable().optional(),
      zip: z.string().nullable().optional(),
      phone: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  line_items: z
    .array(
      z.object({
        id: z.union([z.number(), z.string()]),
        variant_id: z.union([z.number(), z.string()]).nullable().optional(),
        sku: z.string().nullable().optional(),
        title: z.string().default(''),
        quantity: z.number().int(),
        price: z.union([z.string(), z.number()]),
      }),
    )
    .default([]),
});

/** The `orders/paid` (or `orders/cancelled`) payload; null when it is not an order. */
export function fromWebhookPayload(payload: unknown): IncomingOrder | null {
  const parsed = ZRestOrder.safeParse(payload);
  if (!parsed.success) return null;
  const o = parsed.data;
  const a = o.shipping_address;
  return {
    remoteOrderId: numericId(o.id),
    name: o.name || `#${numericId(o.id)}`,
    currency: o.currency,
    total: Number(o.total_price).toFixed(2),
    orderedAt: o.created_at ? new Date(o.created_at) : new Date(),
    cancelled: Boolean(o.cancelled_at),
    customerId: o.customer ? numericId(o.customer.id) : null,
    address: a ? shippingAddress({ ...a, provinceCode: a.province_code, countryCode: a.country_code }) : null,
    lines: o.line_items.map((l) => ({
      remoteLineId: numericId(l.id),
      remoteVariantId: l.variant_id ? numericId(l.variant_id) : null,
      sku: l.sku || null,
      title: l.title,
      quantity: l.quantity,
      price: Number(l.price).toFixed(2),
    })),
  };
}

export function fromGqlOrder(o: GqlOrder): IncomingOrder {
  const a = o.shippingAddress;
  return {
    remoteOrderId: o.legacyResourceId ?? numericId(o.id),
    name: o.name,
    currency: o.totalPriceSet.shopMoney.currencyCode ?? o.currencyCode,
    total: Number(o.totalPriceSet.shopMoney.amount).toFixed(2),
    orderedAt: new Date(o.createdAt),
    cancelled: Boolean(o.cancelledAt),
    customerId: o.customer ? numericId(o.customer.id) : null,
    address: a ? shippingAddress({ ...a, countryCode: a.countryCodeV2 }) : null,
    lines: o.lineItems.nodes.map((l) => ({
      remoteLineId: numericId(l.id),
      remoteVariantId: l.variant ? numericId(l.variant.id) : null,
      sku: l.sku || null,
      title: l.title,
      quantity: l.quantity,
      price: Number(l.originalUnitPriceSet.shopMoney.amount).toFixed(2),
    })),
  };
}
