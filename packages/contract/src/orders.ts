import { z } from 'zod';
import { zPage } from './common';
import { ORDERS_PAGE_SIZE } from './constants';

/**
 * A store order's way to a parcel. 'external' is an order with none of our lines (never sent to the printer);
 * the others follow the printer: received -> waiting_approval (manual or delayed confirmation) -> sent (confirmed,
 * charged) -> in_production -> shipped -> delivered, with on_hold, failed and cancelled on the way.
 */
export const ORDER_STATUSES = [
  'received',
  'waiting_approval',
  'sent',
  'in_production',
  'on_hold',
  'shipped',
  'delivered',
  'failed',
  'cancelled',
  'external',
] as const;
export const ZOrderStatus = z.enum(ORDER_STATUSES);
export type TOrderStatus = z.infer<typeof ZOrderStatus>;

export const ORDER_STATUS_LABELS: Record<TOrderStatus, string> = {
  received: 'Received',
  waiting_approval: 'Waiting for approval',
  sent: 'Sent to printer',
  in_production: 'In production',
  on_hold: 'On hold',
  shipped: 'Shipped',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
  external: 'Not from Podforge',
};

/** Statuses after which nothing can be cancelled at the printer any more. */
export const SHIPPED_STATUSES: readonly TOrderStatus[] = ['shipped', 'delivered'];

/** An order can be approved while it waits, and cancelled until it goes into production. */
export const canApproveOrder = (status: TOrderStatus) => status === 'waiting_approval';
export const canCancelOrder = (status: TOrderStatus) =>
  status === 'received' ||
  status === 'waiting_approval' ||
  status === 'sent' ||
  status === 'failed' ||
  status === 'on_hold';
export const canRetryOrder = (status: TOrderStatus) => status === 'failed';

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
export const DEFAULT_ORDER_CONFIRMATION: TOrderConfirmation = { mode: 'delay', delayMinutes: 60 };

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
  /** revenue - cost; null until the cost is known, or when Printful charges in another currency than the store's. */
  profit: z.string().nullable(),
  fulfillmentProvider: z.enum(['sandbox', 'printful']).nullable(),
  printfulOrderId: z.string().nullable(),
  confirmAt: z.string().nullable(),
  failureReason: z.string().nullable(),
  carrier: z.string().nullable(),
  trackingNumber: z.string().nullable(),
  trackingUrl: z.string().nullable(),
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
export const DEFAULT_TEST_ADDRESS: TTestAddress = {
  name: 'Test Buyer',
  address1: '19749 Dearborn St',
  city: 'Chatsworth',
  provinceCode: 'CA',
  countryCode: 'US',
  zip: '91311',
};
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
