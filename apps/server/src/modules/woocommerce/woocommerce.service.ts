import {
  DEFAULT_TEST_ADDRESS,
  ErrorCode,
  listingProblems,
  type TConnectResult,
  type TSandboxOrderInput,
  type TWooConnectBody,
  type TWooSandboxProducts,
} from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { DecodePool } from '../../decode/decode-pool';
import {
  WooClient,
  type WooClient as WooClientType,
  type WooCredentials,
  WooError,
  type WooVariationInput,
  type WpCredentials,
} from '../../integrations/woocommerce/client';
import { type FakeWoo, startFakeWooCommerce, type WooFakeState } from '../../integrations/woocommerce/fake-server';
import { fromWooOrder, PAID } from '../../integrations/woocommerce/mapping';
import { randomToken, type TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, upstreamError } from '../../lib/errors';
import type { UrlSigner } from '../../lib/signed-urls';
import { UUID } from '../../lib/uuid';
import { forgetOldWebhookEvents, rememberWebhookEvent, webhookEventSeen } from '../../lib/webhook-events.repository';
import type { Storage } from '../../storage/storage';
import { findIntegration } from '../integrations/integrations.repository';
import { mockupFileById } from '../mockups/mockup-files';
import type { IncomingOrder } from '../stores/incoming-order';
import { resumeOrCreate } from '../stores/resume-or-create';
import { SandboxState } from '../stores/sandbox-state';
import {
  deleteStoreConnection,
  disconnectStore,
  mergeStoreSettings,
  publishedRemoteIds,
  sandboxListingsOf,
  storeSettingsOf,
  storesOfWorkspace,
  storeWithSettings,
  upsertStoreConnection,
} from '../stores/store-connections.repository';
import { storeImagePath } from '../stores/store-images';
import { StoreOrderSource, type StorePlatform } from '../stores/store-platform';
import type {
  IntegrationRow,
  PublishContext,
  PublishOutcome,
  PushProduct,
  StoreListing,
  Tracking,
} from '../stores/store-publisher';
import { isStaleImage, type SentPictures, WooMedia } from './woo-media';

/** Sandbox stores live under this reserved name (RFC 2606 `.invalid`), so no real store can be mistaken for one. */
export const WOO_SANDBOX_SUFFIX = '.woo-sandbox.invalid';
/** How long a picture's signed URL stays valid for the store to download it. */
const IMAGE_URL_TTL_SECONDS = 24 * 3600;

type WooSettings = { webhookId?: number; webhookIds?: number[]; webhookSecretEnc?: string };
/** What `access_token_enc` holds for a WooCommerce store (encrypted as a whole). */
type StoredKeys = { key: string; secret: string; wp?: WpCredentials };
/** The WordPress user the sandbox store issues an application password for at connect. */
const SANDBOX_WP_USER = 'podforge';
type Deps = {
  db: Db;
  cipher: TokenCipher;
  config: Config;
  now: () => Date;
  storage: Storage;
  urlSigner: UrlSigner;
  /** Draws a picture's full-size file when the store fetches it before it was drawn (mockups/mockup-files.ts). */
  decodePool: DecodePool;
};

/** A verified order delivery, for whoever keeps orders (the Orders module adds its handler here). */
export type WooOrderEvent = {
  workspaceId: string;
  integrationId: string;
  topic: 'order.created' | 'order.updated';
  /** `X-WC-Webhook-Delivery-ID`: the same id again is the same delivery retried. */
  deliveryId: string | null;
  order: {
    id: number;
    number?: string;
    currency?: string;
    total?: string;
    date_created?: string;
    line_items?: { sku?: string; quantity?: number; price?: number | string }[];
  };
};

const isPrivateHost = (host: string) =>
  host === 'localhost' ||
  host.endsWith('.localhost') ||
  host.endsWith('.local') ||
  /^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.|\[::1\]|\[f[cd])/.test(host);

/**
 * WooCommerce stores of a workspace: connect with the store's address and REST keys (checked by a call before
 * anything is saved), product pushes (the StorePlatform for 'woocommerce'), and verified `order.created` webhooks.
 * A seller without a store connects the built-in sandbox store: the fake WooCommerce the tests use, started in this
 * process and kept in the database.
 */
export class WooCommerceService extends StoreOrderSource implements StorePlatform {
  readonly platform = 'woocommerce' as const;
  private sandbox: Promise<FakeWoo> | null = null;
  private sandboxState: SandboxState<WooFakeState> | null = null;
  private clientInstance: WooClientType | null = null;
  /** This app's own address once it listens (pictures are fetched from it when APP_URL is not set). */
  selfUrl: string | null = null;
  readonly media: WooMedia;

  constructor(private readonly deps: Deps) {
    super();
    this.media = new WooMedia(deps.db, () => this.client());
  }

  sandboxServer(): Promise<FakeWoo> {
    this.sandbox ??= (async () => {
      this.sandboxState = new SandboxState<WooFakeState>(
        this.deps.db,
        this.deps.storage,
        'woocommerce',
        this.deps.cipher,
      );
      const keeper = this.sandboxState;
      return startFakeWooCommerce({
        state: await keeper.load(),
        persist: (s) => keeper.save(s),
        images: keeper.images,
      });
    })();
    return this.sandbox;
  }

  /**
   * One client: sandbox stores go to the in-process sandbox (started with the client), real ones to their own
   * address (WOOCOMMERCE_STORE_BASE_URL, `https://{host}` unless tests point it at a fake).
   */
  async client(): Promise<WooClientType> {
    if (this.clientInstance) return this.clientInstance;
    const fake = await this.sandboxServer();
    const template = this.deps.config.wooStoreBaseUrl;
    this.clientInstance ??= new WooClient({
      baseFor: (storeUrl) => {
        const url = new URL(storeUrl);
        if (url.host.endsWith(WOO_SANDBOX_SUFFIX)) return fake.baseFor(storeUrl);
        return `${template.replace('{host}', url.host)}${url.pathname.replace(/\/+$/, '')}`;
      },
    });
    return this.clientInstance;
  }

  async close() {
    const fake = await this.sandbox?.catch(() => null);
    await fake?.close();
    await this.sandboxState?.flush();
  }

  private creds(row: IntegrationRow): WooCredentials {
    if (row.status !== 'connected' || !row.accessTokenEnc) {
      throw new AppError(
        409,
        ErrorCode.Conflict,
        `${row.storeName ?? 'The WooCommerce store'} is not connected. Connect it in Integrations first.`,
      );
    }
    const keys = JSON.parse(this.deps.cipher.decrypt(row.accessTokenEnc)) as StoredKeys;
    return { storeUrl: row.externalId, consumerKey: keys.key, consumerSecret: keys.secret, wordpress: keys.wp ?? null };
  }

  /** Whether pictures can go to this store's media library (an application password was given at connect). */
  private canUpload(row: IntegrationRow): boolean {
    if (row.status !== 'connected' || !row.accessTokenEnc) return false;
    return Boolean((JSON.parse(this.deps.cipher.decrypt(row.accessTokenEnc)) as StoredKeys).wp);
  }

  /**
   * `POST /api/woocommerce/connect`: the keys are tried (an authenticated read) before anything is saved; then the
   * store row and `order.created` / `order.updated` webhooks signed with a secret of our own. A WordPress username
   * and application password, when given, are proved the same way (`/wp/v2/users/me`: the user must be allowed to
   * upload files) and kept encrypted with the keys. With `{ sandbox: true }` the workspace's sandbox store is made
   * (or found) and connected the same way, with an application password it issues.
   */
  async connect(workspaceId: string, body: TWooConnectBody, origin: string): Promise<TConnectResult> {
    const client = await this.client();
    let creds: WooCredentials;
    const sandbox = 'sandbox' in body;
    if ('sandbox' in body) {
      const fake = await this.sandboxServer();
      // The workspace's own store, named by its whole id (two workspaces never share one). A store made before
      // was named by the id's first 8 digits: the workspace keeps it.
      const [made] = await storesOfWorkspace(this.deps.db, workspaceId, 'woocommerce', { sandbox: true });
      const host = made ? new URL(made.externalId).host : `ws-${workspaceId}${WOO_SANDBOX_SUFFIX}`;
      const keys = fake.createStore(host, 'Podforge Sandbox Store');
      const appPassword = fake.createAppPassword(host, SANDBOX_WP_USER);
      creds = {
        storeUrl: `https://${host}`,
        consumerKey: keys.consumerKey,
        consumerSecret: keys.consumerSecret,
        wordpress: { username: SANDBOX_WP_USER, appPassword },
      };
    } else {
      if (new URL(body.storeUrl).host.endsWith('.invalid')) throw badRequest('storeUrl: not a store address');
      creds = {
        storeUrl: body.storeUrl,
        consumerKey: body.consumerKey,
        consumerSecret: body.consumerSecret,
        wordpress:
          body.wpUsername && body.wpAppPassword ? { username: body.wpUsername, appPassword: body.wpAppPassword } : null,
      };
    }
    try {
      await client.verify(creds);
    } catch (error) {
      if (error instanceof WooError && (error.status === 401 || error.status === 403))
        throw badRequest(`consumerKey: the store refused these keys (${error.message.replace(/^WooCommerce: /, '')})`);
      if (error instanceof WooError && error.status === 404)
        throw badRequest('storeUrl: no WooCommerce REST API answers at this address');
      throw upstreamError(error instanceof Error ? error.message : 'The store could not be reached');
    }
    if (creds.wordpress) await this.verifyWordPress(client, creds);
    const name = await client.siteName(creds.storeUrl);
    const { db, cipher, now } = this.deps;
    const values = {
      storeName: sandbox ? `${name} (Sandbox)` : name,
      accessTokenEnc: cipher.encrypt(
        JSON.stringify({
          key: creds.consumerKey,
          secret: creds.consumerSecret,
          ...(creds.wordpress ? { wp: creds.wordpress } : {}),
        } satisfies StoredKeys),
      ),
      refreshTokenEnc: null,
      scopes: 'read_write',
      status: 'connected' as const,
      verifiedAt: now(),
      sandbox,
    };
    const row = await upsertStoreConnection(
      db,
      { workspaceId, platform: 'woocommerce', externalId: creds.storeUrl },
      values,
    );
    if (!row) throw upstreamError('The store could not be saved');
    const previous = (await storeSettingsOf(db, row.id)) as WooSettings | undefined;
    const oldHooks = previous?.webhookIds ?? [];
    const secret = randomToken(32);
    try {
      const hooks: number[] = [];
      // order.updated too: a store that takes payment after checkout creates the order 'pending' and only an
      // update says it is paid (processing), or cancelled.
      for (const topic of ['order.created', 'order.updated']) {
        const hook = await client.createWebhook(creds, {
          name: `Podforge ${topic}`,
          topic,
          // The sandbox store runs in this process: it delivers to this app's own address.
          deliveryUrl: `${(sandbox ? this.selfUrl : null) ?? this.deps.config.appUrl ?? origin}/api/webhooks/woocommerce/${row.id}`,
          secret,
        });
        hooks.push(hook.id);
      }
      const data: WooSettings = { webhookId: hooks[0], webhookIds: hooks, webhookSecretEnc: cipher.encrypt(secret) };
      // Keeps what else the row holds (the pictures' media ids).
      await mergeStoreSettings(db, row, data, now());
      // Connected again: the webhooks of the last connect sign with the old secret; they go (best effort).
      for (const old of oldHooks.filter((h) => !hooks.includes(h)))
        await client.deleteWebhook(creds, old).catch(() => undefined);
    } catch (error) {
      // Nothing half-made: keys that cannot write (a webhook needs Read/Write) leave no store behind.
      await deleteStoreConnection(db, row);
      if (error instanceof WooError && (error.status === 401 || error.status === 403))
        throw badRequest('consumerKey: these keys cannot write; create keys with Read/Write permission');
      throw upstreamError(error instanceof Error ? error.message : 'The store refused the order webhook');
    }
    return { success: true, integrationId: row.id, sandbox };
  }

  /** The application password's user must exist, sign in and be allowed to upload files. */
  private async verifyWordPress(client: WooClientType, creds: WooCredentials) {
    let user: Awaited<ReturnType<WooClientType['wpMe']>>;
    try {
      user = await client.wpMe(creds);
    } catch (error) {
      if (error instanceof WooError && (error.status === 401 || error.status === 403))
        throw badRequest(
          `wpAppPassword: WordPress refused this username and application password (${error.message.replace(/^WordPress: /, '')})`,
        );
      if (error instanceof WooError && error.status === 404)
        throw badRequest('wpAppPassword: the store’s WordPress REST API (/wp-json/wp/v2/) does not answer');
      throw upstreamError(error instanceof Error ? error.message : 'The store could not be reached');
    }
    if (user.capabilities && user.capabilities.upload_files !== true)
      throw badRequest(
        `wpUsername: ${user.name} may not upload files to the media library; use a user who can (e.g. a Shop manager)`,
      );
  }

  store(workspaceId: string, id: string): Promise<IntegrationRow> {
    return findIntegration(this.deps.db, workspaceId, id, 'woocommerce');
  }

  async disconnect(workspaceId: string, id: string) {
    return disconnectStore(this.deps.db, await this.store(workspaceId, id), {
      status: 'disconnected',
      accessTokenEnc: null,
      verifiedAt: null,
    });
  }

  /** The public base the store downloads pictures from: APP_URL, else (sandbox only) this app's own address. */
  private imageBase(store: IntegrationRow): string | null {
    const base = this.deps.config.appUrl ?? (store.sandbox ? this.selfUrl : null);
    if (!base) return null;
    if (store.sandbox) return base;
    const url = new URL(base);
    return url.protocol === 'https:' && !isPrivateHost(url.hostname) ? base : null;
  }

  async problems(store: IntegrationRow, product: PushProduct): Promise<string[]> {
    const problems = listingProblems({ title: product.title, tags: product.tags, platform: 'woocommerce' });
    if (product.images.length > 0 && !this.imageBase(store) && !this.canUpload(store))
      problems.push(
        store.sandbox
          ? 'This app’s address is not known yet for the sandbox store to fetch pictures from; try again shortly.'
          : 'The store cannot get the pictures: this app’s address is not public https (APP_URL), so the store cannot download them, and no WordPress application password was given to upload them to its media library. Either set APP_URL to the app’s public https address, or connect the store again with a WordPress username and application password.',
      );
    if (product.variants.length > 100) problems.push('At most 100 variants go to WooCommerce in one product.');
    return problems;
  }

  private parentSku = (product: PushProduct) => `podforge-${product.id}`;

  /** The pictures for the store (see woo-media.ts): remembered or uploaded media ids, else signed URLs. */
  private pictures(ctx: PublishContext, creds: WooCredentials): Promise<SentPictures> {
    const base = this.imageBase(ctx.store);
    const srcFor = base
      ? (mockupId: string) => `${base}${this.deps.urlSigner.sign(storeImagePath(mockupId), IMAGE_URL_TTL_SECONDS)}`
      : null;
    return this.media.prepare(ctx.store, creds, ctx.product.images, srcFor, ctx.progress);
  }

  /**
   * Creates or updates the product with its pictures; an `images[].id` the store no longer holds as an image
   * (deleted from its media library) is forgotten and the pictures are sent again, once.
   */
  private async writeProduct(ctx: PublishContext, creds: WooCredentials, productId: number | null) {
    const client = await this.client();
    for (let attempt = 0; ; attempt++) {
      const sent = await this.pictures(ctx, creds);
      // A new product is a draft until its variations exist (a failed batch leaves nothing unbuyable live).
      const input = this.productInput(ctx.product, sent);
      try {
        const answer =
          productId === null
            ? await client.createProduct(creds, { ...input, status: 'draft' })
            : await client.updateProduct(creds, productId, input);
        await this.media.rememberAnswer(ctx.store, sent, answer.images);
        return answer;
      } catch (error) {
        if (attempt > 0 || !isStaleImage(error)) throw error;
        await this.media.forget(
          ctx.store.id,
          ctx.product.images.map((i) => i.mockupId),
        );
      }
    }
  }

  private productInput(product: PushProduct, sent: SentPictures) {
    const colors = [...new Set(product.variants.map((v) => v.color).filter((c): c is string => Boolean(c)))];
    const sizes = [
      ...new Set(
        product.variants.map((v) => v.size ?? (v.color ? null : v.option)).filter((s): s is string => Boolean(s)),
      ),
    ];
    const attributes = [
      ...(colors.length > 0 ? [{ name: 'Color', position: 0, visible: true, variation: true, options: colors }] : []),
      ...(sizes.length > 0 ? [{ name: 'Size', position: 1, visible: true, variation: true, options: sizes }] : []),
    ];
    return {
      name: product.title,
      type: 'variable' as const,
      description: product.description,
      sku: this.parentSku(product),
      tags: product.tags.map((name) => ({ name })),
      images: sent.images,
      attributes,
    };
  }

  async publish(ctx: PublishContext): Promise<PublishOutcome> {
    const creds = this.creds(ctx.store);
    const client = await this.client();
    const { remoteId, created } = await resumeOrCreate(ctx, {
      exists: (id) =>
        client.getProduct(creds, Number(id)).then(
          () => true,
          (e: unknown) => {
            if (e instanceof WooError && e.status === 404) return false;
            throw e;
          },
        ),
      // A create whose answer was lost made a product with our SKU: carry on with it.
      findLost: async () => {
        const [lost] = await client.productsBySku(creds, this.parentSku(ctx.product));
        return lost ? String(lost.id) : null;
      },
      creating: 'Creating the product',
      create: async () => {
        const made = await this.writeProduct(ctx, creds, null);
        return { remoteId: String(made.id), made };
      },
    });
    if (created) return this.syncVariations(ctx, creds, created.id, created.images);
    return this.sync(ctx, creds, Number(remoteId));
  }

  update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome> {
    return this.sync(ctx, this.creds(ctx.store), Number(ctx.remoteProductId));
  }

  async remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void> {
    const client = await this.client();
    const creds = this.creds(ctx.store);
    try {
      if (mode === 'delete') await client.deleteProduct(creds, Number(ctx.remoteProductId), true);
      else await client.updateProduct(creds, Number(ctx.remoteProductId), { status: 'draft' });
    } catch (error) {
      if (error instanceof WooError && error.status === 404) return;
      throw error;
    }
  }

  private async sync(ctx: PublishContext, creds: WooCredentials, productId: number): Promise<PublishOutcome> {
    const updated = await this.writeProduct(ctx, creds, productId);
    return this.syncVariations(ctx, creds, productId, updated.images);
  }

  /** Variations by SKU: new ones created, existing ones repriced, the rest deleted; each colour gets its picture. */
  private async syncVariations(
    ctx: PublishContext,
    creds: WooCredentials,
    productId: number,
    images: { id: number; src: string }[],
  ): Promise<PublishOutcome> {
    const client = await this.client();
    const { product } = ctx;
    const imageFor = (color: string | null) => {
      const index = product.images.findIndex((i) => i.color !== null && i.color === color);
      const image = index >= 0 ? images[index] : undefined;
      return image ? { id: image.id } : undefined;
    };
    await ctx.progress?.('Writing variations');
    const existing = await client.variations(creds, productId);
    const bySku = new Map(existing.map((v) => [v.sku, v]));
    const wanted = new Set(product.variants.map((v) => v.sku));
    const input = (v: PushProduct['variants'][number]): WooVariationInput => {
      const image = imageFor(v.color);
      return {
        sku: v.sku,
        // WooCommerce takes prices as strings; numeric columns arrive as decimal strings already.
        regular_price: Number(v.price).toFixed(2),
        attributes: [
          ...(v.color ? [{ name: 'Color', option: v.color }] : []),
          ...((v.size ?? (v.color ? null : v.option)) ? [{ name: 'Size', option: v.size ?? v.option }] : []),
        ],
        manage_stock: false,
        ...(image ? { image } : {}),
      };
    };
    await client.batchVariations(creds, productId, {
      create: product.variants.filter((v) => !bySku.has(v.sku)).map(input),
      update: product.variants.flatMap((v) => {
        const found = bySku.get(v.sku);
        return found ? [{ ...input(v), id: found.id }] : [];
      }),
      delete: existing.filter((v) => !wanted.has(v.sku)).map((v) => v.id),
    });
    let final = await client.getProduct(creds, productId);
    // Live only now that the variations are there (made as a draft; a retry after a failed batch publishes it).
    if (final.status !== 'publish') final = await client.updateProduct(creds, productId, { status: 'publish' });
    const remoteUrl = ctx.store.sandbox ? `/integrations/woocommerce-sandbox#${productId}` : final.permalink;
    return { remoteProductId: String(productId), remoteUrl };
  }

  /**
   * WooCommerce has no limit of its own; the host answers each call (a picture each is fetched by the store from
   * us): one product a second spares a shared host.
   */
  pushPaceSeconds(): number {
    return 1;
  }

  toAppError(error: unknown): unknown {
    if (error instanceof AppError) return error;
    if (error instanceof WooError) {
      // The store (or its host) limits calls: the seller tries again later, as with the other stores.
      if (error.status === 429) return new AppError(503, ErrorCode.RateLimited, error.message);
      const wordpress = error.message.startsWith('WordPress');
      if (error.status === 401 || error.status === 403)
        return upstreamError(
          wordpress
            ? `${error.message}; connect the store again with a WordPress user who may upload files and a valid application password`
            : `${error.message}; connect the store again with Read/Write keys`,
        );
      return upstreamError(
        error.message.startsWith('WooCommerce') || wordpress ? error.message : `WooCommerce: ${error.message}`,
      );
    }
    return error;
  }

  /**
   * A shipped order back to the store: the tracking as a customer note (WooCommerce emails it to the buyer), then
   * the order 'completed'. Done once: a note with the same text is not added again, a completed order not updated.
   * Answers the note's id. A refusal (the order deleted, keys revoked) is final: 409 with the store's reason.
   */
  async fulfilOrder(
    row: IntegrationRow,
    remoteOrderId: string,
    tracking: { carrier: string | null; number: string | null; url: string | null },
  ): Promise<string> {
    const creds = this.creds(row);
    const client = await this.client();
    const id = Number(remoteOrderId);
    const text = [
      `Your order has shipped${tracking.carrier ? ` with ${tracking.carrier}` : ''}.`,
      tracking.number ? `Tracking number: ${tracking.number}.` : null,
      tracking.url ? `Track it at ${tracking.url}` : null,
    ]
      .filter(Boolean)
      .join(' ');
    try {
      const notes = await client.orderNotes(creds, id);
      const note =
        notes.find((n) => n.note === text) ??
        (await client.addOrderNote(creds, id, { note: text, customer_note: true }));
      const order = await client.getOrder(creds, id);
      if (!['completed', 'cancelled', 'refunded', 'trash'].includes(order.status))
        await client.updateOrder(creds, id, { status: 'completed' });
      return `note:${note.id}`;
    } catch (error) {
      if (error instanceof WooError && error.status >= 400 && error.status < 500 && error.status !== 429)
        throw new AppError(409, ErrorCode.Conflict, error.message);
      throw error;
    }
  }

  /** The keys still read the store (the same call connect proves them with). */
  async verify(row: IntegrationRow): Promise<void> {
    await (await this.client()).verify(this.creds(row));
  }

  /** The port's drift read: each product and its variations' SKUs and prices; a deleted one is null. */
  async listings(row: IntegrationRow, remoteProductIds: string[]): Promise<(StoreListing | null)[]> {
    const creds = this.creds(row);
    const client = await this.client();
    const out: (StoreListing | null)[] = [];
    for (const id of remoteProductIds) {
      try {
        const product = await client.getProduct(creds, Number(id));
        const variations = await client.variations(creds, product.id);
        out.push({
          remoteProductId: String(product.id),
          title: product.name,
          visible: product.status === 'publish',
          variants: variations.map((v) => ({ sku: v.sku || null, price: v.regular_price })),
        });
      } catch (error) {
        if (!(error instanceof WooError && error.status === 404)) throw error;
        out.push(null);
      }
    }
    return out;
  }

  /** The port's order read: orders changed since `since` (every page), the paid and the cancelled ones. */
  async readOrders(row: IntegrationRow, since: Date): Promise<IncomingOrder[]> {
    const creds = this.creds(row);
    const client = await this.client();
    const found: IncomingOrder[] = [];
    for (let page = 1; ; page++) {
      const orders = await client.ordersModifiedAfter(creds, since, page);
      for (const payload of orders) {
        const order = fromWooOrder(payload, this.deps.now());
        if (order && (PAID.includes(order.status) || order.cancelled)) found.push(order);
      }
      if (orders.length < 100) return found;
    }
  }

  sendTracking(row: IntegrationRow, remoteOrderId: string, tracking: Tracking): Promise<string> {
    // WooCommerce has no fulfilment object: the tracking goes as a note the customer is sent, then the order
    // is marked completed (woocommerce-rest-api-docs v3: order notes, orders).
    return this.fulfilOrder(row, remoteOrderId, tracking);
  }

  /** The webhook secret of a store, or null (unknown store, or none made). */
  async webhookSecret(integrationId: string): Promise<{ row: IntegrationRow; secret: string } | null> {
    if (!UUID.test(integrationId)) return null;
    const found = await storeWithSettings(this.deps.db, 'woocommerce', integrationId);
    const data = found?.data as WooSettings | undefined;
    if (!found || !data?.webhookSecretEnc) return null;
    return { row: found.row, secret: this.deps.cipher.decrypt(data.webhookSecretEnc) };
  }

  /**
   * A verified delivery (`order.created`, `order.updated`): the order mapped (integrations/woocommerce/mapping.ts) and
   * handed to the order intake; a paid one ('processing', 'completed') is taken, a cancelled or refunded one cancels
   * what has not gone into production, an unpaid one ('pending', 'on-hold') waits for the update that says paid. The
   * same delivery again (WooCommerce retries one it thinks failed) is dropped; a delivery is recorded once taken, so
   * one that failed half-way is taken again when the store retries it.
   */
  async webhook(row: IntegrationRow, topic: string, payload: unknown, deliveryId: string | null = null) {
    if ((topic !== 'order.created' && topic !== 'order.updated') || row.status === 'disconnected') return;
    const order = payload as WooOrderEvent['order'];
    if (typeof order?.id !== 'number') return;
    const key = deliveryId ? `${row.id}:${deliveryId}` : null;
    if (key && (await webhookEventSeen(this.deps.db, 'woocommerce', key))) return;
    const incoming = fromWooOrder(order, this.deps.now());
    if (incoming && (PAID.includes(incoming.status) || incoming.cancelled)) {
      await this.intake().take({ store: row, orders: [incoming], via: 'delivered' });
    }
    if (key) {
      await rememberWebhookEvent(this.deps.db, { source: 'woocommerce', eventId: key, topic });
      await forgetOldWebhookEvents(this.deps);
    }
  }

  /** A product picture by its signed URL (the store downloads it without our cookie). */
  async storeImage(mockupId: string, expires: unknown, signature: unknown): Promise<Buffer | null> {
    if (!UUID.test(mockupId)) return null;
    if (this.deps.urlSigner.verify(storeImagePath(mockupId), expires, signature) !== 'ok') return null;
    return mockupFileById(this.deps, mockupId);
  }

  /** What this workspace's sandbox stores hold (products it pushed), read through the same client. */
  async sandboxProducts(workspaceId: string): Promise<TWooSandboxProducts> {
    const rows = await storesOfWorkspace(this.deps.db, workspaceId, 'woocommerce', {
      sandbox: true,
      statuses: ['connected'],
    });
    const client = await this.client();
    const stores = [];
    for (const row of rows) {
      const creds = this.creds(row);
      const mine = await publishedRemoteIds(this.deps.db, row);
      const products = [];
      for (const remoteProductId of mine) {
        try {
          const p = await client.getProduct(creds, Number(remoteProductId));
          const variations = await client.variations(creds, p.id);
          const local = (src: string) => `/api/woocommerce/sandbox/images/${/(\d+)\.png$/.exec(src)?.[1] ?? '0'}`;
          products.push({
            id: p.id,
            name: p.name,
            status: p.status,
            type: p.type,
            permalink: p.permalink,
            tags: p.tags.map((t) => t.name),
            attributes: p.attributes.map((a) => ({ name: a.name, options: a.options })),
            images: p.images.map((i) => ({ id: i.id, src: local(i.src) })),
            variations: variations.map((v) => ({
              id: v.id,
              sku: v.sku,
              regular_price: v.regular_price,
              attributes: v.attributes.map((a) => ({ name: a.name, option: a.option })),
              image: v.image ? { id: v.image.id, src: local(v.image.src) } : null,
            })),
          });
        } catch (error) {
          if (error instanceof WooError && error.status === 404) continue;
          throw this.toAppError(error);
        }
      }
      stores.push({ integrationId: row.id, url: row.externalId, name: row.storeName ?? row.externalId, products });
    }
    return { sandbox: true, stores };
  }

  /**
   * `POST /api/woocommerce/sandbox/orders`: a buyer's paid order in the workspace's sandbox store, for SKUs it sells;
   * the store sends `order.created`, signed, to this app as a real store would.
   */
  async placeSandboxOrder(workspaceId: string, input: TSandboxOrderInput) {
    const row = await this.store(workspaceId, input.integrationId);
    if (!row.sandbox || row.status !== 'connected')
      throw new AppError(
        409,
        ErrorCode.Conflict,
        `${row.storeName ?? row.externalId} is not a connected sandbox store`,
      );
    if (!this.selfUrl)
      throw upstreamError('This app’s address is not known yet for the sandbox store; try again shortly');
    const fake = await this.sandboxServer();
    const host = new URL(row.externalId).host;
    const sold = fake.products(host).flatMap((p) => p.variations.map((v) => v.sku));
    const unknown = input.lines.find((l) => !sold.includes(l.sku));
    if (unknown) throw badRequest(`SKU ${unknown.sku} is not sold in ${row.storeName}; push the product there first`);
    const a = input.address ?? DEFAULT_TEST_ADDRESS;
    const [first, ...rest] = a.name.trim().split(/\s+/);
    const placed = await fake.placeOrder(host, {
      lineItems: input.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
      shipping: {
        first_name: first ?? '',
        last_name: rest.join(' '),
        address_1: a.address1,
        address_2: a.address2 ?? '',
        city: a.city,
        state: a.provinceCode ?? '',
        postcode: a.zip,
        country: a.countryCode,
        phone: a.phone ?? '',
      },
    });
    const refused = placed.deliveries.find((d) => d.status !== 200);
    if (refused) throw upstreamError(`The order was placed, but its webhook was answered ${refused.status}`);
    const order = fake.orders(host).find((o) => o.id === placed.orderId);
    return {
      remoteOrderId: String(placed.orderId),
      name: `#${order?.number ?? placed.orderId}`,
      total: order?.total ?? '0.00',
      currency: order?.currency ?? 'USD',
    };
  }

  /** A sandbox picture's bytes for the sandbox page: only a picture of a product this workspace pushed there. */
  async sandboxImage(workspaceId: string, imageId: number): Promise<Buffer | null> {
    const fake = await this.sandboxServer();
    const rows = await sandboxListingsOf(this.deps.db, workspaceId, 'woocommerce');
    const ours = rows.some((r) =>
      fake
        .products(new URL(r.storeUrl).host)
        .some(
          (p) =>
            String(p.id) === r.remoteProductId &&
            (p.images.some((i) => i.id === imageId) || p.variations.some((v) => v.image?.id === imageId)),
        ),
    );
    if (!ours || !this.sandboxState) return null;
    return this.sandboxState.images.get(imageId);
  }
}
