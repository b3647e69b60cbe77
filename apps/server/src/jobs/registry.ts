import { gelatoSandboxTickJob } from '../modules/gelato/gelato-sandbox.jobs';
import { etsyReceiptsJob } from '../modules/orders/etsy-orders';
import { ORDER_JOBS } from '../modules/orders/order-jobs';
import { printfulSandboxTickJob } from '../modules/printful/printful-sandbox.jobs';
import { storePushJob } from '../modules/products/store-push';
import { scheduledUploadJob } from '../modules/schedules/schedules.jobs';
import { shopifyWebhookJob } from '../modules/shopify/shopify-webhooks';

/** Every job of the server; a listening instance starts their workers in this order (app.ts). */
export const JOBS = [
  storePushJob,
  shopifyWebhookJob,
  scheduledUploadJob,
  ...ORDER_JOBS,
  printfulSandboxTickJob,
  gelatoSandboxTickJob,
  etsyReceiptsJob,
] as const;
