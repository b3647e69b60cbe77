import { z } from 'zod';
import { ZOrderConfirmation } from './orders';

/** A store's fee on one sale: a percentage of the price plus a fixed amount. */
export const ZStoreFee = z.object({
  percent: z.number().min(0).max(50),
  fixed: z.number().min(0).max(10),
});
export type TStoreFee = z.infer<typeof ZStoreFee>;

/** `GET/PATCH /api/settings`: the workspace's pricing settings. */
export const ZWorkspaceSettings = z.object({
  targetMargin: z.number().min(0).max(90),
  storeFees: z.object({
    shopify: ZStoreFee,
    etsy: ZStoreFee,
    woocommerce: ZStoreFee,
    amazon: ZStoreFee,
  }),
  /** How store orders are confirmed with the printer (see orders.ts). */
  orderConfirmation: ZOrderConfirmation,
});
export type TWorkspaceSettings = z.infer<typeof ZWorkspaceSettings>;
export const ZUpdateWorkspaceSettings = z.object({
  targetMargin: ZWorkspaceSettings.shape.targetMargin.optional(),
  storeFees: ZWorkspaceSettings.shape.storeFees.partial().optional(),
  orderConfirmation: ZOrderConfirmation.optional(),
});
export type TUpdateWorkspaceSettings = z.infer<typeof ZUpdateWorkspaceSettings>;
