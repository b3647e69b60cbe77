import { z } from 'zod';
import { zPage } from './common';
import { CATALOG_PAGE_SIZE } from './plain/catalog';

/** A variant of a catalogue product: one colour and size, with its base cost as a decimal string. */
export const ZCatalogVariant = z.object({
  id: z.number().int(),
  name: z.string(),
  size: z.string(),
  color: z.string(),
  colorCode: z.string(),
  price: z.string(),
});
export type TCatalogVariant = z.infer<typeof ZCatalogVariant>;

export const ZPrintArea = z.object({
  placement: z.string(),
  title: z.string(),
  technique: z.string(),
  widthPx: z.number().int(),
  heightPx: z.number().int(),
  dpi: z.number().int(),
});
export type TPrintArea = z.infer<typeof ZPrintArea>;

/** Spec section 3, 'Catalogue product (picker)', with the fields Printful adds. */
export const ZCatalogProduct = z.object({
  id: z.number().int(),
  categoryId: z.number().int(),
  type: z.string(),
  name: z.string(),
  brand: z.string(),
  model: z.string(),
  description: z.string(),
  /** The lowest variant cost, in USD. */
  basePrice: z.number(),
  currency: z.string(),
  mockupUrls: z.array(z.string()),
  variantCount: z.number().int(),
  variants: z.array(ZCatalogVariant),
  sizes: z.array(z.string()),
  colors: z.array(z.object({ name: z.string(), value: z.string() })),
  printAreas: z.array(ZPrintArea),
});
export type TCatalogProduct = z.infer<typeof ZCatalogProduct>;

const zOptionalNumber = z
  .string()
  .trim()
  .regex(/^\d+(\.\d{1,2})?$/, 'must be a non-negative amount like 15 or 15.50')
  .transform(Number);

/** `GET /api/printful/products`: search on name and description, category by id or name, price range, page. */
export const ZCatalogProductsQuery = z
  .object({
    search: z.string().trim().max(100).optional(),
    category: z.string().trim().max(60).optional(),
    minPrice: zOptionalNumber.optional(),
    maxPrice: zOptionalNumber.optional(),
    page: z.coerce.number().int().min(1).max(1000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(CATALOG_PAGE_SIZE),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    message: 'minPrice must not be above maxPrice',
    path: ['minPrice'],
  });
export type TCatalogProductsQuery = z.infer<typeof ZCatalogProductsQuery>;

export const ZCatalogSource = z.enum(['bundled', 'printful', 'printify', 'printify-sandbox', 'gelato']);
export type TCatalogSource = z.infer<typeof ZCatalogSource>;

export const ZCatalogProductPage = zPage(ZCatalogProduct).extend({
  /** Where the catalogue came from: the bundled snapshot, or the connected Printful account. */
  source: ZCatalogSource,
});
export type TCatalogProductPage = z.infer<typeof ZCatalogProductPage>;

export const ZCatalogCategory = z.object({
  id: z.number().int(),
  parentId: z.number().int(),
  name: z.string(),
  image: z.string(),
});
export type TCatalogCategory = z.infer<typeof ZCatalogCategory>;

export const ZCatalogCategoriesQuery = z.object({
  parent_id: z.coerce.number().int().min(0).optional(),
});

/** Spec section 3, 'Catalog template': a catalogue product as the start of a Shopify product. */
export const ZCatalogTemplate = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  imageUrl: z.string(),
});
export type TCatalogTemplate = z.infer<typeof ZCatalogTemplate>;

export const ZShopifyCatalogProductsQuery = z.object({
  categoryId: z.coerce.number().int().min(1).optional(),
});

export const ZPrintfulStatus = z.object({
  connected: z.boolean(),
  storeName: z.string().optional(),
  /** 'oauth' when this workspace connected its account, 'token' when the server has PRINTFUL_TOKEN. */
  via: z.enum(['oauth', 'token']).optional(),
  /** Whether Connect can start (PRINTFUL_CLIENT_ID and PRINTFUL_CLIENT_SECRET are set). */
  oauthConfigured: z.boolean(),
  /** Authorised, but the account has several stores and the seller has not chosen the one orders go to. */
  choosingStore: z.boolean().optional(),
  /**
   * The workspace's store orders are printed by the built-in Printful Sandbox (nothing charged, test parcels): it has
   * not connected its own Printful account (the server's PRINTFUL_TOKEN is for the catalogue only).
   */
  sandbox: z.boolean(),
});
export type TPrintfulStatus = z.infer<typeof ZPrintfulStatus>;

/** `GET /api/printful/stores` while choosing; `POST /api/printful/store { storeId }` chooses. */
export const ZPrintfulStore = z.object({ id: z.number(), name: z.string() });
export type TPrintfulStore = z.infer<typeof ZPrintfulStore>;
export const ZChoosePrintfulStore = z.object({ storeId: z.number().int().positive() });

export const ZPrintfulCallbackQuery = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  success: z.string().max(5).optional(),
});

/** `GET /api/printful/products/:id`: one catalogue product, its colour x size variants and its placements. */
export const ZCatalogProductDetail = z.object({
  id: z.number().int(),
  type: z.string(),
  name: z.string(),
  brand: z.string(),
  model: z.string(),
  description: z.string(),
  currency: z.string(),
  variants: z.array(
    z.object({
      id: z.number().int(),
      color: z.string(),
      colorHex: z.string(),
      size: z.string(),
      /** The variant's cost with one placement printed, in `currency`. */
      baseCost: z.number(),
    }),
  ),
  placements: z.array(
    z.object({
      placement: z.string(),
      title: z.string(),
      technique: z.string(),
      widthPx: z.number().int(),
      heightPx: z.number().int(),
      dpi: z.number().int(),
    }),
  ),
});
export type TCatalogProductDetail = z.infer<typeof ZCatalogProductDetail>;
export const ZCatalogProductIdParams = z.object({ id: z.coerce.number().int().positive() });
