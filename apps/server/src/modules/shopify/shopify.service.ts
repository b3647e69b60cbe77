import {
  ErrorCode,
  shopifyDomainMessage,
  type TSandboxProducts,
  type TShopifySyncResult,
  type TShopifyValidateDomainResult,
  type TStoreUploadResult,
} from '@podforge/contract';
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  integrations,
  mockups,
  productMockups,
  products,
  productVariants,
  publications,
  storeOrders,
} from '../../db/schema';
import { type ProductSetInput, ShopifyClient, ShopifyError } from '../../integrations/shopify/client';
import { type FakeShopify, startFakeShopify } from '../../integrations/shopify/fake-server';
import { isValidShopDomain } from '../../integrations/shopify/hmac';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, conflict, notFound, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState, peekOAuthState } from '../../lib/oauth-states';
import type { Storage } from '../../storage/storage';

/** What a Shopify flow's state nonce remembers for the relay and the callback. */
type FlowData = { shop?: string; redirectUri?: string };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Fixed credentials of the built-in sandbox: it runs in this process, on loopback, and nobody else holds a key. */
export const SANDBOX_API_KEY = 'podforge-sandbox';
export const SANDBOX_API_SECRET = 'podforge-sandbox-secret';
/** The browser-facing authorize step of the sandbox, relayed by the app (see shopify.routes.ts). */
export const SANDBOX_AUTHORIZE_PREFIX = '/auth/shopify/sandbox';

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; storage: Storage };
type IntegrationRow = typeof integrations.$inferSelect;
type ProductRow = typeof products.$inferSelect;

export type OAuthOutcome = 'connected' | 'invalid_state' | 'invalid_hmac' | 'invalid_shop' | 'failed';

/** Shopify's answer as the seller should read it: 502 with the reason, 503 when throttled. */
export function toShopifyAppError(error: unknown): never {
  if (error instanceof ShopifyError) {
    if (error.status === 429) throw new AppError(503, ErrorCode.RateLimited, error.message);
    throw upstreamError(error.message.startsWith('Shopify') ? error.message : `Shopify: ${error.message}`);
  }
  throw error;
}

/** Plain text as safe HTML: blank lines separate paragraphs, single newlines become <br>. */
export function descriptionToHtml(text: string): string {
  const escapeHtml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

export const numericId = (gid: string) => gid.split('/').pop() ?? gid;

/**
 * Shopify stores of a workspace: OAuth connect, order sync, product pushes, webhooks. With SHOPIFY_API_KEY and
 * SHOPIFY_API_SECRET it talks to real shops; without them to the built-in sandbox, the fake Shopify the tests use,
 * started in this process on first use. The client code is the same; only base URLs and credentials differ.
 */
export class ShopifyService {
  readonly sandboxMode: boolean;
  /** Replaceable (tests put a client with a virtual clock here). */
  client: ShopifyClient | null = null;
  private sandbox: Promise<FakeShopify> | null = null;

  constructor(private readonly deps: Deps) {
    const { config } = deps;
    this.sandboxMode = config.shopify === null;
    if (config.shopify) {
      this.client = new ShopifyClient({
        apiKey: config.shopify.apiKey,
        apiSecret: config.shopify.apiSecret,
        scopes: config.shopifyScopes,
        apiVersion: config.shopifyApiVersion,
        shopBaseUrl: (shop) => config.shopifyShopBaseUrl.replace('{shop}', shop),
      });
    }
  }

  /** The sandbox Shopify (null with real credentials), started once. */
  sandboxServer(): Promise<FakeShopify> | null {
    if (!this.sandboxMode) return null;
    this.sandbox ??= startFakeShopify({ apiKey: SANDBOX_API_KEY, apiSecret: SANDBOX_API_SECRET });
    return this.sandbox;
  }

  async getClient(): Promise<ShopifyClient> {
    if (this.client) return this.client;
    const fake = await this.sandboxServer();
    if (!fake) throw new Error('Shopify client missing');
    this.client ??= new ShopifyClient({
      apiKey: SANDBOX_API_KEY,
      apiSecret: SANDBOX_API_SECRET,
      scopes: this.deps.config.shopifyScopes,
      apiVersion: this.deps.config.shopifyApiVersion,
      shopBaseUrl: (shop) => `${fake.url}/${shop}`,
      authorizeBaseUrl: (shop) => `${SANDBOX_AUTHORIZE_PREFIX}/${shop}`,
    });
    return this.client;
  }

  get webhookSecret(): string {
    return this.deps.config.shopify?.apiSecret ?? SANDBOX_API_SECRET;
  }

  async close() {
    const fake = await this.sandbox;
    await fake?.close();
  }

  /** Spec section 5 and the 'Domain check failed' row of section 8. */
  async validateDomain(shop: string | undefined): Promise<TShopifyValidateDomainResult> {
    if (!isValidShopDomain(shop)) throw badRequest(shopifyDomainMessage());
    // Every *.myshopify.com exists in the sandbox; a real one must answer.
    if (!this.sandboxMode) {
      const client = await this.getClient();
      let exists: boolean;
      try {
        exists = await client.shopExists(shop);
      } catch {
        throw upstreamError('Unable to verify store domain. Please try again.');
      }
      if (!exists) {
        throw new AppError(
          404,
          ErrorCode.NotFound,
          'The Shopify store domain you entered does not exist. Please double-check your spelling.',
        );
      }
    }
    return { valid: true, shop, sandbox: this.sandboxMode };
  }

  private stateScope(workspaceId: string) {
    return { db: this.deps.db, workspaceId, provider: 'shopify' as const, now: this.deps.now() };
  }

  /** A single-use state nonce bound to this workspace and shop, and the shop's authorize URL. */
  async startOAuth(workspaceId: string, shop: string, redirectUri: string): Promise<string> {
    const state = await issueOAuthState(this.stateScope(workspaceId), { shop, redirectUri });
    return (await this.getClient()).authorizeUrl(shop, state, redirectUri);
  }

  /**
   * The sandbox approval relay hands the browser a redirect: only for a flow this workspace started (its unused
   * state, shop and callback URL), so the relay can never send anyone to an address of an attacker's choosing.
   */
  async isOwnPendingFlow(workspaceId: string, shop: string, query: URLSearchParams): Promise<boolean> {
    const state = query.get('state');
    if (!state) return false;
    const data = await peekOAuthState<FlowData>(this.stateScope(workspaceId), state);
    if (!data) return false;
    return data.shop === shop && data.redirectUri === query.get('redirect_uri');
  }

  /** The callback: state (single use, this workspace), shop, hmac, then the code for a token. */
  async finishOAuth(workspaceId: string, query: Record<string, string>): Promise<OAuthOutcome> {
    if (!query.state) return 'invalid_state';
    const flow = await consumeOAuthState<FlowData>(this.stateScope(workspaceId), query.state);
    if (!flow) return 'invalid_state';
    const shop = query.shop;
    if (!isValidShopDomain(shop) || flow.shop !== shop) return 'invalid_shop';
    const client = await this.getClient();
    if (!client.verifyCallback(query)) return 'invalid_hmac';
    if (!query.code) return 'failed';
    try {
      const { accessToken, scope } = await client.exchangeCode(shop, query.code);
      const info = await client.shop(shop, accessToken);
      const { db, cipher, now } = this.deps;
      const values = {
        storeName: this.sandboxMode ? `${info.name} (Sandbox)` : info.name,
        accessTokenEnc: cipher.encrypt(accessToken),
        scopes: scope,
        status: 'connected' as const,
        verifiedAt: now(),
        sandbox: this.sandboxMode,
      };
      await db
        .insert(integrations)
        .values({ workspaceId, kind: 'store', platform: 'shopify', externalId: shop, ...values })
        .onConflictDoUpdate({
          target: [integrations.workspaceId, integrations.platform, integrations.externalId],
          set: values,
        });
      return 'connected';
    } catch (error) {
      if (error instanceof ShopifyError) return 'failed';
      throw error;
    }
  }

  private async store(workspaceId: string, id: string): Promise<IntegrationRow> {
    if (!UUID.test(id)) throw notFound('Integration');
    const [row] = await this.deps.db
      .select()
      .from(integrations)
      .where(
        and(eq(integrations.id, id), eq(integrations.workspaceId, workspaceId), eq(integrations.platform, 'shopify')),
      );
    if (!row) throw notFound('Integration');
    return row;
  }

  private token(row: IntegrationRow): string {
    if (row.status !== 'connected' || !row.verifiedAt || !row.accessTokenEnc) {
      throw conflict(`${row.storeName ?? row.externalId} is not connected. Connect it in Integrations first.`);
    }
    return this.deps.cipher.decrypt(row.accessTokenEnc);
  }

  /** A rejected token means the store must be connected again: say so on the row too. */
  private async failWith(row: IntegrationRow, error: unknown): Promise<never> {
    if (error instanceof ShopifyError && error.status === 401) {
      await this.deps.db
        .update(integrations)
        .set({ status: 'error' })
        .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, row.workspaceId)));
    }
    return toShopifyAppError(error);
  }

  /** Forgets the token; the row stays (its publications and orders keep their history) as disconnected. */
  async disconnect(workspaceId: string, id: string) {
    const row = await this.store(workspaceId, id);
    await this.deps.db
      .update(integrations)
      .set({ status: 'disconnected', accessTokenEnc: null, refreshTokenEnc: null, verifiedAt: null })
      .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, workspaceId)));
    return { success: true as const, integrationId: row.id };
  }

  /** Reads the shop's recent orders into store_orders (one row per remote order, whatever the number of syncs). */
  async sync(workspaceId: string, id: string): Promise<TShopifySyncResult> {
    const row = await this.store(workspaceId, id);
    const token = this.token(row);
    const client = await this.getClient();
    const orders = await client.recentOrders(row.externalId, token).catch((e) => this.failWith(row, e));
    const { db, now } = this.deps;
    let created = 0;
    if (orders.length > 0) {
      const inserted = await db
        .insert(storeOrders)
        .values(
          orders.map((o) => ({
            workspaceId,
            integrationId: row.id,
            remoteOrderId: o.id,
            currency: o.totalPriceSet.shopMoney.currencyCode,
            total: o.totalPriceSet.shopMoney.amount,
            orderedAt: new Date(o.createdAt),
          })),
        )
        .onConflictDoNothing({ target: [storeOrders.integrationId, storeOrders.remoteOrderId] })
        .returning({ id: storeOrders.id });
      created = inserted.length;
    }
    const lastSyncAt = now();
    await db
      .update(integrations)
      .set({ lastSyncAt })
      .where(and(eq(integrations.id, row.id), eq(integrations.workspaceId, workspaceId)));
    return {
      success: true,
      integrationId: row.id,
      ordersRead: orders.length,
      ordersNew: created,
      lastSyncAt: lastSyncAt.toISOString(),
    };
  }

  /**
   * The push: the product goes to processing and its publication row with it; productSet with a handle made from
   * our product id creates the product or updates the one an earlier, failed attempt made. Success: published and
   * live. Failure: the product returns to its previous status, the publication keeps the error, 502 with it.
   */
  async publish(
    workspaceId: string,
    product: ProductRow,
    previousStatus: 'draft' | 'ready' | 'live',
    store: IntegrationRow,
  ): Promise<TStoreUploadResult> {
    const { db, now } = this.deps;
    const token = this.token(store);
    const [claimed] = await db
      .update(products)
      .set({ status: 'processing', updatedAt: now() })
      .where(
        and(eq(products.id, product.id), eq(products.workspaceId, workspaceId), eq(products.status, product.status)),
      )
      .returning({ id: products.id });
    if (!claimed) throw conflict(`"${product.title}" is being pushed to a store already`);
    await db
      .insert(publications)
      .values({ workspaceId, productId: product.id, integrationId: store.id, status: 'processing' })
      .onConflictDoUpdate({
        target: [publications.productId, publications.integrationId],
        set: { status: 'processing', error: null, updatedAt: now() },
      });
    const publicationWhere = and(
      eq(publications.productId, product.id),
      eq(publications.integrationId, store.id),
      eq(publications.workspaceId, workspaceId),
    );

    try {
      const client = await this.getClient();
      const input = await this.productInput(product);
      const mockup = await this.mockupImage(workspaceId, product);
      if (mockup) {
        const source = await client.stagedUpload(store.externalId, token, mockup);
        input.files = [{ originalSource: source, contentType: 'IMAGE', alt: product.title }];
      }
      const remote = await client.productSet(store.externalId, token, input);
      const remoteUrl = this.sandboxMode
        ? `/integrations/shopify-sandbox#${numericId(remote.id)}`
        : `https://admin.shopify.com/store/${store.externalId.replace('.myshopify.com', '')}/products/${numericId(remote.id)}`;
      const at = now();
      await db.transaction(async (tx) => {
        await tx
          .update(publications)
          .set({
            status: 'published',
            remoteProductId: remote.id,
            remoteUrl,
            error: null,
            publishedAt: at,
            updatedAt: at,
          })
          .where(publicationWhere);
        await tx
          .update(products)
          .set({ status: 'live', updatedAt: at })
          .where(and(eq(products.id, product.id), eq(products.workspaceId, workspaceId)));
      });
      return { success: true, platform: 'shopify', integrationId: store.id, remoteProductId: remote.id, remoteUrl };
    } catch (error) {
      const message =
        error instanceof ShopifyError || error instanceof AppError ? error.message : 'The push failed unexpectedly';
      await db.transaction(async (tx) => {
        await tx
          .update(publications)
          .set({ status: 'failed', error: message, updatedAt: now() })
          .where(publicationWhere);
        await tx
          .update(products)
          .set({ status: previousStatus, updatedAt: now() })
          .where(
            and(eq(products.id, product.id), eq(products.workspaceId, workspaceId), eq(products.status, 'processing')),
          );
      });
      return this.failWith(store, error);
    }
  }

  private async productInput(product: ProductRow): Promise<ProductSetInput> {
    const variants = await this.deps.db
      .select()
      .from(productVariants)
      .where(eq(productVariants.productId, product.id))
      .orderBy(productVariants.position);
    if (variants.length === 0) throw conflict(`"${product.title}" has no variants to sell`);
    const optionName = 'Size';
    return {
      title: product.title,
      handle: `podforge-${product.id}`,
      descriptionHtml: descriptionToHtml(product.description),
      productType: product.productType,
      tags: product.tags.slice(0, 250),
      status: 'ACTIVE',
      productOptions: [{ name: optionName, position: 1, values: variants.map((v) => ({ name: v.option })) }],
      variants: variants.map((v) => ({
        optionValues: [{ optionName, name: v.option }],
        // numeric comes back as a decimal string; Shopify's Money is one too.
        price: Number(v.price).toFixed(2),
        ...(v.sku ? { sku: v.sku } : {}),
      })),
    };
  }

  /** The product's own mockup render (a PNG in storage), if it has one. */
  private async mockupImage(workspaceId: string, product: ProductRow) {
    const [row] = await this.deps.db
      .select({ storageKey: mockups.storageKey })
      .from(productMockups)
      .innerJoin(mockups, eq(mockups.id, productMockups.mockupId))
      .where(and(eq(productMockups.productId, product.id), eq(productMockups.workspaceId, workspaceId)))
      .orderBy(desc(productMockups.main), asc(productMockups.position))
      .limit(1);
    if (!row) return null;
    const bytes = await this.deps.storage.read(row.storageKey);
    return bytes ? { filename: 'mockup.png', mimeType: 'image/png', bytes } : null;
  }

  /** What this workspace's sandbox stores hold, read from the sandbox through the same client. */
  async sandboxProducts(workspaceId: string): Promise<TSandboxProducts> {
    if (!this.sandboxMode) return { sandbox: false, stores: [] };
    const rows = await this.deps.db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.workspaceId, workspaceId),
          eq(integrations.platform, 'shopify'),
          eq(integrations.sandbox, true),
          eq(integrations.status, 'connected'),
        ),
      );
    const client = await this.getClient();
    const stores = await Promise.all(
      rows.map(async (row) => {
        const remote = await client.products(row.externalId, this.token(row)).catch(toShopifyAppError);
        // Two workspaces may pick the same sandbox shop name: each sees only what it pushed.
        const mine = await this.deps.db
          .select({ remoteProductId: publications.remoteProductId })
          .from(publications)
          .where(and(eq(publications.integrationId, row.id), eq(publications.workspaceId, workspaceId)));
        const ids = new Set(mine.map((m) => m.remoteProductId));
        return {
          integrationId: row.id,
          shop: row.externalId,
          name: row.storeName ?? row.externalId,
          products: remote
            .filter((p) => ids.has(p.id))
            .map((p) => ({
              id: numericId(p.id),
              title: p.title,
              handle: p.handle,
              status: p.status,
              productType: p.productType ?? '',
              tags: p.tags ?? [],
              updatedAt: p.updatedAt ?? null,
              variants: (p.variants?.nodes ?? []).map((v) => ({ title: v.title, price: v.price, sku: v.sku })),
              images: p.media?.nodes.length ?? 0,
            })),
        };
      }),
    );
    return { sandbox: true, stores };
  }

  /** A verified webhook (apis.md A4). Uninstall forgets the shop's tokens; shop/redact also drops its orders. */
  async webhook(topic: string, shop: string) {
    if (!isValidShopDomain(shop)) return;
    const { db } = this.deps;
    const where = and(
      eq(integrations.platform, 'shopify'),
      eq(integrations.externalId, shop),
      eq(integrations.sandbox, this.sandboxMode),
    );
    if (topic === 'app/uninstalled' || topic === 'shop/redact') {
      const rows = await db
        .update(integrations)
        .set({ status: 'disconnected', accessTokenEnc: null, refreshTokenEnc: null, verifiedAt: null })
        .where(where)
        .returning({ id: integrations.id });
      if (topic === 'shop/redact' && rows.length > 0) {
        await db.delete(storeOrders).where(
          inArray(
            storeOrders.integrationId,
            rows.map((r) => r.id),
          ),
        );
      }
    }
    // customers/data_request and customers/redact: orders are kept without any customer data; nothing to do.
  }
}
