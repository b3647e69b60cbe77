import { z } from 'zod';

/** `POST /api/gelato/connect`: Gelato's account API key (X-API-KEY), or the built-in sandbox; a contact email. */
export const ZGelatoConnect = z.discriminatedUnion('mode', [
  z.object({
    mode: z.literal('live'),
    apiKey: z.string().trim().min(8, 'apiKey looks too short for a Gelato API key').max(200),
    /** Gelato requires an email on every shipping address: the seller's, for carrier notices. */
    email: z.email('email must be an email address').max(255),
  }),
  z.object({ mode: z.literal('sandbox'), email: z.email('email must be an email address').max(255) }),
]);
export type TGelatoConnect = z.infer<typeof ZGelatoConnect>;

export const ZGelatoStatus = z.object({
  connected: z.boolean(),
  /** The built-in Gelato sandbox (orders go nowhere real), not a Gelato account. */
  sandbox: z.boolean(),
  email: z.string().nullable(),
  /**
   * Gelato sends order updates only to a URL set in its dashboard (Developer > Webhooks): this one, once orders
   * have gone to Gelato; null before that, and for the sandbox (set by itself).
   */
  webhookUrl: z.string().nullable(),
});
export type TGelatoStatus = z.infer<typeof ZGelatoStatus>;

/** `GET /api/gelato/sandbox/orders`: what the built-in Gelato sandbox received for this workspace. */
export const ZGelatoSandboxOrder = z.object({
  id: z.string(),
  externalId: z.string(),
  status: z.string(),
  orderType: z.string(),
  connectedOrderIds: z.array(z.string()),
  items: z.array(z.object({ productUid: z.string(), quantity: z.number(), files: z.array(z.string()) })),
  cost: z.object({ total: z.string(), currency: z.string() }).nullable(),
  shipments: z.array(
    z.object({ id: z.string(), carrier: z.string().nullable(), trackingNumber: z.string(), trackingUrl: z.string() }),
  ),
});
export type TGelatoSandboxOrder = z.infer<typeof ZGelatoSandboxOrder>;
