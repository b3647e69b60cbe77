import { amazonListingsJob } from '../modules/amazon/amazon-listings';
import { amazonNotificationJob, amazonSqsJob, amazonSubscribeJob } from '../modules/amazon/amazon-notifications';
import { amazonOrdersJob } from '../modules/amazon/amazon-orders';
import { bulkCreateJob } from '../modules/bulk/bulk.service';
import { etsyReceiptsJob } from '../modules/etsy/etsy-receipts';
import { gelatoSandboxTickJob } from '../modules/gelato/gelato-sandbox.jobs';
import { ORDER_JOBS } from '../modules/orders/order-jobs';
import { printerPollJob } from '../modules/orders/printer-poll';
import { printfulSandboxTickJob } from '../modules/printful/printful-sandbox.jobs';
import { printifySandboxTickJob } from '../modules/printify/printify-sandbox.jobs';
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
  printifySandboxTickJob,
  gelatoSandboxTickJob,
  etsyReceiptsJob,
  printerPollJob,
  amazonOrdersJob,
  amazonListingsJob,
  amazonNotificationJob,
  amazonSqsJob,
  amazonSubscribeJob,
  bulkCreateJob,
] as const;
