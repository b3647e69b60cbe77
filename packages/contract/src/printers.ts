import { z } from 'zod';
import { FULFILMENT_NETWORKS, PRINTIFY_BILLING_CURRENCIES } from './plain/printers';

export const ZFulfilmentNetwork = z.enum(FULFILMENT_NETWORKS);

/** `GET /api/fulfillment/providers`: every printer network with its connection and sandbox state. */
export const ZFulfilmentProviderState = z.object({
  id: ZFulfilmentNetwork,
  name: z.string(),
  /** This server has an adapter for it (false: not built yet; it cannot be connected). */
  available: z.boolean(),
  /** The workspace's own account is connected (orders go there). */
  connected: z.boolean(),
  /** Orders go to the built-in sandbox of this printer (nothing is printed or charged). */
  sandbox: z.boolean(),
  /** What the workspace is connected as (a shop or store name), when connected. */
  accountName: z.string().nullable(),
});
export type TFulfilmentProviderState = z.infer<typeof ZFulfilmentProviderState>;
export const ZFulfilmentProviders = z.object({ providers: z.array(ZFulfilmentProviderState) });
export type TFulfilmentProviders = z.infer<typeof ZFulfilmentProviders>;

/** `GET /api/printify/status`. */
export const ZPrintifyStatus = z.object({
  /** The server has a Printify app (PRINTIFY_APP_ID): 'Connect with Printify' is offered beside the token. */
  oauthConfigured: z.boolean(),
  connected: z.boolean(),
  sandbox: z.boolean(),
  shopName: z.string().nullable(),
  currency: z.string().nullable(),
  /** The token is kept while the seller chooses one of the account's shops. */
  shops: z.array(z.object({ id: z.string(), title: z.string() })).optional(),
});
export type TPrintifyStatus = z.infer<typeof ZPrintifyStatus>;

/** `POST /api/printify/connect`: a personal access token (Printify: My Profile -> Connections). */
export const ZPrintifyConnect = z.object({
  token: z.string().trim().min(20, 'token: paste the whole personal access token').max(3000),
  currency: z.enum(PRINTIFY_BILLING_CURRENCIES).default('USD'),
  shopId: z.string().trim().max(40).optional(),
});
export type TPrintifyConnect = z.input<typeof ZPrintifyConnect>;

/** `GET /api/printify/oauth/start?currency=`: the app flow, with the currency the account bills in. */
export const ZPrintifyOAuthStart = z.object({ currency: z.enum(PRINTIFY_BILLING_CURRENCIES).default('USD') });
/** Printify's redirect back: `code` (accepted) or `error` (declined), with our state. */
export const ZPrintifyCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
});

/** `POST /api/printify/shop`: the shop orders go to, when the account has several. */
export const ZPrintifyChooseShop = z.object({ shopId: z.string().trim().min(1).max(40) });

/** `GET /api/printify/sandbox/orders`: what the built-in Printify sandbox received for this workspace. */
export const ZPrintifySandboxOrder = z.object({
  id: z.string(),
  externalId: z.string(),
  /** Printify's own status word (on-hold, sending-to-production, in-production, fulfilled...). */
  status: z.string(),
  podforgeStatus: z.string(),
  shipments: z.array(
    z.object({
      carrier: z.string(),
      trackingNumber: z.string(),
      trackingUrl: z.string(),
      deliveredAt: z.string().nullable(),
    }),
  ),
  lines: z.array(
    z.object({
      blueprintId: z.number().nullable(),
      printProviderId: z.number(),
      variantId: z.number(),
      quantity: z.number(),
    }),
  ),
});
export type TPrintifySandboxOrder = z.infer<typeof ZPrintifySandboxOrder>;
export const ZPrintifySandboxOrders = z.object({ orders: z.array(ZPrintifySandboxOrder) });

/** `GET /api/providers/:provider/products?search=` and `/:id`: any printer's catalogue in one shape. */
export const ZProviderParams = z.object({ provider: ZFulfilmentNetwork });
export const ZProviderProductParams = ZProviderParams.extend({
  id: z.string().trim().regex(/^\d+$/, 'id must be a number'),
});
export const ZProviderProductsQuery = z.object({ search: z.string().trim().max(100).optional() });
export const ZProviderVariant = z.object({
  id: z.string(),
  color: z.string(),
  colorHex: z.string().nullable(),
  size: z.string(),
  /** The blank's cost, a decimal string in `currency`. */
  baseCost: z.string(),
});
export const ZProviderPlacement = z.object({
  placement: z.string(),
  widthPx: z.number().int(),
  heightPx: z.number().int(),
  dpi: z.number().int(),
});
export const ZProviderProductSummary = z.object({
  id: z.string(),
  provider: ZFulfilmentNetwork,
  name: z.string(),
  description: z.string(),
});
export const ZProviderProduct = ZProviderProductSummary.extend({
  type: z.string(),
  brand: z.string(),
  model: z.string(),
  currency: z.string(),
  variants: z.array(ZProviderVariant),
  placements: z.array(ZProviderPlacement),
});
export type TProviderProduct = z.infer<typeof ZProviderProduct>;
export const ZProviderProducts = z.object({
  provider: ZFulfilmentNetwork,
  /** Where the catalogue came from (the connected account, the sandbox, the bundled snapshot). */
  source: z.string(),
  products: z.array(ZProviderProductSummary),
});
export type TProviderProducts = z.infer<typeof ZProviderProducts>;
