import { randomBytes } from 'node:crypto';
import {
  DEFAULT_TEST_ADDRESS,
  ErrorCode,
  shopifyDomainMessage,
  type TSandboxOrderInput,
  type TSandboxProducts,
  type TShopifySyncResult,
  type TShopifyValidateDomainResult,
} from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { products } from '../../db/schema';
import {
  type FileSetInput,
  type ProductSetInput,
  ShopifyClient,
  ShopifyError,
} from '../../integrations/shopify/client';
import { type FakeShopify, startFakeShopify } from '../../integrations/shopify/fake-server';
import { isValidShopDomain, verifyWebhookHmac } from '../../integrations/shopify/hmac';
import { fromGqlOrder, isPaidOrCancelled } from '../../integrations/shopify/mapping';
import {
  createFulfillment,
  fulfillmentOrders,
  type GqlOrder,
  recentOrdersWithLines,
  SYNC_READ_DAYS,
  type WithheldField,
} from '../../integrations/shopify/orders-client';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, conflict, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState, pendingFlowOf } from '../../lib/oauth-states';
import type { Storage } from '../../storage/storage';
import { findIntegration } from '../integrations/integrations.repository';
import { ourRemoteLineIds } from '../orders/orders.repository';
import type { VariantRow } from '../products/products.repository';
import type { IncomingOrder } from '../stores/incoming-order';
import { sandboxOwnerTag } from '../stores/sandbox-state';
import {
  disconnectStore,
  ensureSandboxWebhookSecret,
  FORGET_OAUTH_TOKENS,
  markTokenRejected,
  publishedRemoteIds,
  sandboxConnectionsOf,
  storesOfWorkspace,
  updateStoreInWorkspace,
  updateStoresByIds,
  upsertStoreConnection,
} from '../stores/store-connections.repository';
import { StoreOrderSource, type StorePlatform } from '../stores/store-platform';
import type { IntegrationRow, PublishContext, PublishOutcome, StoreListing, Tracking } from '../stores/store-publisher';
import { databaseFakeShopifyStore } from './sandbox-store';
import { checkListings, onProductDeleted, onProductUpdated, storesOfShop } from './shopify-drift';
import { registerOrderTopics } from './shopify-order-webhooks';
import { grantColumns, ShopifyTokens } from './shopify-tokens';
import type { ShopifyWebhookEvent, ShopifyWebhookRegistry } from './shopify-webhooks';

/** What a Shopify flow's state nonce remembers for the relay and the callback. */
type FlowData = { shop?: string; redirectUri?: string };
/**
 * Fixed app credentials of the built-in sandbox, for the OAuth steps between the app and the sandbox (which listens
 * on loopback). Webhooks are never signed with them: each sandbox connection has its own secret.
 */
export const SANDBOX_API_KEY = 'podforge-sandbox';
export const SANDBOX_API_SECRET = 'podforge-sandbox-secret';

const MYSHOPIFY = '.myshopify.com';

/**
 * The sandbox shop a workspace gets for the name it typed: the name with the workspace's mark, so another workspace
 * typing the same name gets a shop of its own (its products, orders and webhooks apart). A name already marked for
 * this workspace (a reconnect) stays as it is.
 */
export function sandboxShopFor(workspaceId: string, shop: string): string {
  const tag = `-${sandboxOwnerTag(workspaceId)}`;
  const name = shop.slice(0, -MYSHOPIFY.length);
  return name.endsWith(tag) ? shop : `${name}${tag}${MYSHOPIFY}`;
}

/** The name the seller typed, for labels: the workspace's mark taken off. */
const sandboxShopLabel = (workspaceId: string, name: string) => {
  const tag = `-${sandboxOwnerTag(workspaceId)}`;
  return name.endsWith(tag) ? name.slice(0, -tag.length) : name;
};
/** The browser-facing authorize step of the sandbox, relayed by the app (see shopify.routes.ts). */
export const SANDBOX_AUTHORIZE_PREFIX = '/auth/shopify/sandbox';

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; storage: Storage };
type ProductRow = typeof products.$inferSelect;

export type OAuthOutcome = 'connected' | 'invalid_state' | 'invalid_hmac' | 'invalid_shop' | 'failed';

/**
 * Per-shop webhook subscriptions made at connect (GraphQL enum names), all to `/api/webhooks/shopify`. The
 * compliance topics and app/uninstalled are also declared app-wide in shopify.app.toml.
 */
export const SHOP_WEBHOOK_TOPICS = [
  'APP_UNINSTALLED',
  'PRODUCTS_DELETE',
  'PRODUCTS_UPDATE',
  'ORDERS_PAID',
  'ORDERS_CANCELLED',
] as const;
export const WEBHOOK_PATH = '/api/webhooks/shopify';

/**
 * What the seller reads on the store (its card and the Orders page) when Shopify has not approved the app for
 * protected customer data (shopify.dev/docs/apps/launch/protected-customer-data): a public app needs Shopify's
 * review before it may receive orders webhooks or read an order's customer and shipping address.
 */
export const PROTECTED_DATA_PROBLEM =
  'Shopify has not approved Podforge for protected customer data, so new orders are not sent to Podforge and Sync ' +
  'reads them without the buyer’s name and shipping address: they cannot go to the printer. The app’s owner must ' +
  'request access in the Shopify Partner Dashboard (Apps > Podforge > API access > Protected customer data: the ' +
  'customer’s name, address and phone) and submit it for review. Once Shopify approves it, connect this store again.';

/**
 * Shopify delivers webhooks only to a public https address: a store connected from http://localhost (or a private
 * network) gets no subscriptions, and its drift is found by Sync instead.
 */
export function isPublicHttpsUrl(url: string | undefined): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.hostname.toLowerCase();
  if (parsed.protocol !== 'https:') return false;
  return !(
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    host === '[::1]' ||
    /^(127|10|0)\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host)
  );
}

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

const newWebhookSecret = () => randomBytes(32).toString('base64url');

export const numericId = (gid: string) => gid.split('/').pop() ?? gid;

type Picture = FileSetInput & { color: string | null };

/**
 * The product as productSet takes it (apis.md E3). Options are what the variants vary by, as the seller named them
 * in Podforge: Color and Size for catalogue variants (a one-colour tee still says its colour), Size or the
 * free-text option otherwise. Print-on-demand is never out of stock: variants are untracked and CONTINUE. Each
 * variant carries its colour's picture (else the main one), the main picture first.
 */
export function listingInput(
  product: Pick<ProductRow, 'id' | 'title' | 'description' | 'productType' | 'tags'>,
  variants: Pick<VariantRow, 'option' | 'color' | 'size' | 'price' | 'sku'>[],
  pictures: Picture[],
): ProductSetInput {
  const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => Boolean(v)))];
  const colours = distinct(variants.map((v) => v.color));
  const sizes = distinct(variants.map((v) => v.size));
  const byColourAndSize = variants.every((v) => v.color && v.size);
  const options: { name: string; value: (v: (typeof variants)[number]) => string }[] = byColourAndSize
    ? [
        { name: 'Color', value: (v) => v.color as string },
        { name: 'Size', value: (v) => v.size as string },
      ]
    : [{ name: variants.every((v) => v.size) ? 'Size' : 'Option', value: (v) => v.size ?? v.option }];
  const valuesOf = (i: number) =>
    byColourAndSize ? (i === 0 ? colours : sizes) : distinct(variants.map((v) => options[0]?.value(v) ?? v.option));
  const files = pictures.map(({ color: _color, ...file }) => file);
  const main = files[0];
  return {
    title: product.title,
    handle: `podforge-${product.id}`,
    descriptionHtml: descriptionToHtml(product.description),
    productType: product.productType,
    tags: product.tags.slice(0, 250),
    status: 'ACTIVE',
    productOptions: options.map((o, i) => ({
      name: o.name,
      position: i + 1,
      values: valuesOf(i).map((name) => ({ name })),
    })),
    variants: variants.map((v) => {
      const own = pictures.find((p) => p.color !== null && p.color === v.color);
      const file = own ? files[pictures.indexOf(own)] : main;
      return {
        optionValues: options.map((o) => ({ optionName: o.name, name: o.value(v) })),
        // numeric comes back as a decimal string; Shopify's Money is one too.
        price: Number(v.price).toFixed(2),
        inventoryPolicy: 'CONTINUE' as const,
        inventoryItem: { tracked: false, ...(v.sku ? { sku: v.sku } : {}) },
        ...(file ? { file } : {}),
      };
    }),
    ...(files.length ? { files } : {}),
  };
}

/**
 * Shopify stores of a workspace: OAuth connect, order sync, product pushes (the StorePlatform for 'shopify'), webhooks. With SHOPIFY_API_KEY and
 * SHOPIFY_API_SECRET it talks to real shops; without them to the built-in sandbox, the fake Shopify the tests use,
 * started in this process on first use. The client code is the same; only base URLs and credentials differ.
 */
export class ShopifyService extends StoreOrderSource implements StorePlatform {
  readonly platform = 'shopify' as const;
  readonly sandboxMode: boolean;
  /** Replaceable (tests put a client with a virtual clock here). */
  client: ShopifyClient | null = null;
  private sandbox: Promise<FakeShopify> | null = null;
  /** Fresh access tokens: refresh before expiry, one refresh at a time across instances. */
  readonly tokens: ShopifyTokens;

  constructor(private readonly deps: Deps) {
    super();
    const { config } = deps;
    this.sandboxMode = config.shopify === null;
    if (config.shopify) {
      this.client = new ShopifyClient({
        apiKey: config.shopify.apiKey,
        apiSecret: config.shopify.apiSecret,
        scopes: config.shopifyScopes,
        apiVersion: config.shopifyApiVersion,
        shopBaseUrl: (shop) => config.shopifyShopBaseUrl.replace('{shop}', shop),
        now: () => deps.now().getTime(),
      });
    }
    this.tokens = new ShopifyTokens({ ...deps, client: () => this.getClient(), migrateLegacy: this.expiringTokens });
  }

  /** A fresh access token for the store (refreshed first when it is about to expire). */
  accessToken(row: IntegrationRow): Promise<string> {
    return this.tokens.accessToken(row);
  }

  /** Expiring offline tokens unless this is a custom app configured for non-expiring ones (the sandbox: expiring). */
  private get expiringTokens(): boolean {
    return this.sandboxMode || this.deps.config.shopifyTokenMode === 'expiring';
  }

  /** The sandbox Shopify (null with real credentials), started once. */
  sandboxServer(): Promise<FakeShopify> | null {
    if (!this.sandboxMode) return null;
    // On the app's clock: its hmac timestamps and token expiries are read with that clock.
    this.sandbox ??= startFakeShopify({
      apiKey: SANDBOX_API_KEY,
      apiSecret: SANDBOX_API_SECRET,
      apiVersion: this.deps.config.shopifyApiVersion,
      now: () => this.deps.now().getTime(),
      store: databaseFakeShopifyStore(this.deps.db, this.deps.storage),
      webhookSecret: (shop) => this.sandboxWebhookSecret(shop),
    });
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
      now: () => this.deps.now().getTime(),
    });
    return this.client;
  }

  /**
   * A webhook's hmac over its raw bytes is right: with real credentials, signed with the app's secret (as Shopify
   * signs every shop's); in the sandbox, signed with the secret of a connection to the shop it names, and nothing
   * else (the sandbox's app credentials are in this repository).
   */
  async verifyWebhook(raw: Buffer, hmac: string | undefined, shop: string | undefined): Promise<boolean> {
    if (this.deps.config.shopify) return verifyWebhookHmac(raw, hmac, this.deps.config.shopify.apiSecret);
    if (!hmac || !isValidShopDomain(shop)) return false;
    const rows = await this.sandboxConnections(shop);
    return rows.some(
      (r) => r.webhookSecretEnc && verifyWebhookHmac(raw, hmac, this.deps.cipher.decrypt(r.webhookSecretEnc)),
    );
  }

  /** The sandbox rows connected to a shop, the latest connection first. */
  private sandboxConnections(shop: string): Promise<IntegrationRow[]> {
    return sandboxConnectionsOf(this.deps.db, 'shopify', shop);
  }

  /**
   * The secret the sandbox signs a shop's webhooks with: its connection's. A connection made before secrets existed
   * gets one now (once, whichever instance asks first); a shop nobody connected gets a throwaway one, so its
   * webhooks are refused.
   */
  private async sandboxWebhookSecret(shop: string): Promise<string> {
    const { db, cipher } = this.deps;
    const [row] = await this.sandboxConnections(shop);
    if (!row) return newWebhookSecret();
    if (row.webhookSecretEnc) return cipher.decrypt(row.webhookSecretEnc);
    const saved = await ensureSandboxWebhookSecret(db, row.id, cipher.encrypt(newWebhookSecret()));
    return saved ? cipher.decrypt(saved) : newWebhookSecret();
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

  /**
   * A single-use state nonce bound to this workspace and shop, and the shop's authorize URL. In the sandbox the shop
   * is the workspace's own one of that name (`sandboxShopFor`).
   */
  async startOAuth(workspaceId: string, typed: string, redirectUri: string): Promise<string> {
    const shop = this.sandboxMode ? sandboxShopFor(workspaceId, typed) : typed;
    const state = await issueOAuthState(this.stateScope(workspaceId), { shop, redirectUri });
    return (await this.getClient()).authorizeUrl(shop, state, redirectUri);
  }

  /**
   * The App URL request Shopify sends at install (apis.md E2): shop, timestamp and hmac checked as for the callback
   * (90 s window), then OAuth starts for that shop in this browser's workspace. A redirect either way.
   */
  async startInstall(
    workspaceId: string,
    query: Record<string, string>,
    redirectUri: string,
  ): Promise<{ location: string } | { outcome: OAuthOutcome }> {
    if (!isValidShopDomain(query.shop)) return { outcome: 'invalid_shop' };
    const client = await this.getClient();
    if (!client.verifyCallback(query)) return { outcome: 'invalid_hmac' };
    return { location: await this.startOAuth(workspaceId, query.shop, redirectUri) };
  }

  /** OAuth again for one of the workspace's stores (another workspace's id: 404). */
  async reconnect(workspaceId: string, id: string, redirectUri: string): Promise<string> {
    const row = await this.store(workspaceId, id);
    return this.startOAuth(workspaceId, row.externalId, redirectUri);
  }

  /**
   * The sandbox approval relay hands the browser a redirect: only for a flow this workspace started (its unused
   * state, shop and callback URL), so the relay can never send anyone to an address of an attacker's choosing.
   */
  async isOwnPendingFlow(workspaceId: string, shop: string, query: URLSearchParams): Promise<boolean> {
    const data = await pendingFlowOf<FlowData>(this.stateScope(workspaceId), query);
    return data?.shop === shop;
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
      const grant = await client.exchangeCode(shop, query.code, { expiring: this.expiringTokens });
      const info = await client.shop(shop, grant.accessToken);
      const { db, cipher, now } = this.deps;
      const values = {
        storeName: this.sandboxMode ? `${sandboxShopLabel(workspaceId, info.name)} (Sandbox)` : info.name,
        // Encrypted at rest, with its expiry; a token without expires_in (a custom app's) never expires.
        ...grantColumns(cipher, grant, now()),
        scopes: grant.scope,
        status: 'connected' as const,
        verifiedAt: now(),
        sandbox: this.sandboxMode,
        // Each sandbox connection signs its webhooks with a secret of its own (a reconnect makes a new one).
        webhookSecretEnc: this.sandboxMode ? cipher.encrypt(newWebhookSecret()) : null,
        // A new connection starts without a problem; what the subscriptions below meet is recorded anew.
        problem: null,
      };
      const row = await upsertStoreConnection(db, { workspaceId, platform: 'shopify', externalId: shop }, values);
      const problem = await this.subscribeWebhooks(client, shop, grant.accessToken);
      if (problem && row) await updateStoreInWorkspace(db, row, { problem });
      return 'connected';
    } catch (error) {
      if (error instanceof ShopifyError) return 'failed';
      throw error;
    }
  }

  /**
   * Per-shop subscriptions when the app has a public https address (Shopify delivers nowhere else). A topic that
   * fails does not undo the connection (Sync still finds what changed), but it is not kept quiet: answers the
   * store's problem for the seller, null when every topic was taken. Order topics refused for protected customer
   * data say what to do about it.
   */
  private async subscribeWebhooks(client: ShopifyClient, shop: string, token: string): Promise<string | null> {
    const appUrl = this.deps.config.appUrl;
    if (!isPublicHttpsUrl(appUrl)) return null;
    const refused: ShopifyError[] = [];
    for (const topic of SHOP_WEBHOOK_TOPICS) {
      try {
        await client.webhookSubscriptionCreate(shop, token, topic, `${appUrl}${WEBHOOK_PATH}`);
      } catch (error) {
        if (!(error instanceof ShopifyError)) throw error;
        refused.push(error);
      }
    }
    if (refused.some((e) => e.code === 'PROTECTED_CUSTOMER_DATA')) return PROTECTED_DATA_PROBLEM;
    const [first] = refused;
    return first
      ? `${first.message}. Until this is fixed, changes in the store reach Podforge only when you press Sync.`
      : null;
  }

  /** Shopify withheld protected customer data from a read of the orders: the store says what to do. */
  private async noteWithheld(row: IntegrationRow, withheld: WithheldField[]) {
    if (withheld.length === 0 || row.problem === PROTECTED_DATA_PROBLEM) return;
    await updateStoreInWorkspace(this.deps.db, row, { problem: PROTECTED_DATA_PROBLEM });
  }

  private store(workspaceId: string, id: string): Promise<IntegrationRow> {
    return findIntegration(this.deps.db, workspaceId, id, 'shopify');
  }

  /** The store's access token, refreshed first when it is about to expire; 409 when it must be reconnected. */
  private token(row: IntegrationRow): Promise<string> {
    return this.tokens.accessToken(row);
  }

  /** A rejected token means the store must be connected again: say so on the row too. */
  private async failWith(row: IntegrationRow, error: unknown): Promise<never> {
    if (error instanceof ShopifyError && error.status === 401) {
      await markTokenRejected(this.deps.db, row);
    }
    return toShopifyAppError(error);
  }

  /** Forgets the token; the row stays (its publications and orders keep their history) as disconnected. */
  async disconnect(workspaceId: string, id: string) {
    return disconnectStore(this.deps.db, await this.store(workspaceId, id), FORGET_OAUTH_TOKENS);
  }

  /**
   * Sync: reads the shop's paid and cancelled orders of the last SYNC_READ_DAYS days through the port's `readOrders`
   * (page by page, with their lines and shipping address) and hands them to the order intake, which stores each
   * order once; answers how many were read and how many were new.
   */
  async sync(workspaceId: string, id: string): Promise<TShopifySyncResult> {
    const row = await this.store(workspaceId, id);
    const token = await this.token(row);
    const client = await this.getClient();
    const orders = await this.readOrders(row, new Date(Date.now() - SYNC_READ_DAYS * 24 * 3600_000));
    const { created } = await this.intake().take({ store: row, orders, via: 'sync' });
    // Listings deleted, archived or edited in the store since they were pushed (drift, shopify-drift.ts).
    const listings = await checkListings(this.deps, row.id, (ids) => client.listings(row.externalId, token, ids)).catch(
      (e) =>
        // A token without the products scope still syncs its orders; its listings are not read.
        e instanceof ShopifyError && e.code === 'ACCESS_DENIED'
          ? { listingsChecked: 0, listingsRemoved: 0, listingsChanged: 0 }
          : this.failWith(row, e),
    );
    const lastSyncAt = this.deps.now();
    await updateStoreInWorkspace(this.deps.db, row, { lastSyncAt });
    return {
      success: true,
      integrationId: row.id,
      ordersRead: orders.length,
      ordersNew: created,
      ...listings,
      lastSyncAt: lastSyncAt.toISOString(),
    };
  }

  /** The shop answers with this token (refreshed first when it is about to expire). */
  async verify(store: IntegrationRow): Promise<void> {
    const token = await this.token(store);
    await (await this.getClient()).shop(store.externalId, token);
  }

  /** The port's drift read: the products by id (Sync's listings check reads the same). */
  async listings(store: IntegrationRow, remoteProductIds: string[]): Promise<(StoreListing | null)[]> {
    const token = await this.token(store);
    const remote = await (await this.getClient()).listings(store.externalId, token, remoteProductIds);
    return remote.map((p) =>
      p
        ? {
            remoteProductId: p.id,
            title: p.title,
            visible: p.status === 'ACTIVE',
            variants: p.variants.nodes.map((v) => ({ sku: v.sku, price: v.price })),
          }
        : null,
    );
  }

  /** The port's order read: the shop's recent orders (as Sync reads them), paid or cancelled, changed since `since`. */
  async readOrders(store: IntegrationRow, since: Date): Promise<IncomingOrder[]> {
    const token = await this.token(store);
    const client = await this.getClient();
    const { orders, withheld } = await recentOrdersWithLines(client, store.externalId, token, since).catch((e) =>
      this.failWith(store, e),
    );
    await this.noteWithheld(store, withheld);
    const changed = (o: GqlOrder) =>
      new Date(o.createdAt) >= since || (o.cancelledAt !== null && new Date(o.cancelledAt) >= since);
    return orders.filter((o) => isPaidOrCancelled(o) && changed(o)).map(fromGqlOrder);
  }

  /** Where the seller finds a pushed product: its Shopify admin page, or the sandbox page. */
  remoteUrl(store: IntegrationRow, remoteProductId: string): string {
    return this.sandboxMode
      ? `/integrations/shopify-sandbox#${numericId(remoteProductId)}`
      : `https://admin.shopify.com/store/${store.externalId.replace('.myshopify.com', '')}/products/${numericId(remoteProductId)}`;
  }

  /** Shopify checks a product only as it is sent (its userErrors): nothing to refuse beforehand. */
  async problems(): Promise<string[]> {
    return [];
  }

  /** The same productSet makes and updates a listing (by handle): a retry after a lost answer finds its product. */
  publish(ctx: PublishContext): Promise<PublishOutcome> {
    return this.pushRemote(ctx);
  }

  update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome> {
    return this.pushRemote(ctx);
  }

  remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void> {
    return this.removeFromStore(ctx.store, ctx.remoteProductId, mode);
  }

  /**
   * A push (staged uploads, productSet of up to 100 variants, the media reads, the publish) costs about 200 points of
   * the shop's bucket, which a Standard shop refills at 100 a second: one product every 2 s keeps the bucket from
   * emptying over a long run.
   */
  pushPaceSeconds(): number {
    return 2;
  }

  /** Shopify's answer as the seller reads it: 503 while throttled, 502 with its reason otherwise. */
  toAppError(error: unknown): unknown {
    if (error instanceof ShopifyError) {
      const message = error.message.startsWith('Shopify') ? error.message : `Shopify: ${error.message}`;
      return error.status === 429
        ? new AppError(503, ErrorCode.RateLimited, message)
        : new AppError(502, ErrorCode.Upstream, message);
    }
    return error;
  }

  /**
   * The store side of a push (the push job runs it, modules/products/store-push.ts), so that a buyer can see and
   * buy the product (apis.md E3): every colour's picture as a staged upload, then productSet with the handle
   * `podforge-<product id>` as identifier (a retry, or 'Update in store', changes the same product; variants not
   * sent are removed), ACTIVE, Color x Size, untracked variants that continue selling, each with its colour's
   * picture and SKU; then the pictures are polled until Shopify has processed them (a FAILED one fails the push,
   * naming it) and the product is published to the Online Store. `ctx.progress` tells the job's progress.
   */
  async pushRemote(ctx: PublishContext): Promise<PublishOutcome> {
    const { workspaceId, product, store } = ctx;
    const report = async (step: string) => ctx.progress?.(step);
    const token = await this.token(store);
    const client = await this.getClient();
    const shop = store.externalId;
    const granted = (store.scopes ?? '').split(',').map((x) => x.trim());
    if (store.scopes !== null && !granted.includes('write_publications')) {
      // Without it the product would be made but never shown to buyers (E3): say so before making it.
      throw conflict(
        `${store.storeName ?? shop} was connected without the permission to publish products to the Online Store (write_publications). Connect it again to grant it.`,
      );
    }
    try {
      const variants = product.variants;
      if (variants.length === 0) throw conflict(`"${product.title}" has no variants to sell`);
      const pictures = product.images;
      const files: (FileSetInput & { color: string | null })[] = [];
      for (const [i, link] of pictures.entries()) {
        await report(`Uploading pictures (${i + 1} of ${pictures.length})`);
        const bytes = await link.read();
        if (!bytes) continue;
        const alt = link.color ? `${product.title} - ${link.color}` : product.title;
        const source = await client.stagedUpload(shop, token, {
          filename: `${(link.color ?? 'main').toLowerCase().replace(/[^a-z0-9]+/g, '-')}.png`,
          mimeType: 'image/png',
          bytes,
        });
        files.push({ originalSource: source, contentType: 'IMAGE', alt, color: link.color });
      }
      await report('Sending the product');
      const remote = await client.productSet(shop, token, listingInput(product, variants, files));
      // Which store variant is which of ours (by SKU): orders name the store's variant id.
      const remoteVariants: Record<string, string> = {};
      for (const v of remote.variants?.nodes ?? []) {
        const match = variants.find((o) => o.sku && o.sku === v.sku);
        if (match) remoteVariants[numericId(v.id)] = match.id;
      }
      await report('Waiting for Shopify to process the pictures');
      const media = await client.waitForMedia(shop, token, remote.id, { intervalMs: 1000, count: files.length });
      const failed = media.find((m) => m.status === 'FAILED');
      if (failed) {
        const reason = failed.mediaErrors?.[0]?.message;
        throw new ShopifyError(
          422,
          `Shopify could not process the picture "${failed.alt}"${reason ? ` (${reason})` : ''}; push again to send it anew`,
        );
      }
      await report('Publishing to the Online Store');
      const publicationId = await client.onlineStorePublicationId(shop, token);
      await client.publish(shop, token, remote.id, publicationId);
      if (this.sandboxMode) {
        // Which workspace made it: the sandbox page keeps showing it (archived, say) after the product is deleted.
        await this.sandboxRecords().put('owner', `${shop}|${remote.id}`, { workspaceId, id: remote.id });
      }
      return { remoteProductId: remote.id, remoteUrl: this.remoteUrl(store, remote.id), remoteVariants };
    } catch (error) {
      if (error instanceof ShopifyError && error.status === 401) await this.markTokenRejected(store);
      throw error;
    }
  }

  /**
   * The shipment's tracking to the store (Shopify tells the buyer), for OUR lines only: the order's lines that are
   * Podforge's products (matched at intake), across every open fulfillment order that holds them, one fulfilment per
   * location (Shopify takes one location a call); the seller's own lines in a mixed cart stay unfulfilled. A retry
   * after a lost answer finds nothing of ours left open and answers the fulfilments already made with this tracking
   * number. Answers the fulfilment ids, comma-separated.
   */
  async sendTracking(store: IntegrationRow, remoteOrderId: string, tracking: Tracking): Promise<string> {
    const token = await this.token(store);
    const client = await this.getClient();
    // How many of each of our lines this shipment carries (null: all that remains).
    const ours = new Map<string, number | null>(
      tracking.lines
        ? tracking.lines.map((l) => [numericId(l.remoteLineId), l.quantity ?? null])
        : [...(await this.ourLineIds(store, remoteOrderId))].map((id) => [id, null]),
    );
    if (ours.size === 0) throw conflict('None of the order’s lines are Podforge products: nothing to fulfil');
    const order = await fulfillmentOrders(client, store.externalId, token, remoteOrderId);
    const byLocation = new Map<string, Parameters<typeof createFulfillment>[3]['lines']>();
    for (const fo of order.fulfillmentOrders) {
      if (!['OPEN', 'IN_PROGRESS'].includes(fo.status)) continue;
      if (!fo.supportedActions.some((a) => a.action === 'CREATE_FULFILLMENT')) continue;
      const lines: { id: string; quantity: number }[] = [];
      for (const l of fo.lineItems.nodes) {
        const line = numericId(l.lineItem.id);
        if (l.remainingQuantity <= 0 || !ours.has(line)) continue;
        const wanted = ours.get(line) ?? null;
        const quantity = wanted === null ? l.remainingQuantity : Math.min(wanted, l.remainingQuantity);
        if (quantity <= 0) continue;
        // A line split over fulfillment orders: what this one takes is not asked of the next.
        if (wanted !== null) ours.set(line, wanted - quantity);
        lines.push({ id: l.id, quantity });
      }
      if (lines.length === 0) continue;
      const location = fo.assignedLocation?.location?.id ?? fo.id;
      const group = byLocation.get(location) ?? [];
      group.push({ fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: lines });
      byLocation.set(location, group);
    }
    // Fulfilments an earlier attempt made with this number (it got no answer, or stopped between locations).
    const earlier = tracking.number
      ? order.fulfillments.filter((f) => f.trackingInfo.some((t) => t.number === tracking.number)).map((f) => f.id)
      : [];
    if (byLocation.size === 0) {
      if (earlier.length) return earlier.join(',');
      throw conflict('The store has no open fulfilment for this order’s Podforge lines (fulfilled elsewhere?)');
    }
    const made: string[] = [];
    for (const lines of byLocation.values()) {
      made.push(
        await createFulfillment(client, store.externalId, token, {
          lines,
          company: tracking.carrier,
          number: tracking.number,
          url: tracking.url,
        }),
      );
    }
    return [...earlier, ...made].join(',');
  }

  /** The store's line ids (numeric) of the order's lines that are our products, as the order intake matched them. */
  private async ourLineIds(store: IntegrationRow, remoteOrderId: string): Promise<Set<string>> {
    return ourRemoteLineIds(this.deps.db, store, numericId(remoteOrderId));
  }

  /** Takes a product out of a store: archived (buyers no longer see it; the seller can restore it) or deleted. */
  async removeFromStore(store: IntegrationRow, remoteProductId: string, mode: 'archive' | 'delete'): Promise<void> {
    const token = await this.token(store);
    const client = await this.getClient();
    try {
      if (mode === 'archive') await client.archiveProduct(store.externalId, token, remoteProductId);
      else await client.deleteProduct(store.externalId, token, remoteProductId);
    } catch (error) {
      return this.failWith(store, error);
    }
  }

  private async markTokenRejected(row: IntegrationRow) {
    await updateStoreInWorkspace(this.deps.db, row, { status: 'error' });
  }

  /**
   * 'Place a test order' in a sandbox shop: a paid order for these SKUs, which the sandbox sends to the app as
   * `orders/paid` (signed, like a real shop's), so it comes in through the same webhook as a real order.
   */
  async placeSandboxOrder(workspaceId: string, input: TSandboxOrderInput) {
    const fake = await this.sandboxServer();
    if (!fake) throw conflict('Test orders are for sandbox stores; this server is connected to real Shopify stores');
    const store = await this.store(workspaceId, input.integrationId);
    if (!store.sandbox || store.status !== 'connected')
      throw conflict(`${store.storeName} is not a connected sandbox store`);
    const sold = (await fake.products(store.externalId)).flatMap((p) => p.variants.map((v) => v.sku)).filter(Boolean);
    const unknown = input.lines.find((l) => !sold.includes(l.sku));
    if (unknown) throw badRequest(`SKU ${unknown.sku} is not sold in ${store.storeName}; push the product there first`);
    const a = input.address ?? DEFAULT_TEST_ADDRESS;
    const order = await fake.orders.placePaidOrder(store.externalId, {
      lines: input.lines.map((l) => ({ sku: l.sku, quantity: l.quantity })),
      address: {
        name: a.name,
        address1: a.address1,
        address2: a.address2,
        city: a.city,
        province_code: a.provinceCode,
        country_code: a.countryCode,
        zip: a.zip,
        phone: a.phone,
      },
    });
    return { remoteOrderId: String(order.id), name: order.name, total: order.total, currency: order.currency };
  }

  /**
   * What this workspace's sandbox stores hold, as a buyer and the shop's admin would see it: read from the sandbox's
   * own state (the database, so what any instance pushed, before or after a restart). Pictures are served by the
   * app (`sandboxFile`), since the sandbox listens on this machine's loopback only.
   */
  async sandboxProducts(workspaceId: string): Promise<TSandboxProducts> {
    const fake = await this.sandboxServer();
    if (!fake) return { sandbox: false, stores: [] };
    const rows = await storesOfWorkspace(this.deps.db, workspaceId, 'shopify', {
      sandbox: true,
      statuses: ['connected'],
    });
    const picture = (url: string | null) =>
      url?.startsWith(`${fake.url}/files/`) ? `/api/shopify/sandbox/files/${url.slice(fake.url.length + 7)}` : url;
    const stores = await Promise.all(
      rows.map(async (row) => {
        const remote = await fake.storefront(row.externalId);
        // Two workspaces may pick the same sandbox shop name: each sees only what it pushed.
        const ids = await publishedRemoteIds(this.deps.db, row);
        const owners = await this.sandboxRecords().list<{ workspaceId: string; id?: string }>(
          'owner',
          `${row.externalId}|`,
        );
        for (const owner of owners) if (owner.workspaceId === workspaceId && owner.id) ids.add(owner.id);
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
              productType: p.productType,
              tags: p.tags,
              updatedAt: p.updatedAt,
              onlineStore: p.onlineStore,
              options: p.options,
              variants: p.variants.map((v) => ({
                title: v.title,
                price: v.price,
                sku: v.sku,
                availableForSale: v.availableForSale,
                image: picture(v.image),
              })),
              images: p.images.length,
              imageUrls: p.images.map((i) => picture(i.url) as string),
              failedImages: p.failedImages,
            })),
        };
      }),
    );
    return { sandbox: true, stores };
  }

  private sandboxRecords() {
    return databaseFakeShopifyStore(this.deps.db, this.deps.storage);
  }

  /** A picture the sandbox holds (a staged upload), for the sandbox page; null when there is none. */
  async sandboxFile(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    if (!this.sandboxMode || !/^[0-9a-f]{16}\/[A-Za-z0-9._-]+$/.test(key)) return null;
    await this.sandboxServer();
    return this.sandboxRecords().getFile(key);
  }

  /**
   * The store rows of a shop in every workspace that connected it (in this mode, sandbox or real): what a webhook
   * handler acts on, since a webhook names only the shop. Other modules' handlers use it too.
   */
  storesOfShop(shop: string): Promise<IntegrationRow[]> {
    return storesOfShop(this.deps.db, shop, this.sandboxMode);
  }

  /**
   * The webhook topics this module handles (each idempotent: Shopify may deliver late or twice): the order topics
   * (mapped here, taken by the order intake), uninstall and redaction, product drift.
   */
  registerWebhooks(registry: ShopifyWebhookRegistry) {
    registerOrderTopics(registry, {
      storesOfShop: (shop) => this.storesOfShop(shop),
      intake: () => this.intake(),
    });
    const forget = async (event: ShopifyWebhookEvent) => this.forgetShop(event);
    registry.on('app/uninstalled', forget);
    registry.on('shop/redact', forget);
    // A customer's data request: the seller sees every order and its address on the Orders screen; nothing to send.
    registry.on('customers/data_request', async () => undefined);
    registry.on('products/delete', (e) => onProductDeleted(this.deps, e.shop, this.sandboxMode, e.payload));
    registry.on('products/update', (e) => onProductUpdated(this.deps, e.shop, this.sandboxMode, e.payload));
  }

  /**
   * app/uninstalled (and shop/redact, 48 h later): the shop's stores are disconnected and their tokens erased;
   * shop/redact also drops its orders. A store connected again after the event happened is left alone.
   */
  private async forgetShop(event: ShopifyWebhookEvent) {
    if (!isValidShopDomain(event.shop)) return;
    const stores = (await this.storesOfShop(event.shop)).filter(
      (s) => !(event.triggeredAt && s.verifiedAt && s.verifiedAt.getTime() > event.triggeredAt.getTime()),
    );
    if (stores.length === 0) return;
    const ids = stores.map((s) => s.id);
    await updateStoresByIds(this.deps.db, ids, FORGET_OAUTH_TOKENS);
    // Orders' addresses are erased by the order intake (shopify-order-webhooks.ts: customers/redact, shop/redact).
  }
}
