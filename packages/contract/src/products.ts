import { z } from 'zod';
import { ZProductStatus } from './common';

/** Product types a product can have; the same ids as the simple flow's (spec section 9, 'Component'). */
export const PRODUCT_TYPES = ['tshirt', 'hoodie', 'mug', 'poster', 'sticker', 'tote', 'phone_case'] as const;
export const ZProductType = z.enum(PRODUCT_TYPES);
export type TProductType = z.infer<typeof ZProductType>;

export const PRODUCT_TITLE_MAX = 255;
export const PRODUCT_DESCRIPTION_MAX = 10_000;
export const PRODUCT_TAGS_MAX = 250;
export const PRODUCT_TAG_MAX_LENGTH = 255;
export const PRODUCT_VARIANTS_MAX = 100;
export const PRODUCT_PRICE_MAX = 100_000;

const zPrice = z.number().min(0, 'must not be negative').max(PRODUCT_PRICE_MAX);

/** Spec section 3, 'Variant': option name, price and an optional SKU. */
export const ZVariant = z.object({
  option: z.string().trim().min(1, 'needs a name').max(100),
  price: zPrice,
  sku: z.string().trim().max(100).optional(),
});
export type TVariant = z.infer<typeof ZVariant>;

/** A product as the API answers it (spec section 3 'Product', plus the design and timestamps). */
export const ZProduct = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  price: z.number(),
  tags: z.array(z.string()),
  productType: z.string(),
  variants: z.array(ZVariant.extend({ sku: z.string().nullable() })),
  mockupUrl: z.string().nullable(),
  status: ZProductStatus,
  designId: z.string().nullable(),
  /** The design's thumbnail, when the product has a design. */
  designThumbnailUrl: z.string().nullable(),
  /** A small picture for lists: the mockup's 512 px preview, else the design's thumbnail. */
  thumbnailUrl: z.string().nullable(),
  /** Where the product can be seen in a store (its newest published push); null until it is live. */
  storeUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProduct = z.infer<typeof ZProduct>;

/** The product fields, with no defaults (a PATCH must not reset what it does not send). */
const productFields = {
  title: z.string().trim().min(1, 'title is required').max(PRODUCT_TITLE_MAX),
  description: z.string().trim().max(PRODUCT_DESCRIPTION_MAX),
  price: zPrice,
  tags: z.array(z.string().trim().min(1).max(PRODUCT_TAG_MAX_LENGTH)).max(PRODUCT_TAGS_MAX),
  productType: ZProductType,
  variants: z.array(ZVariant).max(PRODUCT_VARIANTS_MAX),
  designId: z.uuid(),
  mockupId: z.uuid(),
  mockupUrl: z.string().max(2000),
  /** A seller sets draft or ready; processing and live follow store pushes. */
  status: z.enum(['draft', 'ready']),
};

/**
 * `POST /api/products` fields (multipart text fields, or JSON when no file is sent). The design is either a file
 * part named `file` (at most PRODUCT_DESIGN_MAX_BYTES) or the id of an uploaded design; the mockup either a
 * rendered mockup's id or a URL the API served. `tags` and `variants` arrive as JSON text in multipart. Empty
 * variants become `defaultVariants(price)`.
 */
export const ZCreateProduct = z.object({
  ...productFields,
  description: productFields.description.default(''),
  tags: productFields.tags.default([]),
  variants: productFields.variants.default([]),
  designId: productFields.designId.optional(),
  mockupId: productFields.mockupId.optional(),
  mockupUrl: productFields.mockupUrl.optional(),
  status: productFields.status.default('draft'),
});
export type TCreateProduct = z.input<typeof ZCreateProduct>;

/**
 * `PATCH /api/products/:id` (JSON): only the fields sent change; `variants` sent replace all of them. (Built
 * without defaults: a `.partial()` of ZCreateProduct would fill in `tags: []` and `variants: []` and wipe them.)
 */
export const ZUpdateProduct = z.object(productFields).partial();
export type TUpdateProduct = z.input<typeof ZUpdateProduct>;

/** The simple flow's design file limit (spec section 5, 'Simple flow design file'). */
export const PRODUCT_DESIGN_MAX_BYTES = 10 * 1024 * 1024;

/** `POST /api/upload/:platform/:productId` (spec section 7). */
export const STORE_PLATFORMS = ['shopify', 'etsy', 'amazon', 'woocommerce'] as const;
export type TStorePlatform = (typeof STORE_PLATFORMS)[number];
export const ZStoreUploadParams = z.object({ platform: z.string().max(40), productId: z.uuid() });
/** integrationId: a store integration of the workspace; absent or 'default' picks the connected one. */
export const ZStoreUploadBody = z.object({ integrationId: z.string().max(100).optional() });
/** A successful push: the product as the store has it. */
export const ZStoreUploadResult = z.object({
  success: z.literal(true),
  platform: z.string(),
  integrationId: z.string(),
  remoteProductId: z.string(),
  remoteUrl: z.string(),
});
export type TStoreUploadResult = z.infer<typeof ZStoreUploadResult>;

export const PRODUCTS_PAGE_SIZE = 10;

/** `GET /api/products`: search in title, description and tags; filters; a page. */
export const ZProductListQuery = z.object({
  search: z.string().trim().max(100).optional(),
  status: z.union([ZProductStatus, z.literal('all')]).optional(),
  type: z.union([ZProductType, z.literal('all')]).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(PRODUCTS_PAGE_SIZE),
});
export type TProductListQuery = z.input<typeof ZProductListQuery>;

export const ZProductPage = z.object({
  items: z.array(ZProduct),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type TProductPage = z.infer<typeof ZProductPage>;

export const ZProductIdParams = z.object({ id: z.uuid() });

/**
 * Spec section 9, 'Default variants': Small, Medium, Large at the price (25 when there is none), Extra Large at
 * that price plus 2; SKUs S, M, L, XL.
 */
export function defaultVariants(price: number | null | undefined): TVariant[] {
  const base = price && price > 0 ? price : 25;
  return [
    { option: 'Small', price: base, sku: 'S' },
    { option: 'Medium', price: base, sku: 'M' },
    { option: 'Large', price: base, sku: 'L' },
    { option: 'Extra Large', price: base + 2, sku: 'XL' },
  ];
}
