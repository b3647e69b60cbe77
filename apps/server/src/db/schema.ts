import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * Every table but `workspaces` carries `workspace_id`, and every query filters on it: a row of another workspace
 * must be indistinguishable from a row that does not exist.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const workspaceId = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

export const workspaces = pgTable('workspaces', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** SHA-256 of the session token in the cookie; the token itself is never stored. */
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: createdAt(),
});

export const designs = pgTable(
  'designs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    name: text('name').notNull(),
    /** Type sniffed from the bytes: png, jpeg, svg or pdf. */
    type: text('type').notNull(),
    mimeType: text('mime_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    source: text('source', { enum: ['upload', 'ai'] }).notNull(),
    prompt: text('prompt'),
    /** Storage keys: the original (sanitised for SVG), a print-ready PNG and a thumbnail of at most 512 px. */
    originalKey: text('original_key').notNull(),
    printKey: text('print_key').notNull(),
    thumbnailKey: text('thumbnail_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('designs_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    price: numeric('price', { precision: 10, scale: 2 }).notNull().default('0'),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    productType: text('product_type').notNull(),
    status: text('status', { enum: ['draft', 'ready', 'processing', 'live'] })
      .notNull()
      .default('draft'),
    designId: uuid('design_id').references(() => designs.id, { onDelete: 'set null' }),
    /** The catalogue product printed (a Printful id, bundled or live); null for an older product with none. */
    catalogProductId: integer('catalog_product_id'),
    /** Where and how the design is printed: [{ placement, technique }]. */
    placements: jsonb('placements')
      .$type<{ placement: string; technique: string }[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The placement geometry (the main mockup's adjustments) the print files are drawn with. */
    adjustments: jsonb('adjustments').$type<Record<string, number>>(),
    platform: text('platform'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Last change of what a store shows (listing, variants, prices, pictures): 'Changes not in store' after a push. */
    contentUpdatedAt: timestamp('content_updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('products_workspace_created_idx').on(t.workspaceId, t.createdAt),
    index('products_workspace_status_idx').on(t.workspaceId, t.status),
  ],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** 'Black / M', or an older product's free-text option. */
    option: text('option').notNull(),
    /** The catalogue variant printed; null for a free-text variant that maps to none. */
    catalogVariantId: integer('catalog_variant_id'),
    color: text('color'),
    colorHex: text('color_hex'),
    size: text('size'),
    price: numeric('price', { precision: 10, scale: 2 }).notNull(),
    sku: text('sku'),
    /** What the fulfilment provider charges for the blank, so margin can be shown. */
    baseCost: numeric('base_cost', { precision: 10, scale: 2 }),
  },
  (t) => [
    index('product_variants_product_idx').on(t.productId, t.position),
    uniqueIndex('product_variants_product_catalog_uq').on(t.productId, t.catalogVariantId),
    index('product_variants_workspace_sku_idx').on(t.workspaceId, t.sku),
  ],
);

export const mockups = pgTable(
  'mockups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    designId: uuid('design_id')
      .notNull()
      .references(() => designs.id, { onDelete: 'cascade' }),
    productType: text('product_type').notNull(),
    templateId: text('template_id').notNull(),
    color: text('color'),
    adjustments: jsonb('adjustments').$type<Record<string, number>>().notNull(),
    /** The batch that rendered it, and its place in the batch's template x colour order. */
    batchId: uuid('batch_id').references(() => mockupBatches.id, { onDelete: 'set null' }),
    batchPosition: integer('batch_position'),
    storageKey: text('storage_key').notNull(),
    previewKey: text('preview_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('mockups_workspace_design_idx').on(t.workspaceId, t.designId),
    index('mockups_batch_idx').on(t.batchId, t.batchPosition),
  ],
);

/**
 * A batch render of one design on every template and colour. Progress is the count of its mockups rows, so any app
 * instance can answer a poll, whichever instance renders.
 */
export const mockupBatches = pgTable('mockup_batches', {
  id: uuid('id').primaryKey().defaultRandom(),
  workspaceId: workspaceId(),
  designId: uuid('design_id')
    .notNull()
    .references(() => designs.id, { onDelete: 'cascade' }),
  productType: text('product_type').notNull(),
  total: integer('total').notNull(),
  status: text('status', { enum: ['running', 'done', 'failed'] })
    .notNull()
    .default('running'),
  error: text('error'),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** A product's pictures, linked by key: one per colour, one of them the main picture. */
export const productMockups = pgTable(
  'product_mockups',
  {
    workspaceId: workspaceId(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    mockupId: uuid('mockup_id')
      .notNull()
      .references(() => mockups.id, { onDelete: 'cascade' }),
    /** The catalogue colour the picture shows; null when it matches none. */
    color: text('color'),
    main: boolean('main').notNull().default(false),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.mockupId] }),
    uniqueIndex('product_mockups_one_main_uq').on(t.productId).where(sql`${t.main}`),
  ],
);

/** A product's print file per placement, drawn from its design and placement; `fingerprint` says from what. */
export const printFiles = pgTable(
  'print_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    placement: text('placement').notNull(),
    fingerprint: text('fingerprint').notNull(),
    storageKey: text('storage_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    dpi: integer('dpi').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('print_files_product_placement_uq').on(t.productId, t.placement)],
);

/** Per-workspace settings: the pricing editor's target margin and estimated store fees. */
export const workspaceSettings = pgTable('workspace_settings', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  targetMargin: numeric('target_margin', { precision: 5, scale: 2 }),
  storeFees: jsonb('store_fees').$type<Record<string, { percent: number; fixed: number }>>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A connected store (Shopify, later Etsy...) or fulfilment service (Printful). */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    kind: text('kind', { enum: ['store', 'fulfillment'] }).notNull(),
    platform: text('platform').notNull(),
    /** Shop domain (Shopify) or account/store id (Printful). */
    externalId: text('external_id').notNull(),
    storeName: text('store_name'),
    /** AES-256-GCM ciphertext (see lib/crypto.ts); never the plain token. */
    accessTokenEnc: text('access_token_enc'),
    refreshTokenEnc: text('refresh_token_enc'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    scopes: text('scopes'),
    status: text('status', { enum: ['connected', 'pending', 'error', 'disconnected'] })
      .notNull()
      .default('pending'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** Connected to the built-in Shopify sandbox (no SHOPIFY_API_KEY), not to a real store. */
    sandbox: boolean('sandbox').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('integrations_workspace_platform_external_uq').on(t.workspaceId, t.platform, t.externalId)],
);

/** One row per (product, store) push: a retried push updates this row, never creates a second remote product. */
export const publications = pgTable(
  'publications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    remoteProductId: text('remote_product_id'),
    remoteUrl: text('remote_url'),
    status: text('status', { enum: ['pending', 'processing', 'published', 'failed'] })
      .notNull()
      .default('pending'),
    error: text('error'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('publications_product_integration_uq').on(t.productId, t.integrationId),
    index('publications_workspace_published_idx').on(t.workspaceId, t.publishedAt),
  ],
);

export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    integrationId: text('integration_id').notNull().default('default'),
    scheduledDate: date('scheduled_date').notNull(),
    scheduledTime: text('scheduled_time').notNull(),
    /** The browser's IANA zone; `runAt` is date + time in this zone. */
    timeZone: text('time_zone').notNull().default('UTC'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['pending', 'running', 'completed', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    jobId: text('job_id'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('schedules_workspace_product_idx').on(t.workspaceId, t.productId)],
);

/** Every AI call; feeds 'Recent Generations' and the monthly credits. */
export const aiGenerations = pgTable(
  'ai_generations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    kind: text('kind').notNull(),
    request: jsonb('request').notNull(),
    result: jsonb('result'),
    provider: text('provider').notNull(),
    credits: integer('credits').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [index('ai_generations_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);

/** Orders read from connected stores; the source of sales, profit and order value. */
export const storeOrders = pgTable(
  'store_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    remoteOrderId: text('remote_order_id').notNull(),
    currency: text('currency').notNull(),
    total: numeric('total', { precision: 12, scale: 2 }).notNull(),
    /** Fulfilment cost of the items, when known; profit = total - cost. */
    cost: numeric('cost', { precision: 12, scale: 2 }),
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('store_orders_integration_remote_uq').on(t.integrationId, t.remoteOrderId),
    index('store_orders_workspace_ordered_idx').on(t.workspaceId, t.orderedAt),
  ],
);

/** Single-use OAuth state nonces (Printful, Shopify), bound to the workspace that started the flow. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  workspaceId: workspaceId(),
  provider: text('provider').notNull(),
  /** Extra data the callback needs, e.g. the shop domain. */
  data: jsonb('data'),
  createdAt: createdAt(),
});
