import { z } from 'zod';
import { zPage } from './common';
import { ORDER_STATUSES, ORDERS_PAGE_SIZE } from './plain/orders';
import { PRINTER_PROVIDERS } from './plain/printers';

export const ZOrderStatus = z.enum(ORDER_STATUSES);

/** How orders are confirmed with the printer (workspace setting); delay waits `delayMinutes` first. */
export const ZOrderConfirmation = z.object({
  mode: z.enum(['automatic', 'manual', 'delay']),
  delayMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
});
export type TOrderConfirmation = z.infer<typeof ZOrderConfirmation>;

export const ZOrderLine = z.object({
  id: z.string(),
  title: z.string(),
  sku: z.string().nullable(),
  quantity: z.number(),
  price: z.string(),
  /** Ours: the product and variant it was matched to; null when the line is 'not from Podforge'. */
  productId: z.string().nullable(),
  variantOption: z.string().nullable(),
  fromPodforge: z.boolean(),
  mockupUrl: z.string().nullable(),
});
export type TOrderLine = z.infer<typeof ZOrderLine>;

/** One parcel of the order as the printer shipped it, and whether its tracking reached the store. */
export const ZOrderShipment = z.object({
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /** The order's lines in this parcel; null when the printer does not say (the parcel took every line still open). */
  lines: z.array(z.object({ title: z.string(), quantity: z.number() })).nullable(),
  /** The store was given this parcel's tracking (a fulfilment was made for it). */
  sentToStore: z.boolean(),
  /** The printer says this parcel has arrived (the order is delivered only when every parcel has). */
  delivered: z.boolean(),
});
export type TOrderShipment = z.infer<typeof ZOrderShipment>;

export const ZOrder = z.object({
  id: z.string(),
  integrationId: z.string(),
  storeName: z.string(),
  externalId: z.string(),
  name: z.string(),
  status: ZOrderStatus,
  currency: z.string(),
  revenue: z.string(),
  /** Printful's charge; null until known. */
  cost: z.string().nullable(),
  /** The currency Printful charges in (its billing currency); null until the cost is known. */
  costCurrency: z.string().nullable(),
  /** The store's fee on this sale, by the workspace's fee setting for the store's platform (`saleEconomics`). */
  storeFee: z.string(),
  /**
   * revenue - cost - storeFee (`saleEconomics`, the price editor's formula); null until the cost is known, or when
   * the printer charges in another currency than the store's.
   */
  profit: z.string().nullable(),
  /** The printer adapter (`PRINTER_PROVIDERS`): printful, printify, gelato, or one of their built-in sandboxes. */
  fulfillmentProvider: z.enum(PRINTER_PROVIDERS).nullable(),
  /** Why this printer took the order (the routing rule and what it compared); null when no rule chose. */
  printerReason: z.string().nullable(),
  printerOrderId: z.string().nullable(),
  confirmAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
  /**
   * Each parcel, in the printer's order (an order shipped in parts has several); an order shipped before parcels were
   * kept shows its one tracking as one parcel. Empty until shipped.
   */
  shipments: z.array(ZOrderShipment),
  /** The shipping address was erased at the store's request (customers/redact, shop/redact). */
  addressErased: z.boolean(),
  orderedAt: z.string(),
  lines: z.array(ZOrderLine),
});
export type TOrder = z.infer<typeof ZOrder>;

/** `GET /api/orders`: a status filter and a page, newest first. */
export const ZOrderListQuery = z.object({
  status: ZOrderStatus.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ORDERS_PAGE_SIZE),
});
export type TOrderListQuery = z.input<typeof ZOrderListQuery>;

export const ZOrderPage = zPage(ZOrder);
export type TOrderPage = z.infer<typeof ZOrderPage>;
export const ZOrderIdParams = z.object({ id: z.string().max(100) });

/** `POST /api/shopify/sandbox/orders`: a paid test order in a sandbox shop. */
export const ZTestAddress = z.object({
  name: z.string().min(1).max(100),
  address1: z.string().min(1).max(200),
  address2: z.string().max(200).optional(),
  city: z.string().min(1).max(100),
  provinceCode: z.string().max(10).optional(),
  countryCode: z.string().length(2),
  zip: z.string().min(1).max(20),
  phone: z.string().max(30).optional(),
});
export type TTestAddress = z.infer<typeof ZTestAddress>;
export const ZSandboxOrderInput = z.object({
  integrationId: z.string().max(100),
  lines: z
    .array(z.object({ sku: z.string().min(1).max(100), quantity: z.number().int().min(1).max(100) }))
    .min(1)
    .max(20),
  address: ZTestAddress.optional(),
});
export type TSandboxOrderInput = z.infer<typeof ZSandboxOrderInput>;

/** `GET /api/printful/sandbox/orders`: what the built-in Printful sandbox received for this workspace. */
export const ZPrintfulSandboxOrder = z.object({
  id: z.number(),
  externalId: z.string(),
  status: z.string(),
  items: z.array(
    z.object({
      catalogVariantId: z.number(),
      quantity: z.number(),
      retailPrice: z.string().nullable(),
      files: z.array(z.object({ placement: z.string(), url: z.string() })),
    }),
  ),
  costs: z.object({ currency: z.string(), total: z.string() }).nullable(),
});
export type TPrintfulSandboxOrder = z.infer<typeof ZPrintfulSandboxOrder>;
