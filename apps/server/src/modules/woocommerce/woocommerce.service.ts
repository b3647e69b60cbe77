import {
  ErrorCode,
  listingProblems,
  type TConnectResult,
  type TWooConnectBody,
  type TWooSandboxProducts,
} from '@podforge/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { integrations, mockups, orders, publications, storeSettings } from '../../db/schema';
import {
  WooClient,
  type WooClient as WooClientType,
  type WooCredentials,
  WooError,
  type WooVariationInput,
} from '../../integrations/woocommerce/client';
import { type FakeWoo, startFakeWooCommerce, type WooFakeState } from '../../integrations/woocommerce/fake-server';
import { randomToken, type TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, upstreamError } from '../../lib/errors';
import type { UrlSigner } from '../../lib/signed-urls';
import { UUID } from '../../lib/uuid';
import type { Storage } from '../../storage/storage';
import { findIntegration } from '../integrations/integrations.repository';
import { SandboxState } from '../stores/sandbox-state';
import type {
  IntegrationRow,
  PublishContext,
  PublishOutcome,
  PushProduct,
  StorePublisher,
} from '../stores/store-publisher';

/** Sandbox stores live under this reserved name (RFC 2606 `.invalid`), so no real store can be mistaken for one. */
export const WOO_SANDBOX_SUFFIX = '.woo-sandbox.invalid';
/** How long a picture's signed URL stays valid for the store to download it. */
const IMAGE_URL_TTL_SECONDS = 24 * 3600;
export const storeImagePath = (mockupId: string) => `/api/store-images/${mockupId}.png`;

type WooSettings = { webhookId?: number; webhookSecretEnc?: string };
type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; storage: Storage; urlSigner: UrlSigner };

/** A verified `order.created` delivery, for whoever keeps orders (the Orders module adds its handler here). */
export type WooOrderEvent = {
  workspaceId: string;
  integrationId: string;
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
 * anything is saved), product pushes (the StorePublisher for 'woocommerce'), and verified `order.created` webhooks.
 * A seller without a store connects the built-in sandbox store: the fake WooCommerce the tests use, started in this
 * process and kept in the database.
 */
export class WooCommerceService implements StorePublisher {
  readonly platform = 'woocommerce' as const;
  private sandbox: Promise<FakeWoo> | null = null;
  private sandboxState: SandboxState<WooFakeState> | null = null;
  private clientInstance: WooClientType | null = null;
  private readonly orderHandlers: ((event: WooOrderEvent) => Promise<void>)[] = [];
  /** This app's own address once it listens (pictures are fetched from it when APP_URL is not set). */
  selfUrl: string | null = null;

  constructor(private readonly deps: Deps) {
    // By default a verified order is kept as an external order (its total counts in the dashboard's sales).
    this.onOrderCreated((event) => this.recordOrder(event));
  }

  /** Adds a handler for verified `order.created` deliveries (feat/orders hooks its orders module in here). */
  onOrderCreated(handler: (event: WooOrderEvent) => Promise<void>) {
    this.orderHandlers.push(handler);
  }

  sandboxServer(): Promise<FakeWoo> {
    this.sandbox ??= (async () => {
      this.sandboxState = new SandboxState<WooFakeState>(this.deps.db, this.deps.storage, 'woocommerce');
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
    const keys = JSON.parse(this.deps.cipher.decrypt(row.accessTokenEnc)) as { key: string; secret: string };
    return { storeUrl: row.externalId, consumerKey: keys.key, consumerSecret: keys.secret };
  }

  /**
   * `POST /api/woocommerce/connect`: the keys are tried (an authenticated read) before anything is saved; then the
   * store row and an `order.created` webhook signed with a secret of our own. With `{ sandbox: true }` the
   * workspace's sandbox store is made (or found) and connected the same way.
   */
  async connect(workspaceId: string, body: TWooConnectBody, origin: string): Promise<TConnectResult> {
    const client = await this.client();
    let creds: WooCredentials;
    const sandbox = 'sandbox' in body;
    if ('sandbox' in body) {
      const fake = await this.sandboxServer();
      const host = `ws-${workspaceId.slice(0, 8)}${WOO_SANDBOX_SUFFIX}`;
      const keys = fake.createStore(host, 'Podforge Sandbox Store');
      creds = { storeUrl: `https://${host}`, consumerKey: keys.consumerKey, consumerSecret: keys.consumerSecret };
    } else {
      if (new URL(body.storeUrl).host.endsWith('.invalid')) throw badRequest('storeUrl: not a store address');
      creds = { storeUrl: body.storeUrl, consumerKey: body.consumerKey, consumerSecret: body.consumerSecret };
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
    const name = await client.siteName(creds.storeUrl);
    const { db, cipher, now } = this.deps;
    const values = {
      storeName: sandbox ? `${name} (Sandbox)` : name,
      accessTokenEnc: cipher.encrypt(JSON.stringify({ key: creds.consumerKey, secret: creds.consumerSecret })),
      refreshTokenEnc: null,
      scopes: 'read_write',
      status: 'connected' as const,
      verifiedAt: now(),
      sandbox,
    };
    const [row] = await db
      .insert(integrations)
      .values({ workspaceId, kind: 'store', platform: 'woocommerce', externalId: creds.storeUrl, ...values })
      .onConflictDoUpdate({
        target: [integrations.workspaceId, integrations.platform, integrations.externalId],
        set: values,
      })
      .returning();
    if (!row) throw upstreamError('The store could not be saved');
    const secret = randomToken(32);
    try {
      const hook = await client.createWebhook(creds, {
        name: 'Podforge orders',
        topic: 'order.created',
        // The sandbox store runs in this process: it delivers to this app's own address.
        deliveryUrl: `${(sandbox ? this.selfUrl : null) ?? this.deps.config.appUrl ?? origin}/api/webhooks/woocommerce/${row.id}`,
        secret,
      });
      const data: WooSettings = { webhookId: hook.id, webhookSecretEnc: cipher.encrypt(secret) };
      await db
        .insert(storeSettings)
        .values({ integrationId: row.id, workspaceId, data, updatedAt: now() })
        .onConflictDoUpdate({ target: storeSettings.integrationId, set: { data, updatedAt: now() } });
    } catch (error) {
      // Nothing half-made: keys that cannot write (a webhook needs Read/Write) leave no store behind.
      await db.delete(integrations).where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, workspaceId)));
      if (error instanceof WooError && (error.status === 401 || error.status === 403))
        throw badRequest('consumerKey: these keys cannot write; create keys with Read/Write permission');
      throw upstreamError(error instanceof Error ? error.message : 'The store refused the order webhook');
    }
    return { success: true, integrationId: row.id, sandbox };
  }

  store(workspaceId: string, id: string): Promise<IntegrationRow> {
    return findIntegration(this.deps.db, workspaceId, id, 'woocommerce');
  }

  async disconnect(workspaceId: string, id: string) {
    const row = await this.store(workspaceId, id);
    await this.deps.db
      .update(integrations)
      .set({ status: 'disconnected', accessTokenEnc: null, verifiedAt: null })
      .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, workspaceId)));
    return { success: true as const, integrationId: row.id };
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
    if (product.images.length > 0 && !this.imageBase(store))
      problems.push(
        store.sandbox
          ? 'This app’s address is not known yet for the sandbox store to fetch pictures from; try again shortly.'
          : 'WooCommerce downloads pictures from this app: set APP_URL to the app’s public https address.',
      );
    if (product.variants.length > 100) problems.push('At most 100 variants go to WooCommerce in one product.');
    return problems;
  }

  private parentSku = (product: PushProduct) => `podforge-${product.id}`;

  private productInput(store: IntegrationRow, product: PushProduct) {
    const base = this.imageBase(store) ?? '';
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
      status: 'publish' as const,
      description: product.description,
      sku: this.parentSku(product),
      tags: product.tags.map((name) => ({ name })),
      images: product.images.map((i) => ({
        src: `${base}${this.deps.urlSigner.sign(storeImagePath(i.mockupId), IMAGE_URL_TTL_SECONDS)}`,
      })),
      attributes,
    };
  }

  async publish(ctx: PublishContext): Promise<PublishOutcome> {
    const creds = this.creds(ctx.store);
    const client = await this.client();
    let productId = ctx.remoteProductId ? Number(ctx.remoteProductId) : null;
    if (productId !== null) {
      const exists = await client.getProduct(creds, productId).then(
        () => true,
        (e: unknown) => {
          if (e instanceof WooError && e.status === 404) return false;
          throw e;
        },
      );
      if (!exists) productId = null;
    }
    if (productId === null) {
      // A create whose answer was lost made a product with our SKU: carry on with it.
      const [lost] = await client.productsBySku(creds, this.parentSku(ctx.product));
      if (lost) {
        productId = lost.id;
        await ctx.saveRemoteId(String(productId));
      }
    }
    if (productId === null) {
      await ctx.progress?.('Creating the product (the store downloads its pictures)');
      const created = await client.createProduct(creds, this.productInput(ctx.store, ctx.product));
      productId = created.id;
      await ctx.saveRemoteId(String(productId));
      return this.syncVariations(ctx, creds, productId, created.images);
    }
    return this.sync(ctx, creds, productId);
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
    const client = await this.client();
    const updated = await client.updateProduct(creds, productId, this.productInput(ctx.store, ctx.product));
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
    const final = await client.getProduct(creds, productId);
    const remoteUrl = ctx.store.sandbox ? `/integrations/woocommerce-sandbox#${productId}` : final.permalink;
    return { remoteProductId: String(productId), remoteUrl };
  }

  toAppError(error: unknown): unknown {
    if (error instanceof AppError) return error;
    if (error instanceof WooError) {
      if (error.status === 401 || error.status === 403)
        return upstreamError(`${error.message}; connect the store again with Read/Write keys`);
      return upstreamError(error.message.startsWith('WooCommerce') ? error.message : `WooCommerce: ${error.message}`);
    }
    return error;
  }

  /** The webhook secret of a store, or null (unknown store, or none made). */
  async webhookSecret(integrationId: string): Promise<{ row: IntegrationRow; secret: string } | null> {
    if (!UUID.test(integrationId)) return null;
    const [found] = await this.deps.db
      .select({ row: integrations, settings: storeSettings })
      .from(integrations)
      .innerJoin(storeSettings, eq(storeSettings.integrationId, integrations.id))
      .where(and(eq(integrations.id, integrationId), eq(integrations.platform, 'woocommerce')));
    const data = found?.settings.data as WooSettings | undefined;
    if (!found || !data?.webhookSecretEnc) return null;
    return { row: found.row, secret: this.deps.cipher.decrypt(data.webhookSecretEnc) };
  }

  /** A verified delivery: `order.created` goes to every order handler. */
  async webhook(row: IntegrationRow, topic: string, payload: unknown) {
    if (topic !== 'order.created' || row.status === 'disconnected') return;
    const order = payload as WooOrderEvent['order'];
    if (typeof order?.id !== 'number') return;
    for (const handler of this.orderHandlers)
      await handler({ workspaceId: row.workspaceId, integrationId: row.id, order });
  }

  private async recordOrder(event: WooOrderEvent) {
    const total = Number(event.order.total);
    if (!Number.isFinite(total)) return;
    await this.deps.db
      .insert(orders)
      .values({
        workspaceId: event.workspaceId,
        integrationId: event.integrationId,
        remoteOrderId: String(event.order.id),
        name: `#${event.order.id}`,
        currency: event.order.currency ?? 'USD',
        revenue: total.toFixed(2),
        // Kept with its total; fulfilment of WooCommerce orders is not built yet, so it is not sent to a printer.
        status: 'external',
        orderedAt: event.order.date_created ? new Date(`${event.order.date_created}Z`) : this.deps.now(),
      })
      .onConflictDoNothing({ target: [orders.integrationId, orders.remoteOrderId] });
  }

  /** A product picture by its signed URL (the store downloads it without our cookie). */
  async storeImage(mockupId: string, expires: unknown, signature: unknown): Promise<Buffer | null> {
    if (!UUID.test(mockupId)) return null;
    if (this.deps.urlSigner.verify(storeImagePath(mockupId), expires, signature) !== 'ok') return null;
    const [row] = await this.deps.db.select({ key: mockups.storageKey }).from(mockups).where(eq(mockups.id, mockupId));
    return row ? this.deps.storage.read(row.key) : null;
  }

  /** What this workspace's sandbox stores hold (products it pushed), read through the same client. */
  async sandboxProducts(workspaceId: string): Promise<TWooSandboxProducts> {
    const rows = await this.deps.db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.workspaceId, workspaceId),
          eq(integrations.platform, 'woocommerce'),
          eq(integrations.sandbox, true),
          inArray(integrations.status, ['connected']),
        ),
      );
    const client = await this.client();
    const stores = [];
    for (const row of rows) {
      const creds = this.creds(row);
      const mine = await this.deps.db
        .select({ remoteProductId: publications.remoteProductId })
        .from(publications)
        .where(and(eq(publications.integrationId, row.id), eq(publications.workspaceId, workspaceId)));
      const products = [];
      for (const { remoteProductId } of mine) {
        if (!remoteProductId) continue;
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

  /** A sandbox picture's bytes for the sandbox page: only a picture of a product this workspace pushed there. */
  async sandboxImage(workspaceId: string, imageId: number): Promise<Buffer | null> {
    const fake = await this.sandboxServer();
    const rows = await this.deps.db
      .select({ storeUrl: integrations.externalId, remoteProductId: publications.remoteProductId })
      .from(publications)
      .innerJoin(integrations, eq(integrations.id, publications.integrationId))
      .where(
        and(
          eq(publications.workspaceId, workspaceId),
          eq(integrations.platform, 'woocommerce'),
          eq(integrations.sandbox, true),
        ),
      );
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
