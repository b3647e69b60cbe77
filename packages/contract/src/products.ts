import { z } from 'zod';
import { ZProductStatus, zPage } from './common';
import { DEFAULT_FULFILMENT_NETWORK } from './plain/printers';
import {
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_PRICE_MAX,
  PRODUCT_TAG_MAX_LENGTH,
  PRODUCT_TAGS_MAX,
  PRODUCT_TITLE_MAX,
  PRODUCT_TYPES,
  PRODUCT_VARIANTS_MAX,
  PRODUCTS_PAGE_SIZE,
} from './plain/products';
import { ZFulfilmentNetwork } from './printers';

export const ZProductType = z.enum(PRODUCT_TYPES);

const zPrice = z.number().min(0, 'must not be negative').max(PRODUCT_PRICE_MAX);

/** Spec section 3, 'Variant': option name, price and an optional SKU. */
export const ZVariant = z.object({
  option: z.string().trim().min(1, 'needs a name').max(100),
  price: zPrice,
  sku: z.string().trim().max(100).optional(),
});
export type TVariant = z.infer<typeof ZVariant>;

/** A variant as the API answers it: a catalogue colour x size (or a free-text option of an older product). */
export const ZProductVariant = z.object({
  id: z.string(),
  /** The catalogue variant that is printed; null for a free-text variant that maps to no catalogue variant. */
  catalogVariantId: z.number().int().nullable(),
  /** 'Black / M', or the free-text name. */
  option: z.string(),
  color: z.string().nullable(),
  colorHex: z.string().nullable(),
  size: z.string().nullable(),
  /** What the fulfilment provider charges for this variant (blank and first placement); null when unknown. */
  baseCost: z.number().nullable(),
  price: z.number(),
  /** Deterministic for catalogue variants (`skuFor`): it never changes when the product is edited. */
  sku: z.string().nullable(),
});
export type TProductVariant = z.infer<typeof ZProductVariant>;

/** A mockup of the product, linked by key; `main` is the picture buyers see first. */
export const ZProductMockup = z.object({
  id: z.string(),
  /** The catalogue colour it shows (null when it matches none). */
  color: z.string().nullable(),
  url: z.string(),
  previewUrl: z.string(),
  main: z.boolean(),
});
export type TProductMockup = z.infer<typeof ZProductMockup>;

/** Where a design is printed on the catalogue product, and how. */
export const ZProductPlacement = z.object({
  placement: z.string(),
  technique: z.string(),
});

/** A print file: the design placed on the catalogue placement at its pixel size and DPI. */
export const ZPrintFile = z.object({
  placement: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  dpi: z.number().int(),
  /** Signed and expiring: works without the session cookie (a fulfilment provider downloads it). */
  url: z.string(),
  /** The seller's own download (needs the session). */
  downloadUrl: z.string(),
});
export type TPrintFile = z.infer<typeof ZPrintFile>;

/** A product as the API answers it (spec section 3 'Product', plus the catalogue link, mockups and timestamps). */
export const ZProduct = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The lowest variant price (the spec's one price). */
  price: z.number(),
  tags: z.array(z.string()),
  productType: z.string(),
  /** The catalogue product (bundled or live Printful id) that is printed; null for an older product with none. */
  catalogProductId: z.number().int().nullable(),
  /** The printer network the catalogue product is from; its orders go to that printer (or its sandbox). */
  provider: z.string(),
  placements: z.array(ZProductPlacement),
  variants: z.array(ZProductVariant),
  mockups: z.array(ZProductMockup),
  /** The main mockup's full render (spec field), built from the link. */
  mockupUrl: z.string().nullable(),
  status: ZProductStatus,
  designId: z.string().nullable(),
  /** The design's thumbnail, when the product has a design. */
  designThumbnailUrl: z.string().nullable(),
  /** A small picture for lists: the main mockup's 512 px preview, else the design's thumbnail. */
  thumbnailUrl: z.string().nullable(),
  /** Where the product can be seen in a store (its newest published push); null until it is live. */
  storeUrl: z.string().nullable(),
  /** The platforms the product is published on ('shopify', 'etsy', ...), oldest push first. */
  liveOn: z.array(z.string()).optional(),
  /** Live, and edited since its last push: 'Changes not in store'. */
  changesNotInStore: z.boolean(),
  /**
   * Each store's copy of the product (#28: a product may be in several stores): its own state, link and whether it
   * lags behind the product's edits. A store the product was never pushed to is absent.
   */
  storeCopies: z.array(
    z.object({
      integrationId: z.string(),
      platform: z.string(),
      storeName: z.string().nullable(),
      /** processing: a push, update or removal is at work; failed: the first push failed (`error` says why). */
      status: z.enum(['pending', 'processing', 'published', 'failed', 'removed']),
      url: z.string().nullable(),
      error: z.string().nullable(),
      /**
       * A processing push deferred until the store's spent request limit is back, in the seller's words ("Waiting for
       * Etsy's request limit; resumes at 14:05 UTC"); null otherwise.
       */
      waiting: z.string().nullable().optional(),
      /** When that waiting push resumes (ISO instant); null otherwise. */
      resumesAt: z.string().nullable().optional(),
      changesNotInStore: z.boolean(),
      /**
       * What the store made of the published listing since accepting it (Amazon: ACCEPTED is not listed), read in the
       * background and on the store's notification: processing, live, not buyable (with the store's issues in its
       * words) or gone. Null until first read, and for stores that list what they accept.
       */
      listing: z
        .object({
          state: z.enum(['processing', 'live', 'not_buyable', 'gone']),
          issues: z.array(z.string()),
        })
        .nullable()
        .optional(),
    }),
  ),
  /**
   * What the store did to the pushed listing, for My Products: 'Deleted in store' or 'Archived in store' (the product
   * is back to ready and can be pushed again), 'Price changed in store', 'Title changed in store'; null when nothing.
   */
  storeNotice: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProduct = z.infer<typeof ZProduct>;

/** `GET /api/products/:id`: the product with its print files. */
export const ZProductDetail = ZProduct.extend({ printFiles: z.array(ZPrintFile) });
export type TProductDetail = z.infer<typeof ZProductDetail>;

/** A catalogue variant the seller enables, at the seller's price. */
export const ZVariantChoice = z.object({
  catalogVariantId: z.number().int().positive(),
  price: zPrice,
});
export type TVariantChoice = z.infer<typeof ZVariantChoice>;

/** The product fields, with no defaults (a PATCH must not reset what it does not send). */
const productFields = {
  title: z.string().trim().min(1, 'title is required').max(PRODUCT_TITLE_MAX),
  description: z.string().trim().max(PRODUCT_DESCRIPTION_MAX),
  price: zPrice,
  tags: z.array(z.string().trim().min(1).max(PRODUCT_TAG_MAX_LENGTH)).max(PRODUCT_TAGS_MAX),
  productType: ZProductType,
  /** Catalogue choices `{ catalogVariantId, price }`, or the spec's free-text `{ option, price, sku }`; not mixed. */
  variants: z.union([z.array(ZVariantChoice), z.array(ZVariant)]).refine((v) => v.length <= PRODUCT_VARIANTS_MAX, {
    message: `at most ${PRODUCT_VARIANTS_MAX} variants`,
  }),
  designId: z.uuid(),
  /** The catalogue product to print on; a product type alone gets that type's default (`defaultCatalogProductId`). */
  catalogProductId: z.number().int().positive(),
  /** Whose catalogue `catalogProductId` and `variants[].catalogVariantId` are (printful, printify, gelato). */
  provider: ZFulfilmentNetwork,
  /** The main mockup (the picture buyers see first). */
  mockupId: z.uuid(),
  /** Every mockup of the product (one per colour); the main one is `mockupId`, else the first. */
  mockupIds: z.array(z.uuid()).max(50),
  mockupUrl: z.string().max(2000),
  /** The catalogue placement the design is printed at ('front'); the catalogue product's first when absent. */
  placement: z.string().trim().min(1).max(40),
  /** A seller sets draft or ready; processing and live follow store pushes. */
  status: z.enum(['draft', 'ready']),
};

/**
 * `POST /api/products` fields (multipart text fields, or JSON when no file is sent). The design is either a file
 * part named `file` (at most DESIGN_MAX_BYTES) or the id of an uploaded design; the mockup either a
 * rendered mockup's id or a URL the API served. `tags` and `variants` arrive as JSON text in multipart. Empty
 * variants become `defaultVariants(price)`.
 */
export const ZCreateProduct = z.object({
  ...productFields,
  description: productFields.description.default(''),
  tags: productFields.tags.default([]),
  variants: productFields.variants.default([]),
  designId: productFields.designId.optional(),
  catalogProductId: productFields.catalogProductId.optional(),
  provider: productFields.provider.default(DEFAULT_FULFILMENT_NETWORK),
  mockupId: productFields.mockupId.optional(),
  mockupIds: productFields.mockupIds.optional(),
  mockupUrl: productFields.mockupUrl.optional(),
  placement: productFields.placement.optional(),
  status: productFields.status.default('draft'),
});
export type TCreateProduct = z.input<typeof ZCreateProduct>;

/**
 * `PATCH /api/products/:id` (JSON): only the fields sent change; `variants` sent replace all of them. (Built
 * without defaults: a `.partial()` of ZCreateProduct would fill in `tags: []` and `variants: []` and wipe them.)
 */
export const ZUpdateProduct = z.object(productFields).partial();
export type TUpdateProduct = z.input<typeof ZUpdateProduct>;

export const ZStoreUploadParams = z.object({ platform: z.string().max(40), productId: z.uuid() });
/** integrationId: a store integration of the workspace; absent or 'default' picks the connected one. */
export const ZStoreUploadBody = z.object({ integrationId: z.string().max(100).optional() });
/** `POST /api/products/:id/publish`: the stores to push the product to, in order. */
export const ZPublishBody = z.object({ integrationIds: z.array(z.string().max(100)).min(1).max(10) });
export type TPublishBody = z.infer<typeof ZPublishBody>;
/** What each store did: a store that refuses does not stop the others. */
export const ZPublishResult = z.object({
  results: z.array(
    z.object({
      integrationId: z.string(),
      platform: z.string(),
      ok: z.boolean(),
      remoteProductId: z.string().nullable(),
      remoteUrl: z.string().nullable(),
      /** Why this store refused, in the seller's words. */
      error: z.string().nullable(),
      /**
       * Where the store's push job is: 'running' when it was still at work when the answer went out (the browser
       * then polls `GET /api/products/:id/pushes`); 'waiting' when the store's request limit is spent for a long
       * while (e.g. a day's budget): the push is deferred, not failed, and resumes by itself (`progress` says when).
       */
      state: z.enum(['published', 'failed', 'running', 'waiting']).optional(),
      /** For 'waiting': what the seller reads, e.g. "Waiting for Etsy's daily limit; resumes at 14:05 UTC". */
      progress: z.string().nullable().optional(),
      /** For 'waiting': when the push resumes (ISO instant). */
      resumesAt: z.string().nullable().optional(),
    }),
  ),
});
export type TPublishResult = z.infer<typeof ZPublishResult>;

/** `GET /api/products/:id/pushes`: each store push of the product and where it is. */
export const ZPushState = z.object({
  integrationId: z.string(),
  /**
   * 'removed': the listing was deleted or archived in the store (drift), so the product may be pushed again.
   * 'waiting': the store's request limit is spent for a long while (a day's budget): the push is deferred to
   * `resumesAt` and resumes by itself (the product stays processing; nothing is lost or listed twice).
   */
  state: z.enum(['running', 'waiting', 'published', 'failed', 'removed']),
  /** What a running push is doing, e.g. 'Uploading pictures (1 of 2)'; for a waiting one, until when it waits. */
  progress: z.string().nullable(),
  /** When a waiting push resumes (ISO instant); null otherwise. */
  resumesAt: z.string().nullable().optional(),
  error: z.string().nullable(),
  remoteProductId: z.string().nullable(),
  remoteUrl: z.string().nullable(),
  updatedAt: z.string(),
});
export type TPushState = z.infer<typeof ZPushState>;
export const ZPushStates = z.object({ pushes: z.array(ZPushState) });
export type TPushStates = z.infer<typeof ZPushStates>;

/** An upload or update still at work when the answer went out (HTTP 202): poll `GET /api/products/:id/pushes`. */
export const ZStoreUploadPending = z.object({
  success: z.literal(false),
  /** 'waiting': deferred until the store's spent request limit is back (`resumesAt`); it resumes by itself. */
  state: z.enum(['running', 'waiting']),
  platform: z.string(),
  integrationId: z.string(),
  progress: z.string().nullable(),
  resumesAt: z.string().nullable().optional(),
});
export type TStoreUploadPending = z.infer<typeof ZStoreUploadPending>;

/**
 * `DELETE /api/products/:id?store=`: what happens to a live product's store listings. A live product needs the
 * choice: `archive` (buyers no longer see it; the seller can restore it in the store), `delete`, or `keep`.
 */
export const ZDeleteProductQuery = z.object({ store: z.enum(['archive', 'delete', 'keep']).optional() });
export type TDeleteProductStore = NonNullable<z.infer<typeof ZDeleteProductQuery>['store']>;

/** `POST /api/products/:id/update-in-store`: the store whose listing is updated. */
export const ZUpdateInStoreBody = z.object({ integrationId: z.string().max(100) });
/**
 * `POST /api/products/:id/remove-from-store`: takes the product out of one store (archived there, or deleted) and
 * keeps it here and in its other stores.
 */
export const ZRemoveFromStoreBody = z.object({
  integrationId: z.string().max(100),
  removal: z.enum(['archive', 'delete']).default('archive'),
});
export type TRemoveFromStoreBody = z.input<typeof ZRemoveFromStoreBody>;
/** A successful push: the product as the store has it. */
export const ZStoreUploadResult = z.object({
  success: z.literal(true),
  platform: z.string(),
  integrationId: z.string(),
  remoteProductId: z.string(),
  remoteUrl: z.string(),
});
export type TStoreUploadResult = z.infer<typeof ZStoreUploadResult>;

/** `GET /api/products`: search in title, description and tags; filters; a page. */
export const ZProductListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.union([ZProductStatus, z.literal('all')]).optional(),
  type: z.union([ZProductType, z.literal('all')]).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(PRODUCTS_PAGE_SIZE),
});
export type TProductListQuery = z.input<typeof ZProductListQuery>;

export const ZProductPage = zPage(ZProduct);
export type TProductPage = z.infer<typeof ZProductPage>;

export const ZProductIdParams = z.object({ id: z.uuid() });
