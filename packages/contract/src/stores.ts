import { z } from 'zod';
import { AMAZON_MARKETPLACE_IDS } from './plain/amazon';

/**
 * Etsy and WooCommerce stores (issue #13): connecting them, the Etsy shop's listing settings chosen once at connect,
 * and what the built-in sandboxes hold. Shopify's calls are in integrations.ts.
 */

/** A WooCommerce store's address: https only (its REST API takes Basic auth over TLS only). */
export const ZWooStoreUrl = z
  .url({ message: 'must be the store address, e.g. https://shop.example.com' })
  .refine((v) => v.startsWith('https://'), 'must start with https:// (WooCommerce keys travel only over HTTPS)')
  .transform((v) => v.replace(/\/+$/, ''));

/** `POST /api/woocommerce/connect`: a real store's address and REST keys, or the built-in sandbox store. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const ZWooConnectBody = z.union([
  z.object({ sandbox: z.literal(true) }),
  z
    .object({
      storeUrl: ZWooStoreUrl,
      consumerKey: z
        .string()
        .trim()
        .regex(/^ck_[A-Za-z0-9]{8,64}$/, 'must be a WooCommerce consumer key (ck_…)'),
      consumerSecret: z
        .string()
        .trim()
        .regex(/^cs_[A-Za-z0-9]{8,64}$/, 'must be a WooCommerce consumer secret (cs_…)'),
      /**
       * Optional: a WordPress user (who may upload files) and one of its application passwords, so pictures are
       * uploaded to the store's media library; WooCommerce's keys do not open WordPress's `/wp/v2/media`.
       */
      wpUsername: z.preprocess(blankToUndefined, z.string().trim().min(1).max(60).optional()),
      wpAppPassword: z.preprocess(
        blankToUndefined,
        z
          .string()
          .transform((v) => v.replace(/\s+/g, ''))
          .pipe(
            z
              .string()
              .regex(
                /^[A-Za-z0-9]{24}$/,
                'must be a WordPress application password (24 letters and digits, as Users > Profile shows it)',
              ),
          )
          .optional(),
      ),
    })
    .superRefine((body, ctx) => {
      if (body.wpUsername && !body.wpAppPassword)
        ctx.addIssue({ code: 'custom', path: ['wpAppPassword'], message: 'is needed with the WordPress username' });
      if (body.wpAppPassword && !body.wpUsername)
        ctx.addIssue({ code: 'custom', path: ['wpUsername'], message: 'is needed with the application password' });
    }),
]);
export type TWooConnectBody = z.infer<typeof ZWooConnectBody>;

export const ZConnectResult = z.object({ success: z.literal(true), integrationId: z.string(), sandbox: z.boolean() });
export type TConnectResult = z.infer<typeof ZConnectResult>;

/** `GET /api/etsy/:id/setup`: the shop's profiles to choose from, and what is chosen. */
const ZChoice = z.object({ id: z.string(), name: z.string() });
export const ZEtsySetup = z.object({
  integrationId: z.string(),
  shopName: z.string(),
  shippingProfiles: z.array(ZChoice),
  processingProfiles: z.array(ZChoice),
  productionPartners: z.array(ZChoice),
  chosen: z.object({
    shippingProfileId: z.string().nullable(),
    readinessStateId: z.string().nullable(),
    productionPartnerId: z.string().nullable(),
  }),
});
export type TEtsySetup = z.infer<typeof ZEtsySetup>;

/** `POST /api/etsy/:id/setup`: the shipping and processing profiles (and production partner) every listing uses. */
export const ZEtsySetupBody = z.object({
  shippingProfileId: z.string().regex(/^\d{1,20}$/, 'must be one of the shop’s shipping profiles'),
  readinessStateId: z.string().regex(/^\d{1,20}$/, 'must be one of the shop’s processing profiles'),
  productionPartnerId: z
    .string()
    .regex(/^\d{1,20}$/, 'must be one of the shop’s production partners')
    .nullable()
    .default(null),
});
export type TEtsySetupBody = z.input<typeof ZEtsySetupBody>;

/** `GET /api/etsy/sandbox/listings`: what the workspace's sandbox shops hold, as Etsy answers it. */
export const ZEtsySandboxListing = z.object({
  listing_id: z.number(),
  title: z.string(),
  state: z.string(),
  tags: z.array(z.string()),
  price: z.string(),
  url: z.string(),
  images: z.array(z.object({ listing_image_id: z.number(), rank: z.number(), url_fullxfull: z.string() })),
  inventory: z.object({
    products: z.array(
      z.object({
        sku: z.string(),
        property_values: z.array(
          z.object({ property_id: z.number(), property_name: z.string(), values: z.array(z.string()) }),
        ),
        offerings: z.array(z.object({ price: z.string(), quantity: z.number(), is_enabled: z.boolean() })),
      }),
    ),
  }),
  /** Which picture shows which colour: value name -> listing_image_id. */
  variation_images: z.array(z.object({ value: z.string(), image_id: z.number() })),
});
export type TEtsySandboxListing = z.infer<typeof ZEtsySandboxListing>;
export const ZEtsySandboxListings = z.object({
  sandbox: z.boolean(),
  shops: z.array(
    z.object({
      integrationId: z.string(),
      shopId: z.string(),
      name: z.string(),
      listings: z.array(ZEtsySandboxListing),
    }),
  ),
});
export type TEtsySandboxListings = z.infer<typeof ZEtsySandboxListings>;

/** `GET /api/woocommerce/sandbox/products`: what the workspace's sandbox stores hold, as WooCommerce answers it. */
export const ZWooSandboxProduct = z.object({
  id: z.number(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
  permalink: z.string(),
  tags: z.array(z.string()),
  attributes: z.array(z.object({ name: z.string(), options: z.array(z.string()) })),
  images: z.array(z.object({ id: z.number(), src: z.string() })),
  variations: z.array(
    z.object({
      id: z.number(),
      sku: z.string(),
      regular_price: z.string(),
      attributes: z.array(z.object({ name: z.string(), option: z.string() })),
      image: z.object({ id: z.number(), src: z.string() }).nullable(),
    }),
  ),
});
export type TWooSandboxProduct = z.infer<typeof ZWooSandboxProduct>;
export const ZWooSandboxProducts = z.object({
  sandbox: z.boolean(),
  stores: z.array(
    z.object({ integrationId: z.string(), url: z.string(), name: z.string(), products: z.array(ZWooSandboxProduct) }),
  ),
});
export type TWooSandboxProducts = z.infer<typeof ZWooSandboxProducts>;

/** Amazon (issue #30): a seller's marketplace and listing settings, and what is missing for listing, in plain words. */
export const ZAmazonSettings = z.object({
  integrationId: z.string(),
  sellerId: z.string(),
  marketplaceId: z.string(),
  brand: z.string().nullable(),
  gtinExempt: z.boolean(),
  handlingDays: z.number().int(),
  missing: z.array(z.string()),
  /**
   * Amazon's notifications of the seller (ORDER_CHANGE, LISTINGS_ITEM_ISSUES_CHANGE) to the app's queue: subscribed,
   * not configured on this server (orders and listings are polled; they are polled anyway), or failed with why.
   */
  notifications: z
    .object({ state: z.enum(['subscribed', 'polling', 'failed']), problem: z.string().nullable() })
    .optional(),
});
export type TAmazonSettings = z.infer<typeof ZAmazonSettings>;

/** `POST /api/amazon/:id/settings`: any of them. */
export const ZAmazonSettingsBody = z
  .object({
    marketplaceId: z
      .enum(AMAZON_MARKETPLACE_IDS, { message: 'must be Amazon.com, Amazon.co.uk or Amazon.de' })
      .optional(),
    brand: z
      .string()
      .trim()
      .min(1, 'must name the brand (or Generic)')
      .max(100, 'must be at most 100 characters')
      .optional(),
    gtinExempt: z.boolean().optional(),
    handlingDays: z.number().int().min(1, 'must be at least 1 day').max(30, 'must be at most 30 days').optional(),
  })
  .strict();
export type TAmazonSettingsBody = z.infer<typeof ZAmazonSettingsBody>;

/** `GET /auth/amazon/start?marketplace=`: the marketplace the seller sells in. */
export const ZAmazonStartQuery = z.object({
  marketplace: z.enum(AMAZON_MARKETPLACE_IDS, { message: 'must be Amazon.com, Amazon.co.uk or Amazon.de' }).optional(),
});

export const ZAmazonSandboxListing = z.object({
  sku: z.string(),
  parentage: z.enum(['parent', 'child']).nullable(),
  parentSku: z.string().nullable(),
  productType: z.string(),
  marketplaceId: z.string(),
  asin: z.string().nullable(),
  attributes: z.record(z.string(), z.array(z.unknown())),
  status: z.array(z.string()),
  issues: z.array(z.object({ code: z.string(), message: z.string(), severity: z.string() })),
  /** Accepted and not yet processed by Amazon. */
  processing: z.boolean(),
  updatedAt: z.string(),
});
export type TAmazonSandboxListing = z.infer<typeof ZAmazonSandboxListing>;
export const ZAmazonSandboxListings = z.object({
  sandbox: z.boolean(),
  sellers: z.array(
    z.object({
      integrationId: z.string(),
      sellerId: z.string(),
      name: z.string(),
      listings: z.array(ZAmazonSandboxListing),
    }),
  ),
});
export type TAmazonSandboxListings = z.infer<typeof ZAmazonSandboxListings>;

export const ZAmazonSandboxOrder = z.object({
  integrationId: z.string(),
  orderId: z.string(),
  marketplaceId: z.string(),
  status: z.string(),
  createdTime: z.string(),
  currency: z.string(),
  lines: z.array(z.object({ sku: z.string(), quantity: z.number(), price: z.string() })),
  shipmentConfirmed: z.boolean(),
  carrier: z.string().nullable(),
  tracking: z.string().nullable(),
});
export type TAmazonSandboxOrder = z.infer<typeof ZAmazonSandboxOrder>;
export const ZAmazonSandboxOrders = z.object({ sandbox: z.boolean(), orders: z.array(ZAmazonSandboxOrder) });
export type TAmazonSandboxOrders = z.infer<typeof ZAmazonSandboxOrders>;

/**
 * `GET /api/amazon/products/:productId/listings`: what Amazon made of the product's listings since it accepted them
 * (ACCEPTED is not listed): still processing, live (a variant buyable), or suppressed with Amazon's issues.
 */
export const ZAmazonProductListing = z.object({
  integrationId: z.string(),
  storeName: z.string(),
  remoteProductId: z.string(),
  state: z.enum(['processing', 'live', 'not_buyable', 'gone']),
  issues: z.array(z.string()),
});
export type TAmazonProductListing = z.infer<typeof ZAmazonProductListing>;
export const ZAmazonProductListings = z.object({ listings: z.array(ZAmazonProductListing) });
export type TAmazonProductListings = z.infer<typeof ZAmazonProductListings>;
