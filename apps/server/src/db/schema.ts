import { DEFAULT_FULFILMENT_NETWORK, MEMBER_ROLES } from '@podforge/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
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

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /**
     * Before accounts (issue 31): SHA-256 of the one session cookie's token. A cookie from then is moved into an owner
     * member and a session on its first request (plugins/workspace.ts), which clears this; new workspaces have none.
     */
    tokenHash: text('token_hash').unique(),
    /**
     * Who made it: an HMAC of the client address (never the address itself). New workspaces are limited per address,
     * and the AI credits of all workspaces one address made share a monthly cap; null for workspaces made before.
     */
    creatorKey: text('creator_key'),
    createdAt: createdAt(),
  },
  (t) => [index('workspaces_creator_created_idx').on(t.creatorKey, t.createdAt)],
);

/** A person in a workspace; each browser they use is a session, each passkey theirs. */
export const members = pgTable(
  'members',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    /** What the team sees (given when accepting an invite); null: unnamed. */
    name: text('name'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('members_workspace_idx').on(t.workspaceId)],
);

/** A signed-in browser: the cookie carries its random token, only whose SHA-256 is kept. Deleting it signs out. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** The browser's User-Agent when it signed in, shown so the member can tell browsers apart. */
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_member_idx').on(t.memberId)],
);

/** A member's WebAuthn credential (passkey): its public key and signature counter. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator gave it. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_member_idx').on(t.memberId)],
);

/**
 * WebAuthn challenges waiting for their answer: single use (deleted when answered) and short-lived. A registration
 * challenge belongs to the member and session that asked; a sign-in challenge to nobody yet.
 */
export const authChallenges = pgTable('auth_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose', { enum: ['registration', 'login'] }).notNull(),
  sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/** An invite link: only the SHA-256 of its token is kept; used once, revocable, expiring. */
export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    tokenHash: text('token_hash').notNull().unique(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    createdBy: uuid('created_by').references(() => members.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => members.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('invites_workspace_idx').on(t.workspaceId)],
);

/** Every file stored for a workspace, with its size: the storage quota's figure (storage/usage.ts). */
export const storedFiles = pgTable(
  'stored_files',
  {
    key: text('key').primaryKey(),
    workspaceId: workspaceId(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('stored_files_workspace_idx').on(t.workspaceId)],
);

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
    /** The working copy mockups render from (at most 2000 px a side); null for designs stored before it existed. */
    workingKey: text('working_key'),
    /**
     * Vector art (SVG, or a PDF whose page 1 paints no raster image): print files draw the original at their own size
     * and the ready rule rates it print-ready at any size.
     */
    vector: boolean('vector').notNull().default(false),
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
    /** The printer network the catalogue product is from (contract `FULFILMENT_NETWORKS`): its orders go there. */
    provider: text('provider').notNull().default(DEFAULT_FULFILMENT_NETWORK),
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
    /**
     * What My Products' search looks in: title, description and tags, one per line, in lower case
     * (`product_search_text`, an immutable SQL function of migrations 0010_perf_lists and 0012_read_versions),
     * kept by the database and indexed for `LIKE '%...%'` by trigrams (pg_trgm), so a search reads the index
     * instead of every product.
     */
    searchText: text('search_text').generatedAlwaysAs(sql`product_search_text(title, description, tags)`),
  },
  (t) => [
    // Lists are newest first with the id as tie-break: each filter has an index in that order (keyset-friendly,
    // and page N reads only ids from the index before fetching its rows).
    index('products_workspace_created_id_idx').on(t.workspaceId, t.createdAt, t.id),
    index('products_workspace_status_created_idx').on(t.workspaceId, t.status, t.createdAt, t.id),
    index('products_workspace_type_created_idx').on(t.workspaceId, t.productType, t.createdAt, t.id),
    // fastupdate off: PGlite runs no autovacuum to move a GIN pending list into the index, so entries go in at once.
    index('products_workspace_search_idx')
      .using('gin', t.workspaceId, t.searchText.op('gin_trgm_ops'))
      .with({ fastupdate: 'off' }),
  ],
);

/**
 * How many products a workspace has per status and type, kept by triggers on `products` (migration
 * 0010_perf_lists), so the lists' totals and the dashboard's counts are a sum of a few rows, not a count of every
 * product. Never written by the application.
 */
export const productCounts = pgTable(
  'product_counts',
  {
    workspaceId: workspaceId(),
    status: text('status').notNull(),
    productType: text('product_type').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.status, t.productType] })],
);

/**
 * A number per workspace that moves on with every committed change to what its lists and dashboard show (products,
 * their variants, mockup links and publications, orders, AI generations), bumped once per transaction by deferred
 * triggers (migration 0012_read_versions). An answer read at version v is still the answer while the version is v,
 * so every instance on one PostgreSQL may keep answers (`db/read-versions.ts`). Never written by the application.
 */
export const workspaceReadVersions = pgTable('workspace_read_versions', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

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
  /** How store orders are confirmed with the printer: automatic, manual or delay (after `orderDelayMinutes`). */
  orderConfirmation: text('order_confirmation', { enum: ['automatic', 'manual', 'delay'] }),
  orderDelayMinutes: integer('order_delay_minutes'),
  /**
   * Which connected printer takes each order: `fixed` (the one named in `printerRoutingProvider`), `cheapest` or
   * `fastest` to the buyer's country (by the printers' own quotes); null is the first connected printer.
   */
  printerRouting: text('printer_routing', { enum: ['fixed', 'cheapest', 'fastest'] }),
  printerRoutingProvider: text('printer_routing_provider'),
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
    /** When the access token stops working; null for a token that does not expire (a custom app's). */
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    /** A refresh in flight on some instance holds this lease (one refresh at a time; see shopify-tokens.ts). */
    refreshLockedUntil: timestamp('refresh_locked_until', { withTimezone: true }),
    scopes: text('scopes'),
    status: text('status', { enum: ['connected', 'pending', 'error', 'disconnected'] })
      .notNull()
      .default('pending'),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    lastSyncAt: timestamp('last_sync_at', { withTimezone: true }),
    /** Connected to the built-in Shopify sandbox (no SHOPIFY_API_KEY), not to a real store. */
    sandbox: boolean('sandbox').notNull().default(false),
    /**
     * A sandbox connection's own webhook signing secret (AES-256-GCM ciphertext, like the tokens), made at connect;
     * the sandbox signs this shop's webhooks with it and the receiver takes nothing else. Null for real stores (they
     * are signed with the app's secret) and for sandbox rows connected before it existed, until their first use.
     */
    webhookSecretEnc: text('webhook_secret_enc'),
    /**
     * Where reading the store's orders goes on from (Etsy: the last `update_timestamp` taken, epoch seconds), so a
     * restart misses nothing and reads nothing twice into a second order; null before the first read.
     */
    ordersCursor: bigint('orders_cursor', { mode: 'number' }),
    /** What the seller must do for this store to work fully, in their words (e.g. reconnect for a scope); shown on it. */
    problem: text('problem'),
    /** The currency a printer bills in when its API names none (Printify: the seller states it at connect). */
    billingCurrency: text('billing_currency'),
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
    /** The store's variant id (numeric) -> our product variant id, from the push; orders are matched with it. */
    remoteVariants: jsonb('remote_variants').$type<Record<string, string>>(),
    /** removed: the listing was deleted or archived in the store (`remoteState` says which). */
    status: text('status', { enum: ['pending', 'processing', 'published', 'failed', 'removed'] })
      .notNull()
      .default('pending'),
    error: text('error'),
    /** The HTTP status the failure answers with (502 Shopify, 503 throttled, 4xx the seller must act on). */
    errorStatus: integer('error_status'),
    /** The failure's error code and details as the call answers them (e.g. Etsy's `retryAfterSeconds`). */
    errorCode: text('error_code'),
    errorDetails: jsonb('error_details').$type<Record<string, string>>(),
    /** The push job (pg-boss id) that owns the row while it is processing; a stale job finds another id. */
    jobId: uuid('job_id'),
    /** What the push is doing, for the UI to poll: 'Uploading pictures (1 of 2)'. */
    progress: text('progress'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    /** What the store last said of the listing: deleted or archived there (drift, see shopify-drift.ts). */
    remoteState: text('remote_state', { enum: ['deleted', 'archived'] }),
    /** Edits made in the store since the push, e.g. ['price', 'title']; read at remoteCheckedAt. */
    remoteChanges: text('remote_changes').array(),
    remoteCheckedAt: timestamp('remote_checked_at', { withTimezone: true }),
    /**
     * What the store made of an accepted listing (Amazon: ACCEPTED is not listed): processing, live, not buyable or
     * gone, with the store's issues in its words; read in the background and by notification (null: not read yet).
     */
    listingState: text('listing_state', { enum: ['processing', 'live', 'not_buyable', 'gone'] }),
    listingIssues: text('listing_issues').array(),
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

/**
 * A store's sale (Shopify orders/paid or Sync) and its way to a parcel: one row per remote order, whatever the
 * number of deliveries. `status` is the order's fulfilment state (contract ORDER_STATUSES); an order with none of
 * our lines is 'external' and never goes to the printer.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** The store's order id (numeric, as in webhooks) and name ('#1001'). */
    remoteOrderId: text('remote_order_id').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull(),
    /** What the buyer paid for the whole order. */
    revenue: numeric('revenue', { precision: 12, scale: 2 }).notNull(),
    /** What the printer charges (Printful's costs.total), once known. */
    cost: numeric('cost', { precision: 12, scale: 2 }),
    costCurrency: text('cost_currency'),
    status: text('status').notNull(),
    /** AES-256-GCM ciphertext of the shipping address (JSON); null once erased (redact) or when none was given. */
    shippingAddressEnc: text('shipping_address_enc'),
    /** The store's customer id, so customers/redact finds the orders to erase. */
    remoteCustomerId: text('remote_customer_id'),
    /** Which printer adapter took the order (contract `PRINTER_PROVIDERS`: a network's own account or its sandbox). */
    fulfillmentProvider: text('fulfillment_provider'),
    /** The order's id at its printer (any printer; was printful_order_id). */
    printerOrderId: text('printer_order_id'),
    /** Why this printer took the order (the routing rule and the quotes it compared), in the seller's words. */
    printerReason: text('printer_reason'),
    /** When a 'delay' order is confirmed by itself (unless cancelled first). */
    confirmAt: timestamp('confirm_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    failureReason: text('failure_reason'),
    carrier: text('carrier'),
    trackingNumber: text('tracking_number'),
    trackingUrl: text('tracking_url'),
    /** The store fulfilments made from the shipments (their ids, comma-separated), so each is made once. */
    storeFulfillmentId: text('store_fulfillment_id'),
    /** Each printer shipment sent to the store: the printer's shipment id -> the store's id for it. */
    storeShipments: jsonb('store_shipments').$type<Record<string, string>>().notNull().default({}),
    /**
     * The printer's parcels as last read (id, carrier, tracking, the lines each carries by the store's line id; lines
     * null when the printer does not say; whether it has been delivered, absent in rows kept before that was), in the
     * printer's order: what the Orders screen shows of each parcel.
     */
    printerShipments: jsonb('printer_shipments')
      .$type<
        {
          id: string;
          carrier: string | null;
          trackingNumber: string | null;
          trackingUrl: string | null;
          lines: { lineId: string; quantity: number }[] | null;
          delivered?: boolean;
        }[]
      >()
      .notNull()
      .default([]),
    orderedAt: timestamp('ordered_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('orders_integration_remote_uq').on(t.integrationId, t.remoteOrderId),
    index('orders_workspace_ordered_idx').on(t.workspaceId, t.orderedAt),
  ],
);

/** An order's line; `productId`/`variantId` are set when it is one of our products ('not from Podforge' otherwise). */
export const orderLines = pgTable(
  'order_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    remoteLineId: text('remote_line_id').notNull(),
    remoteVariantId: text('remote_variant_id'),
    sku: text('sku'),
    title: text('title').notNull(),
    quantity: integer('quantity').notNull(),
    price: numeric('price', { precision: 12, scale: 2 }).notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    variantId: uuid('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId, t.position)],
);

/**
 * Webhook deliveries already taken (source + the sender's event id): a second delivery does nothing. Kept 30 days
 * (senders retry for hours, not weeks), then forgotten (`forgetOldWebhookEvents`).
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    source: text('source').notNull(),
    eventId: text('event_id').notNull(),
    topic: text('topic').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.eventId] }), index('webhook_events_received_idx').on(t.receivedAt)],
);

/**
 * Where a printer sends a workspace's webhooks: the receiver's URL names this row's id, and the secret the printer
 * signs with (from its webhook set-up) is kept encrypted. One per workspace and provider (sandbox or printful).
 */
export const fulfillmentWebhooks = pgTable(
  'fulfillment_webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    provider: text('provider').notNull(),
    secretEnc: text('secret_enc').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('fulfillment_webhooks_workspace_provider_uq').on(t.workspaceId, t.provider)],
);

/**
 * The built-in Printful sandbox's orders (integrations/printful/fake-orders.ts with a database store): kept in
 * the database so a restart loses nothing. `store_id` is the workspace the sandbox serves.
 */
export const printfulSandboxOrders = pgTable(
  'printful_sandbox_orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    storeId: text('store_id').notNull(),
    externalId: text('external_id').notNull(),
    status: text('status').notNull(),
    /** The whole order as the sandbox answers it (items, costs, shipments), its recipient sealed as `recipient_enc`. */
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    /** When the sandbox moves it on next (in production, shipped, delivered). */
    nextAt: timestamp('next_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('printful_sandbox_orders_store_external_uq').on(t.storeId, t.externalId),
    index('printful_sandbox_orders_next_idx').on(t.nextAt),
  ],
);

/** The sandbox's webhook configuration per store (POST /v2/webhooks): URL, events and the signing secret (sealed). */
export const printfulSandboxWebhooks = pgTable('printful_sandbox_webhooks', {
  storeId: text('store_id').primaryKey(),
  url: text('url').notNull(),
  events: jsonb('events').$type<string[]>().notNull(),
  secretKey: text('secret_key').notNull(),
  publicKey: text('public_key').notNull(),
});

/**
 * The built-in Printify sandbox's records (integrations/printify/fake-server.ts with a database store): orders,
 * products, uploads and webhooks per shop (a workspace), as the fake answers them, so a restart loses nothing. An
 * order's `address_to` is sealed as `address_enc`, a webhook's secret as `secret_enc`.
 */
export const printifySandboxRecords = pgTable(
  'printify_sandbox_records',
  {
    seq: integer('seq').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: ['order', 'product', 'upload', 'webhook'] }).notNull(),
    shopId: text('shop_id').notNull(),
    id: text('id').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    /** When the sandbox moves an order on next. */
    nextAt: timestamp('next_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('printify_sandbox_records_uq').on(t.kind, t.shopId, t.id),
    index('printify_sandbox_records_next_idx').on(t.nextAt),
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

/**
 * Shopify webhook deliveries, one row per event (X-Shopify-Event-Id): a duplicate delivery finds the row and adds
 * nothing. Not workspace-scoped: an event is the shop's, and its handlers find the workspaces that connected the
 * shop. The row's id is the id of the job that handles it.
 */
export const shopifyWebhookEvents = pgTable(
  'shopify_webhook_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: text('event_id').notNull(),
    webhookId: text('webhook_id'),
    topic: text('topic').notNull(),
    shop: text('shop').notNull(),
    /** Only rows recorded before payloads were encrypted; emptied once processed. */
    payload: jsonb('payload'),
    /**
     * AES-256-GCM ciphertext of the JSON body (orders carry buyers' names and addresses), kept only until the event
     * is processed: a processed row keeps its ids for recognising duplicates, no payload.
     */
    payloadEnc: text('payload_enc'),
    triggeredAt: timestamp('triggered_at', { withTimezone: true }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('shopify_webhook_events_event_uq').on(t.eventId),
    index('shopify_webhook_events_received_idx').on(t.receivedAt),
  ],
);

/**
 * The built-in Shopify sandbox's own state (integrations/shopify/fake-state.ts): its shops' products and the
 * tokens it issued (by SHA-256), as JSON. It is the sandbox's data, not a workspace's: a sandbox shop is reached
 * only through a workspace's connected integration, and the sandbox page shows a workspace only what it pushed.
 */
export const shopifySandboxRecords = pgTable(
  'shopify_sandbox_records',
  {
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);

/**
 * What a store connection needs beyond its token (Etsy: shop, shipping and processing profiles and production
 * partner chosen at connect; WooCommerce: the order webhook's id and its secret, encrypted). One row per integration.
 */
export const storeSettings = pgTable('store_settings', {
  integrationId: uuid('integration_id')
    .primaryKey()
    .references(() => integrations.id, { onDelete: 'cascade' }),
  workspaceId: workspaceId(),
  data: jsonb('data').notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The built-in Etsy and WooCommerce sandboxes' state (their shops, listings and keys), one JSON value per platform,
 * so a restart keeps what was pushed to them. Not workspace data: each sandbox is shared by the instance's
 * workspaces, and what each workspace sees is filtered by its own publications.
 */
export const sandboxStates = pgTable('sandbox_states', {
  platform: text('platform').primaryKey(),
  state: jsonb('state').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Our integer ids for Gelato's string product ids (productUids, and their groups as catalogue products): catalogue
 * and product variant ids are integers here, Gelato's are strings. Gelato's catalogue is global, so is this table.
 */
export const gelatoCatalogIds = pgTable('gelato_catalog_ids', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  uid: text('uid').notNull().unique(),
});

/**
 * The built-in Gelato sandbox's orders (integrations/gelato/fake-server.ts with a database store). `account` is the
 * workspace the sandbox serves; one row per Gelato order (a split order is several rows sharing the reference).
 */
export const gelatoSandboxOrders = pgTable(
  'gelato_sandbox_orders',
  {
    id: text('id').primaryKey(),
    account: text('account').notNull(),
    orderReferenceId: text('order_reference_id').notNull(),
    /** The order as the sandbox answers it, its shipping address sealed as `shippingAddress_enc`. */
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    nextAt: timestamp('next_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('gelato_sandbox_orders_ref_idx').on(t.account, t.orderReferenceId),
    index('gelato_sandbox_orders_next_idx').on(t.nextAt),
  ],
);

/** The Gelato sandbox's webhook URL per account (Gelato's dashboard setting). */
export const gelatoSandboxWebhooks = pgTable('gelato_sandbox_webhooks', {
  account: text('account').primaryKey(),
  url: text('url').notNull(),
});

/**
 * A bulk run (`POST /api/bulk`, modules/bulk): what the seller asked for, checked at start; its products are its
 * items. `attempt` counts the jobs sent for it (a retry of failures sends the next).
 */
export const bulkRuns = pgTable('bulk_runs', {
  id: uuid('id').primaryKey().defaultRandom(),
  workspaceId: workspaceId(),
  request: jsonb('request').notNull(),
  /** 'failed': its job gave up (retries spent, or it died) with products still to make or push; `error` says why. */
  status: text('status', { enum: ['running', 'done', 'failed'] })
    .notNull()
    .default('running'),
  error: text('error'),
  attempt: integer('attempt').notNull().default(1),
  /** When the current attempt was started (the run, or its last retry): the pace of its making is reckoned from it. */
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  createdAt: createdAt(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  /** The slice of the current attempt being worked: each job works a bounded slice of the run, then sends the next. */
  slice: integer('slice').notNull().default(0),
  /**
   * The job attempt working the run and until when its claim holds (renewed while it works): a second attempt of
   * the job (pg-boss retries one that outlived its expiry) waits for the claim instead of working the run twice.
   */
  claimedBy: uuid('claimed_by'),
  claimedUntil: timestamp('claimed_until', { withTimezone: true }),
});

/**
 * One design x blank of a bulk run, recorded as it is made so a run killed mid-way resumes where it stopped: the
 * mockups made per colour, the listing text written, the id its product is made under, and the product once made.
 */
export const bulkItems = pgTable(
  'bulk_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    runId: uuid('run_id')
      .notNull()
      .references(() => bulkRuns.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    designId: uuid('design_id')
      .notNull()
      .references(() => designs.id, { onDelete: 'cascade' }),
    catalogProductId: integer('catalog_product_id').notNull(),
    status: text('status', { enum: ['pending', 'running', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    /** Catalogue colour -> the mockup made for it. */
    mockupIds: jsonb('mockup_ids').$type<Record<string, string>>().notNull().default({}),
    listing: jsonb('listing').$type<{ title: string; description: string; tags: string[] }>(),
    /** The id the product is made under, recorded before it is inserted: a resumed run finds it made. */
    plannedProductId: uuid('planned_product_id'),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    error: text('error'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('bulk_items_run_design_blank_idx').on(t.runId, t.designId, t.catalogProductId),
    index('bulk_items_run_position_idx').on(t.runId, t.position),
  ],
);

/**
 * One store push (or scheduled upload) of a bulk item's product: pending until the product is made, then pushed
 * through the store push job, one at a time per run. `startedAt`/`finishedAt` time each push: the run's pace per
 * store, from which its expected finish is reckoned.
 */
export const bulkPushes = pgTable(
  'bulk_pushes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceId(),
    runId: uuid('run_id')
      .notNull()
      .references(() => bulkRuns.id, { onDelete: 'cascade' }),
    itemId: uuid('item_id')
      .notNull()
      .references(() => bulkItems.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** The store's place in the seller's list: pushes of one product go in that order. */
    position: integer('position').notNull(),
    status: text('status', { enum: ['pending', 'pushing', 'pushed', 'scheduled', 'failed'] })
      .notNull()
      .default('pending'),
    remoteUrl: text('remote_url'),
    scheduleId: uuid('schedule_id'),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('bulk_pushes_item_store_idx').on(t.itemId, t.integrationId),
    index('bulk_pushes_run_idx').on(t.runId),
  ],
);

/**
 * A call budget shared by every instance (not a workspace's: e.g. `etsy:<keystring>`, Etsy's calls per second of
 * one app): the instants the last calls were given to send at (epoch ms by the database's clock, so instances with
 * different clocks agree), and until when the service said its daily budget is spent.
 */
export const callBudgets = pgTable('call_budgets', {
  key: text('key').primaryKey(),
  sent: bigint('sent', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
  spentUntil: timestamp('spent_until', { withTimezone: true }),
});
