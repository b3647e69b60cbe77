import type { TOrderConfirmation, TTestAddress } from '../orders';

/** The Orders tab's page size, the default of `GET /api/orders`' `pageSize`. */
export const ORDERS_PAGE_SIZE = 20;

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
export type TOrderStatus = (typeof ORDER_STATUSES)[number];

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

export const DEFAULT_ORDER_CONFIRMATION: TOrderConfirmation = { mode: 'delay', delayMinutes: 60 };

export const DEFAULT_TEST_ADDRESS: TTestAddress = {
  name: 'Test Buyer',
  address1: '19749 Dearborn St',
  city: 'Chatsworth',
  provinceCode: 'CA',
  countryCode: 'US',
  zip: '91311',
};
