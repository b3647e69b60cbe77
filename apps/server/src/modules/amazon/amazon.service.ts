import {
  AMAZON_DEFAULT_HANDLING_DAYS,
  AMAZON_GENERIC_BRAND,
  AMAZON_PRODUCT_TYPES,
  amazonMarketplace,
  DEFAULT_AMAZON_MARKETPLACE,
  DEFAULT_TEST_ADDRESS,
  ErrorCode,
  listingProblems,
  type TAmazonProductListings,
  type TAmazonSandboxListings,
  type TAmazonSandboxOrders,
  type TAmazonSettings,
  type TAmazonSettingsBody,
  type TSandboxOrderInput,
} from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  AmazonClient,
  AmazonError,
  type ListingIssue,
  type ProductTypeDefinition,
} from '../../integrations/amazon/client';
import { type AmazonFakeState, type FakeAmazon, startFakeAmazon } from '../../integrations/amazon/fake-server';
import {
  AMAZON_CARRIER_CODES,
  type AmazonNotificationType,
  NOTIFICATION_PAYLOAD_VERSIONS,
} from '../../integrations/amazon/limits';
import {
  type AmazonListingSettings,
  apparelSize,
  buildFamily,
  type FamilyMember,
  fromAmazonOrder,
  MAX_SKU_LENGTH,
  themeOf,
} from '../../integrations/amazon/mapping';
import type { AmazonNotification } from '../../integrations/amazon/notifications';
import { attributeProblems } from '../../integrations/amazon/product-type-schema';
import { NotificationQueue } from '../../integrations/amazon/sqs';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, conflict, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState, pendingFlowOf } from '../../lib/oauth-states';
import type { UrlSigner } from '../../lib/signed-urls';
import type { Storage } from '../../storage/storage';
import { findIntegration } from '../integrations/integrations.repository';
import type { IncomingOrder } from '../stores/incoming-order';
import { SandboxState, sandboxOwnerTag } from '../stores/sandbox-state';
import {
  connectedStoresOfExternalId,
  disconnectStore,
  FORGET_OAUTH_TOKENS,
  publishedListingsOfProduct,
  saveStoreSettings,
  storeConnection,
  storeSettingsOf,
  storesOfWorkspace,
  updateStoreInWorkspace,
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
import { publishedFamilies, publishedFamiliesOfSku, saveListingState } from './amazon.repository';

/** The browser-facing consent step of the sandbox, relayed by the app (see amazon.routes.ts). */
export const AMAZON_SANDBOX_CONNECT_PREFIX = '/auth/amazon/sandbox';
/** Amazon fetches pictures some time after a submission: their links last a week. */
const IMAGE_URL_TTL_SECONDS = 7 * 24 * 3600;
/** Refreshed this long before the hour ends (the official SDK keeps 60 s; a push may take longer). */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** How long after ACCEPTED the built-in sandbox has processed a listing (Amazon takes minutes). */
const SANDBOX_PROCESSING_MS = 5_000;
/** How far our clock may run ahead of Amazon's: an order read asks from at least this long ago. */
const CLOCK_SKEW_MS = 2 * 60_000;

type AmazonSettings = {
  sellerId?: string;
  marketplaceId?: string;
  brand?: string | null;
  gtinExempt?: boolean;
  handlingDays?: number;
  /** The seller's notification subscriptions (by type), or why they could not be made. */
  notifications?: { destinationId?: string; subscriptions?: Record<string, string>; problem?: string };
};
export type ListingStateName = 'processing' | 'live' | 'not_buyable' | 'gone';
type FlowData = { redirectUri: string; marketplaceId: string };
type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; storage: Storage; urlSigner: UrlSigner };
type At = { region: string; sellerId: string; marketplaceId: string };

export type AmazonOAuthOutcome = { outcome: 'connected' | 'invalid_state' | 'failed'; integrationId?: string };

const isPrivateHost = (host: string) =>
  /^(localhost|127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[?::1\]?$)/.test(host) || host.endsWith('.local');

/** An issue Amazon gave a SKU, as the seller reads it. */
export const issueText = (sku: string, issue: ListingIssue) =>
  `${sku}: ${issue.message}${issue.attributeNames?.length ? ` (${issue.attributeNames.join(', ')})` : ''}`;

/**
 * Amazon sellers of a workspace: Login with Amazon (the seller's id and a refresh token kept encrypted; access
 * tokens refreshed before their hour ends), the marketplace and the listing settings (brand, GTIN exemption,
 * handling time), listings as variation families (the StorePlatform for 'amazon'), orders read from Orders
 * 2026-01-01 and shipments confirmed with v0 confirmShipment. With AMAZON_APP_ID and the LWA client it talks to
 * Amazon; without them to the built-in sandbox seller, the fake Amazon the tests use, kept in the database.
 */
export class AmazonService extends StoreOrderSource implements StorePlatform {
  readonly platform = 'amazon' as const;
  readonly sandboxMode: boolean;
  /** Replaceable (tests put a client with no waits here). */
  client: AmazonClient | null = null;
  /** This app's own address once it listens: the sandbox's pictures are served from it. */
  selfUrl: string | null = null;
  /** Set before first use to change the sandbox (tests have listings processed at once). */
  sandboxOptions: { processingMs?: number; fetchImages?: boolean } = {};
  private sandbox: Promise<FakeAmazon> | null = null;
  private sandboxState: SandboxState<AmazonFakeState> | null = null;
  private readonly listingListeners: ((row: IntegrationRow) => Promise<void>)[] = [];
  private queue: NotificationQueue | null = null;

  constructor(private readonly deps: Deps) {
    super();
    const amazon = deps.config.amazon;
    this.sandboxMode = amazon === null;
    if (amazon) {
      this.client = new AmazonClient({
        applicationId: amazon.applicationId,
        clientId: amazon.clientId,
        clientSecret: amazon.clientSecret,
        lwaBase: amazon.lwaBase,
        apiBase: (region) => amazon.apiBase.replace('{region}', region),
        consentBase: (sellerCentral) => sellerCentral,
        now: () => deps.now().getTime(),
      });
    }
  }

  sandboxServer(): Promise<FakeAmazon> | null {
    if (!this.sandboxMode) return null;
    this.sandbox ??= (async () => {
      this.sandboxState = new SandboxState<AmazonFakeState>(
        this.deps.db,
        this.deps.storage,
        'amazon',
        this.deps.cipher,
      );
      const state = await this.sandboxState.load();
      const keeper = this.sandboxState;
      return startFakeAmazon({
        state,
        persist: (s) => keeper.save(s),
        processingMs: this.sandboxOptions.processingMs ?? SANDBOX_PROCESSING_MS,
        // One clock for the app and its sandbox: the sandbox's rate-limit buckets, token expiry and order times run
        // on the clock the client's own bucket estimate uses.
        now: () => this.deps.now().getTime(),
        // The sandbox downloads the pictures from this app, as Amazon would from APP_URL.
        fetchImages: this.sandboxOptions.fetchImages ?? true,
        // Amazon delivers to the destination's queue; the sandbox can reach only this app's own queue.
        deliver: async (arn, body) => {
          const queue = this.notificationQueue();
          if (!queue || arn !== this.deps.config.amazonSqs?.queueArn) throw new Error(`No access to the queue ${arn}`);
          await queue.send(body);
        },
      });
    })();
    return this.sandbox;
  }

  async getClient(): Promise<AmazonClient> {
    if (this.client) return this.client;
    const fake = await this.sandboxServer();
    if (!fake) throw new Error('Amazon client missing');
    this.client ??= new AmazonClient({
      applicationId: fake.applicationId,
      clientId: fake.clientId,
      clientSecret: fake.clientSecret,
      lwaBase: fake.url,
      apiBase: () => fake.url,
      consentBase: () => AMAZON_SANDBOX_CONNECT_PREFIX,
      now: () => this.deps.now().getTime(),
    });
    return this.client;
  }

  /** The app's queue of Amazon notifications (AMAZON_SQS_QUEUE_URL), or null when notifications are not configured. */
  notificationQueue(): NotificationQueue | null {
    const sqs = this.deps.config.amazonSqs;
    if (!sqs) return null;
    this.queue ??= new NotificationQueue(sqs);
    return this.queue;
  }

  async close() {
    this.queue?.close();
    const fake = await this.sandbox?.catch(() => null);
    await fake?.close();
    await this.sandboxState?.flush();
  }

  private stateScope(workspaceId: string) {
    return { db: this.deps.db, workspaceId, provider: 'amazon' as const, now: this.deps.now() };
  }

  // ----- connect -----

  /** The consent URL of the marketplace's Seller Central, with a single-use state bound to this workspace. */
  async startOAuth(workspaceId: string, redirectUri: string, marketplaceId: string): Promise<string> {
    const market = amazonMarketplace(marketplaceId);
    if (!market) throw badRequest(`marketplace: not an Amazon marketplace Podforge sells in (${marketplaceId})`);
    const state = await issueOAuthState(this.stateScope(workspaceId), {
      redirectUri,
      marketplaceId,
    } satisfies FlowData);
    return (await this.getClient()).consentUrl({
      state,
      redirectUri,
      sellerCentral: market.sellerCentral,
      // The sandbox application is a draft, as a new SP-API app is.
      draft: this.sandboxMode || (this.deps.config.amazon?.draft ?? false),
    });
  }

  /** The sandbox's consent, as this workspace's own sandbox seller (each workspace has its own). */
  sandboxApprovalUrl(sandboxUrl: string, workspaceId: string, search: string): string {
    const query = new URLSearchParams(search);
    query.set('login', `podforge-${sandboxOwnerTag(workspaceId)}`);
    return `${sandboxUrl}/apps/authorize/consent?${query}`;
  }

  async isOwnPendingFlow(workspaceId: string, query: URLSearchParams): Promise<boolean> {
    return (await pendingFlowOf<FlowData>(this.stateScope(workspaceId), query)) !== null;
  }

  /** The callback: state (single use, this workspace), the code exchanged for tokens, the seller's store row. */
  async finishOAuth(workspaceId: string, query: Record<string, string>): Promise<AmazonOAuthOutcome> {
    if (!query.state) return { outcome: 'invalid_state' };
    const flow = await consumeOAuthState<FlowData>(this.stateScope(workspaceId), query.state);
    if (!flow) return { outcome: 'invalid_state' };
    const sellerId = query.selling_partner_id;
    if (!query.spapi_oauth_code || !sellerId || !/^[A-Z0-9]{8,20}$/.test(sellerId)) return { outcome: 'failed' };
    try {
      const client = await this.getClient();
      const tokens = await client.exchangeCode(query.spapi_oauth_code, flow.redirectUri);
      const market = amazonMarketplace(flow.marketplaceId);
      const { db, cipher } = this.deps;
      const values = {
        storeName: `Amazon seller ${sellerId}${this.sandboxMode ? ' (Sandbox)' : ''}`,
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: cipher.encrypt(tokens.refreshToken),
        tokenExpiresAt: tokens.expiresAt,
        scopes: null,
        problem: null,
        status: 'connected' as const,
        verifiedAt: this.deps.now(),
        sandbox: this.sandboxMode,
      };
      const row = await upsertStoreConnection(db, { workspaceId, platform: 'amazon', externalId: sellerId }, values);
      if (!row) return { outcome: 'failed' };
      const previous = await this.settings(row);
      await this.saveSettings(row, { ...previous, sellerId, marketplaceId: market?.id ?? DEFAULT_AMAZON_MARKETPLACE });
      await this.subscribe(row);
      await this.ordersToRead(row);
      return { outcome: 'connected', integrationId: row.id };
    } catch (error) {
      if (error instanceof AmazonError) return { outcome: 'failed' };
      throw error;
    }
  }

  // ----- notifications -----

  /**
   * With a queue configured, the seller is subscribed to ORDER_CHANGE and LISTINGS_ITEM_ISSUES_CHANGE delivered to
   * it: the app's destination for the queue's ARN (grantless; found among the app's destinations, else created),
   * then each subscription the seller does not have yet. A failure is kept on the settings and does not stop the
   * connection: orders and listings are polled anyway.
   */
  async subscribe(row: IntegrationRow): Promise<void> {
    const sqs = this.deps.config.amazonSqs;
    if (!sqs) return;
    const s = await this.settings(row);
    try {
      const { token, at, client } = await this.context(row);
      const known = (await client.getDestinations(at.region)).find((d) => d.resource.sqs?.arn === sqs.queueArn);
      const destination = known ?? (await client.createDestination(at.region, 'Podforge notifications', sqs.queueArn));
      const subscriptions: Record<string, string> = {};
      for (const [type, payloadVersion] of Object.entries(NOTIFICATION_PAYLOAD_VERSIONS)) {
        const t = type as AmazonNotificationType;
        const existing = await client.getSubscription(token, at, t, payloadVersion);
        const sub =
          existing?.destinationId === destination.destinationId
            ? existing
            : await client.createSubscription(token, at, t, {
                payloadVersion,
                destinationId: destination.destinationId,
                // Only the changes Podforge acts on: an order's status (new, paid, cancelled, shipped).
                ...(t === 'ORDER_CHANGE'
                  ? {
                      processingDirective: {
                        eventFilter: { eventFilterType: 'ORDER_CHANGE', orderChangeTypes: ['OrderStatusChange'] },
                      },
                    }
                  : {}),
              });
        subscriptions[t] = sub.subscriptionId;
      }
      await this.saveSettings(row, {
        ...s,
        notifications: { destinationId: destination.destinationId, subscriptions },
      });
    } catch (error) {
      const reason =
        error instanceof AmazonError ? `${error.message}${error.details ? ` (${error.details})` : ''}` : String(error);
      await this.saveSettings(row, { ...s, notifications: { problem: `Amazon notifications not set up: ${reason}` } });
    }
  }

  /**
   * A seller connected before the queue was configured (or whose subscribing failed) subscribed now: the start-up
   * job's work (`amazon-subscribe`), once per store; a store already subscribed, or not connected, is left alone.
   */
  async subscribeIfMissing(row: IntegrationRow): Promise<void> {
    if (!this.deps.config.amazonSqs || row.status !== 'connected') return;
    if ((await this.settings(row)).notifications?.subscriptions) return;
    await this.subscribe(row);
  }

  /**
   * On disconnect, the seller's subscriptions deleted (deleteSubscriptionById, grantless), so Amazon stops sending
   * their notifications to the app's queue. Amazon unreachable does not stop the disconnect: the subscriptions left
   * stay on the settings with the reason (a notification of a disconnected store does nothing; a reconnect uses them).
   */
  private async unsubscribe(row: IntegrationRow): Promise<void> {
    const s = await this.settings(row);
    const subscriptions = s.notifications?.subscriptions;
    if (!subscriptions) return;
    const market = amazonMarketplace(s.marketplaceId ?? DEFAULT_AMAZON_MARKETPLACE);
    try {
      const client = await this.getClient();
      for (const [type, subscriptionId] of Object.entries(subscriptions)) {
        await client.deleteSubscription(market?.region ?? 'na', type as AmazonNotificationType, subscriptionId);
      }
      const { notifications: _gone, ...rest } = s;
      await this.saveSettings(row, rest);
    } catch (error) {
      const reason = error instanceof AmazonError ? error.message : String(error);
      await this.saveSettings(row, {
        ...s,
        notifications: { ...s.notifications, problem: `Amazon subscriptions not deleted on disconnect: ${reason}` },
      });
    }
  }

  /** The sellers a notification is for: every connected store of that seller id (a seller may be in two workspaces). */
  private storesOfSeller(sellerId: string) {
    return connectedStoresOfExternalId(this.deps.db, 'amazon', sellerId);
  }

  /** ORDER_CHANGE from the queue: the order read (Orders 2026-01-01 getOrder) and handed to the order intake. */
  async takeOrderChange(notification: AmazonNotification): Promise<void> {
    if (notification.NotificationType === 'ORDER_CHANGE') {
      const change = notification.Payload.OrderChangeNotification;
      // Orders Amazon fulfils are not ours to print.
      if (change.Summary.FulfillmentType !== 'MFN') return;
      for (const store of await this.storesOfSeller(change.SellerId)) {
        const { token, at, client } = await this.context(store);
        if (change.Summary.MarketplaceId !== at.marketplaceId) continue;
        const order = await client.getOrder(token, at, change.AmazonOrderId, [
          'RECIPIENT',
          'FULFILLMENT',
          'PROCEEDS',
          'BUYER',
        ]);
        const incoming = fromAmazonOrder(order);
        if (incoming) await this.intake().take({ store, orders: [incoming], via: 'delivered' });
      }
    }
  }

  /** The published listing families holding a SKU of a seller (LISTINGS_ITEM_ISSUES_CHANGE names one SKU). */
  async familiesOfSku(sellerId: string, sku: string): Promise<{ integrationId: string; publicationId: string }[]> {
    const out: { integrationId: string; publicationId: string }[] = [];
    for (const store of await this.storesOfSeller(sellerId)) {
      const rows = await publishedFamiliesOfSku(this.deps.db, store, sku);
      for (const row of rows) out.push({ integrationId: store.id, publicationId: row.id });
    }
    return out;
  }

  // ----- listing states (background) -----

  /** Adds a checker of a seller's listings (amazon-listings.ts), told when a push has just been accepted. */
  onListingsToCheck(listener: (row: IntegrationRow) => Promise<void>) {
    this.listingListeners.push(listener);
  }

  /**
   * One listing family's state as Amazon holds it now, stored on its publication (the product's Amazon copy) when it
   * changed, so My Products shows it and open screens follow (the publication's write moves the events stream).
   */
  async refreshListing(
    store: IntegrationRow,
    pub: { id: string; remoteProductId: string | null },
  ): Promise<{ state: ListingStateName; issues: string[] } | null> {
    if (!pub.remoteProductId) return null;
    const found = await this.listingState(store, pub.remoteProductId);
    const state: ListingStateName = !found
      ? 'gone'
      : found.buyable
        ? 'live'
        : found.processing && found.issues.length === 0
          ? 'processing'
          : 'not_buyable';
    const issues = found?.issues ?? [];
    await saveListingState(this.deps.db, { id: pub.id, workspaceId: store.workspaceId }, state, issues);
    return { state, issues };
  }

  /**
   * A batch of a seller's published listing families, by publication id after `after`: each read (Amazon's
   * getListingsItem per SKU, within its rate) and stored. Answers where to go on from, and whether one is processing.
   */
  async refreshListings(
    store: IntegrationRow,
    after: string | null,
    limit: number,
    publicationId?: string,
  ): Promise<{ next: string | null; processing: boolean }> {
    const pubs = await publishedFamilies(this.deps.db, store, { after, limit: limit + 1, publicationId });
    let processing = false;
    for (const pub of pubs.slice(0, limit)) {
      const result = await this.refreshListing(store, pub);
      if (result?.state === 'processing') processing = true;
    }
    return { next: pubs.length > limit ? (pubs[limit - 1]?.id ?? null) : null, processing };
  }

  async disconnect(workspaceId: string, id: string) {
    const row = await this.store(workspaceId, id);
    await this.unsubscribe(row);
    return disconnectStore(this.deps.db, row, FORGET_OAUTH_TOKENS);
  }

  store(workspaceId: string, id: string): Promise<IntegrationRow> {
    return findIntegration(this.deps.db, workspaceId, id, 'amazon');
  }

  private async settings(row: IntegrationRow): Promise<AmazonSettings> {
    return ((await storeSettingsOf(this.deps.db, row.id)) as AmazonSettings | undefined) ?? {};
  }

  private async saveSettings(row: IntegrationRow, data: AmazonSettings) {
    await saveStoreSettings(this.deps.db, row, data, this.deps.now());
  }

  /** `GET /api/amazon/:id/settings`: the marketplace and listing settings, and what is missing in plain words. */
  async getSettings(workspaceId: string, id: string): Promise<TAmazonSettings> {
    const row = await this.store(workspaceId, id);
    const s = await this.settings(row);
    return {
      integrationId: row.id,
      sellerId: row.externalId,
      marketplaceId: s.marketplaceId ?? DEFAULT_AMAZON_MARKETPLACE,
      brand: s.brand ?? null,
      gtinExempt: s.gtinExempt ?? false,
      handlingDays: s.handlingDays ?? AMAZON_DEFAULT_HANDLING_DAYS,
      missing: this.settingsProblems(s),
      notifications: !this.deps.config.amazonSqs
        ? { state: 'polling', problem: null }
        : s.notifications?.subscriptions
          ? { state: 'subscribed', problem: null }
          : { state: 'failed', problem: s.notifications?.problem ?? 'Amazon notifications are not set up yet' },
    };
  }

  async updateSettings(workspaceId: string, id: string, body: TAmazonSettingsBody): Promise<TAmazonSettings> {
    const row = await this.store(workspaceId, id);
    const s = await this.settings(row);
    await this.saveSettings(row, {
      ...s,
      ...(body.marketplaceId !== undefined ? { marketplaceId: body.marketplaceId } : {}),
      ...(body.brand !== undefined ? { brand: body.brand } : {}),
      ...(body.gtinExempt !== undefined ? { gtinExempt: body.gtinExempt } : {}),
      ...(body.handlingDays !== undefined ? { handlingDays: body.handlingDays } : {}),
    });
    return this.getSettings(workspaceId, id);
  }

  private settingsProblems(s: AmazonSettings): string[] {
    const out: string[] = [];
    if (!s.brand)
      out.push(
        `Amazon needs the brand printed on your products. Set it in Integrations → Amazon (goods with no brand of their own are listed as '${AMAZON_GENERIC_BRAND}').`,
      );
    if (!s.gtinExempt)
      out.push(
        'Amazon lists a new product only with a barcode (GTIN) or with a GTIN exemption for its brand. Print-on-demand products have no barcodes: apply for a GTIN exemption for your brand in Seller Central, then tick “My brand has a GTIN exemption” in Integrations → Amazon.',
      );
    return out;
  }

  // ----- tokens -----

  /** A usable access token, refreshed when its hour is nearly over (Amazon's refresh tokens stay the same). */
  async accessToken(row: IntegrationRow): Promise<string> {
    if (!row.refreshTokenEnc || row.status === 'disconnected')
      throw conflict(`${row.storeName ?? 'The Amazon seller'} is not connected. Connect it in Integrations first.`);
    const { db, cipher, now } = this.deps;
    const r = (await storeConnection(db, row.workspaceId, row.id)) ?? row;
    if (r.accessTokenEnc && r.tokenExpiresAt && r.tokenExpiresAt.getTime() - REFRESH_MARGIN_MS > now().getTime())
      return cipher.decrypt(r.accessTokenEnc);
    if (!r.refreshTokenEnc) throw conflict('The Amazon seller is not connected. Connect it in Integrations first.');
    try {
      const tokens = await (await this.getClient()).refresh(cipher.decrypt(r.refreshTokenEnc));
      await updateStoreInWorkspace(db, row, {
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        tokenExpiresAt: tokens.expiresAt,
      });
      return tokens.accessToken;
    } catch (error) {
      if (!(error instanceof AmazonError) || error.status !== 401) throw error;
      await updateStoreInWorkspace(db, row, {
        status: 'error',
        problem: 'Amazon no longer accepts this authorization; connect the seller again.',
      });
      throw upstreamError(
        `Amazon no longer accepts this authorization (${error.message}); connect the seller again in Integrations`,
      );
    }
  }

  private async context(row: IntegrationRow) {
    const s = await this.settings(row);
    const market = amazonMarketplace(s.marketplaceId ?? DEFAULT_AMAZON_MARKETPLACE);
    if (!market) throw conflict('Choose the Amazon marketplace in Integrations first.');
    const at: At = { region: market.region, sellerId: s.sellerId ?? row.externalId, marketplaceId: market.id };
    return { token: await this.accessToken(row), at, market, settings: s, client: await this.getClient() };
  }

  async verify(row: IntegrationRow): Promise<void> {
    const { token, at, client } = await this.context(row);
    await client.productType(token, { ...at, productType: 'SHIRT' });
  }

  // ----- listings -----

  /**
   * The public base Amazon downloads pictures from: APP_URL (https, public); the sandbox seller, which runs in this
   * process, downloads them from this app's own address (APP_URL before the app listens).
   */
  private imageBase(store: IntegrationRow): string | null {
    const base = store.sandbox ? (this.selfUrl ?? this.deps.config.appUrl) : this.deps.config.appUrl;
    if (!base) return null;
    if (store.sandbox) return base;
    const url = new URL(base);
    return url.protocol === 'https:' && !isPrivateHost(url.hostname) ? base : null;
  }

  private imageUrl(store: IntegrationRow) {
    const base = this.imageBase(store) ?? 'https://podforge.invalid';
    return (mockupId: string) => `${base}${this.deps.urlSigner.sign(storeImagePath(mockupId), IMAGE_URL_TTL_SECONDS)}`;
  }

  private listingSettings(s: AmazonSettings, market: NonNullable<ReturnType<typeof amazonMarketplace>>) {
    return {
      brand: s.brand ?? '',
      gtinExempt: s.gtinExempt ?? false,
      marketplaceId: market.id,
      languageTag: market.languageTag,
      currency: market.currency,
      handlingDays: s.handlingDays ?? AMAZON_DEFAULT_HANDLING_DAYS,
    } satisfies AmazonListingSettings;
  }

  private family(
    store: IntegrationRow,
    product: PushProduct,
    def: ProductTypeDefinition,
    settings: AmazonListingSettings,
    options: { archived?: boolean } = {},
  ): FamilyMember[] {
    const sizeAttribute = 'shirt_size' in def.propertyTitles ? 'shirt_size' : 'size';
    return buildFamily(product, settings, sizeAttribute, this.imageUrl(store), options);
  }

  /** What the product type's schema says is missing or wrong, per SKU, in the seller's words. */
  private schemaProblems(def: ProductTypeDefinition, family: FamilyMember[]): string[] {
    const out: string[] = [];
    for (const member of family) {
      if (def.validate(member.attributes)) continue;
      for (const p of attributeProblems(def.validate.errors)) {
        const title = def.propertyTitles[p.attribute] ?? p.attribute;
        const line = p.message.startsWith('is required')
          ? `Amazon's ${def.productType} listing needs “${title}” (${p.attribute}).`
          : `Amazon's ${def.productType} listing refuses “${title}” (${p.attribute}): ${p.message}.`;
        if (!out.includes(line)) out.push(line);
      }
    }
    return out;
  }

  async problems(store: IntegrationRow, product: PushProduct): Promise<string[]> {
    const problems = listingProblems({ title: product.title, tags: product.tags, platform: 'amazon' });
    const s = await this.settings(store);
    problems.push(...this.settingsProblems(s));
    const productType = AMAZON_PRODUCT_TYPES[product.productType];
    if (!productType) problems.push(`Podforge does not list ${product.productType} products on Amazon yet.`);
    if (product.images.length === 0) problems.push('Amazon lists a product only with a picture; add a mockup first.');
    else if (!this.imageBase(store))
      problems.push(
        'Amazon downloads the pictures from this app, so its address must be public https: set APP_URL to it.',
      );
    if (!product.description.trim()) problems.push('Amazon needs a description.');
    const long = product.variants.find((v) => v.sku.length > MAX_SKU_LENGTH);
    if (long) problems.push(`Amazon SKUs are at most ${MAX_SKU_LENGTH} characters; ${long.sku} is longer.`);
    if (productType && ['SHIRT', 'SWEATSHIRT'].includes(productType)) {
      const odd = product.variants.find((v) => v.size && !apparelSize(v.size));
      if (odd) problems.push(`Amazon has no apparel size “${odd.size}”.`);
    }
    if (themeOf(product) === null && product.variants.length > 1)
      problems.push('Amazon lists variants by colour or size; give each variant a colour or a size.');
    if (problems.length > 0 || !productType) return problems;
    // The listing as it would be sent, checked against Amazon's own definition of the product type.
    try {
      const { token, at, market, client } = await this.context(store);
      const def = await client.productType(token, { ...at, productType });
      return this.schemaProblems(def, this.family(store, product, def, this.listingSettings(s, market)));
    } catch (error) {
      throw this.toAppError(error);
    }
  }

  /** Each SKU sent (parent first); a submission Amazon calls INVALID stops the push with its issues. */
  private async send(
    ctx: PublishContext,
    options: { archived?: boolean } = {},
  ): Promise<{ family: FamilyMember[]; remoteProductId: string }> {
    const { token, at, market, settings, client } = await this.context(ctx.store);
    const productType = AMAZON_PRODUCT_TYPES[ctx.product.productType];
    if (!productType) throw conflict(`Podforge does not list ${ctx.product.productType} products on Amazon yet.`);
    const def = await client.productType(token, { ...at, productType });
    const family = this.family(ctx.store, ctx.product, def, this.listingSettings(settings, market), options);
    const invalid = this.schemaProblems(def, family);
    if (invalid.length > 0) throw new AppError(422, ErrorCode.Unprocessable, `Amazon: ${invalid.join(' ')}`);
    const head = family[0];
    if (!head) throw conflict(`"${ctx.product.title}" has no variants to sell`);
    // The family's SKU is known before anything is sent: a retry writes the same SKUs (PUT replaces).
    if (ctx.remoteProductId !== head.sku) await ctx.saveRemoteId(head.sku);
    for (const [i, member] of family.entries()) {
      await ctx.progress?.(
        `Sending ${member.role === 'parent' ? 'the parent listing' : `SKU ${member.sku}`} (${i + 1} of ${family.length})`,
      );
      const answer = await client.putListingsItem(token, at, member.sku, {
        productType: def.productType,
        requirements: 'LISTING',
        attributes: member.attributes,
      });
      if (answer.status === 'INVALID')
        throw new AppError(
          422,
          ErrorCode.Unprocessable,
          `Amazon refused ${member.sku}: ${(answer.issues ?? []).map((x) => issueText(member.sku, x)).join('; ')}`,
        );
    }
    // Children an earlier push made that the product no longer has.
    if (head.role === 'parent') {
      const remote = await client.getListingsItem(token, at, head.sku, ['relationships']);
      const ours = new Set(family.map((m) => m.sku));
      const stale = (remote?.relationships?.[0]?.relationships ?? [])
        .flatMap((r) => r.childSkus ?? [])
        .filter((sku) => !ours.has(sku));
      for (const sku of stale) await client.deleteListingsItem(token, at, sku);
    }
    return { family, remoteProductId: head.sku };
  }

  /** The sandbox page's anchor, or the SKU in Seller Central (SKU Central; the ASIN comes only after processing). */
  private remoteUrl(sku: string, sellerCentral: string) {
    return this.sandboxMode
      ? `/integrations/amazon-sandbox#${encodeURIComponent(sku)}`
      : `${sellerCentral}/skucentral?mSku=${encodeURIComponent(sku)}`;
  }

  async publish(ctx: PublishContext): Promise<PublishOutcome> {
    const { remoteProductId } = await this.send(ctx);
    for (const listener of this.listingListeners) await listener(ctx.store);
    const market = amazonMarketplace((await this.settings(ctx.store)).marketplaceId ?? DEFAULT_AMAZON_MARKETPLACE);
    return { remoteProductId, remoteUrl: this.remoteUrl(remoteProductId, market?.sellerCentral ?? '') };
  }

  async update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome> {
    return this.publish(ctx);
  }

  /** The SKUs of a family as Amazon holds it: the parent's children (relationships), or the one standalone SKU. */
  private async skusOf(token: string, at: At, client: AmazonClient, remoteProductId: string) {
    const head = await client.getListingsItem(token, at, remoteProductId, ['summaries', 'relationships', 'issues']);
    if (!head) return null;
    const children = (head.relationships?.[0]?.relationships ?? []).flatMap((r) => r.childSkus ?? []);
    return { head, children };
  }

  /** Archive: every child's stock to 0 (no buyer can buy it; it can be offered again). Delete: children, then parent. */
  async remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void> {
    const { token, at, client } = await this.context(ctx.store);
    const found = await this.skusOf(token, at, client, ctx.remoteProductId);
    if (!found) return;
    const productType = found.head.summaries?.[0]?.productType ?? AMAZON_PRODUCT_TYPES[ctx.product.productType] ?? '';
    const sellable = found.children.length > 0 ? found.children : [ctx.remoteProductId];
    const settings = await this.settings(ctx.store);
    for (const sku of sellable) {
      if (mode === 'delete') {
        await client.deleteListingsItem(token, at, sku).catch((e: unknown) => {
          if (!(e instanceof AmazonError && e.status === 404)) throw e;
        });
        continue;
      }
      await client.patchListingsItem(token, at, sku, {
        productType,
        patches: [
          {
            op: 'replace',
            path: '/attributes/fulfillment_availability',
            value: [
              {
                fulfillment_channel_code: 'DEFAULT',
                quantity: 0,
                lead_time_to_ship_max_days: settings.handlingDays ?? AMAZON_DEFAULT_HANDLING_DAYS,
              },
            ],
          },
        ],
      });
    }
    if (mode === 'delete' && found.children.length > 0)
      await client.deleteListingsItem(token, at, ctx.remoteProductId).catch((e: unknown) => {
        if (!(e instanceof AmazonError && e.status === 404)) throw e;
      });
  }

  async listings(row: IntegrationRow, remoteProductIds: string[]): Promise<(StoreListing | null)[]> {
    const { token, at, client } = await this.context(row);
    const out: (StoreListing | null)[] = [];
    for (const id of remoteProductIds) {
      const found = await this.skusOf(token, at, client, id);
      if (!found) {
        out.push(null);
        continue;
      }
      const skus = found.children.length > 0 ? found.children : [id];
      const variants: StoreListing['variants'] = [];
      let visible = false;
      for (const sku of skus) {
        const read = await client.getListingsItem(token, at, sku, ['summaries', 'offers']);
        if (!read) continue;
        if (read.summaries?.[0]?.status.includes('BUYABLE')) visible = true;
        variants.push({ sku, price: read.offers?.[0]?.price.amount ?? '' });
      }
      out.push({ remoteProductId: id, title: found.head.summaries?.[0]?.itemName ?? '', visible, variants });
    }
    return out;
  }

  /**
   * Issues Amazon holds for a family's SKUs now (getListingsItem with issues), and whether any is buyable: ACCEPTED
   * is not listed, so the product shows what Amazon found after it (a missing exemption, a picture it could not use).
   */
  async listingState(row: IntegrationRow, remoteProductId: string) {
    const { token, at, client } = await this.context(row);
    const found = await this.skusOf(token, at, client, remoteProductId);
    if (!found) return null;
    const skus = [remoteProductId, ...found.children.filter((c) => c !== remoteProductId)];
    const issues: string[] = [];
    let buyable = false;
    let processing = false;
    for (const sku of skus) {
      // The family's head was read with its issues already.
      const item =
        sku === remoteProductId ? found.head : await client.getListingsItem(token, at, sku, ['summaries', 'issues']);
      if (!item) continue;
      const status = item.summaries?.[0]?.status ?? [];
      if (status.includes('BUYABLE')) buyable = true;
      if (status.length === 0 && !(item.issues ?? []).length) processing = true;
      for (const issue of item.issues ?? []) if (issue.severity === 'ERROR') issues.push(issueText(sku, issue));
    }
    return { buyable, processing, issues };
  }

  /** `GET /api/amazon/products/:productId/listings`: each Amazon listing of the product as Amazon holds it now. */
  async productListings(workspaceId: string, productId: string): Promise<TAmazonProductListings> {
    const rows = await publishedListingsOfProduct(this.deps.db, workspaceId, productId, 'amazon');
    const listings: TAmazonProductListings['listings'] = [];
    for (const { pub, store } of rows) {
      if (!pub.remoteProductId || store.status !== 'connected') continue;
      try {
        const state = await this.refreshListing(store, pub);
        listings.push({
          integrationId: store.id,
          storeName: store.storeName ?? store.externalId,
          remoteProductId: pub.remoteProductId,
          state: state?.state ?? 'gone',
          issues: state?.issues ?? [],
        });
      } catch (error) {
        throw this.toAppError(error);
      }
    }
    return { listings };
  }

  // ----- orders -----

  async readOrders(row: IntegrationRow, since: Date): Promise<IncomingOrder[]> {
    const now = this.deps.now().getTime();
    // Nothing has changed after now.
    if (since.getTime() > now) return [];
    // Amazon refuses an `after` in the future by its clock: a cursor from our clock, a little ahead of Amazon's, must
    // not fail the read. Asked from a little earlier, what changed before `since` is left out here.
    const after = new Date(Math.min(since.getTime(), now - CLOCK_SKEW_MS));
    const { token, at, client } = await this.context(row);
    const found: IncomingOrder[] = [];
    let paginationToken: string | undefined;
    do {
      const page = await client.searchOrders(token, at, {
        lastUpdatedAfter: after.toISOString(),
        marketplaceIds: [at.marketplaceId],
        includedData: ['RECIPIENT', 'FULFILLMENT', 'PROCEEDS', 'BUYER'],
        ...(paginationToken ? { paginationToken } : {}),
      });
      for (const order of page.orders) {
        if (Date.parse(order.lastUpdatedTime) < since.getTime()) continue;
        const incoming = fromAmazonOrder(order);
        if (incoming) found.push(incoming);
      }
      paginationToken = page.pagination?.nextToken;
    } while (paginationToken);
    return found;
  }

  /**
   * The shipment confirmed on Amazon (v0 confirmShipment: carrier code, tracking number, the parcel's items or else
   * the order's unshipped items), once: the order's packages are read first, and one already holding this tracking number (a retry after
   * a lost answer) is the one answered. A carrier Amazon does not list goes as `Other` with its name.
   */
  async sendTracking(row: IntegrationRow, remoteOrderId: string, tracking: Tracking): Promise<string> {
    if (!tracking.number) throw conflict('The printer gave no tracking number to send to Amazon');
    const { token, at, client } = await this.context(row);
    try {
      const order = await client.getOrder(token, at, remoteOrderId, ['FULFILLMENT', 'PACKAGES']);
      const known = (order.packages ?? []).find((p) => p.trackingNumber === tracking.number);
      if (known) return `package:${known.packageReferenceId}`;
      // This parcel's items when the printer said which (a split shipment), else every item still unshipped.
      const carried = tracking.lines ? new Map(tracking.lines.map((l) => [l.remoteLineId, l.quantity])) : null;
      const items = order.orderItems
        .filter((i) => !carried || carried.has(i.orderItemId))
        .map((i) => {
          const open = i.fulfillment?.quantityUnfulfilled ?? i.quantityOrdered;
          const wanted = carried?.get(i.orderItemId);
          return { orderItemId: i.orderItemId, quantity: wanted === undefined ? open : Math.min(wanted, open) };
        })
        .filter((i) => i.quantity > 0);
      if (items.length === 0)
        throw conflict(`Amazon order ${remoteOrderId} is already confirmed as shipped with other tracking`);
      const carrier = (tracking.carrier ?? '').trim();
      const code = AMAZON_CARRIER_CODES.find((c) => c.toLowerCase() === carrier.toLowerCase());
      const packageReferenceId = String((order.packages ?? []).length + 1);
      await client.confirmShipment(token, at, remoteOrderId, {
        marketplaceId: at.marketplaceId,
        packageDetail: {
          packageReferenceId,
          carrierCode: code ?? 'Other',
          ...(code ? {} : { carrierName: carrier || 'Other' }),
          trackingNumber: tracking.number,
          shipDate: this.deps.now().toISOString(),
          orderItems: items,
        },
      });
      return `package:${packageReferenceId}`;
    } catch (error) {
      if (error instanceof AmazonError && error.status === 400)
        throw new AppError(
          422,
          ErrorCode.Unprocessable,
          `Amazon refused the shipment: ${error.details ?? error.message}`,
        );
      throw this.toAppError(error);
    }
  }

  /**
   * A push is a listing put per SKU, the parent's and each variant's (putListingsItem: 5 a second, burst 10), after
   * the product type's definition: one product every 4 s keeps a run of typical products (a few colours in S-XXL,
   * about 20 SKUs) within the rate; the client waits out the rest.
   */
  pushPaceSeconds(): number {
    return 4;
  }

  /** Amazon's answer as the seller should read it: 503 while throttled, 502 with the reason otherwise. */
  toAppError(error: unknown): unknown {
    if (error instanceof AppError) return error;
    if (error instanceof AmazonError) {
      if (error.status === 429)
        return new AppError(
          503,
          ErrorCode.RateLimited,
          `Amazon is limiting calls right now (${error.message}); Podforge tries again shortly`,
          error.retryAfterSeconds && error.retryAfterSeconds > 60
            ? { retryAfterSeconds: String(error.retryAfterSeconds) }
            : {},
        );
      if (error.status === 401 || error.status === 403)
        return upstreamError(
          `Amazon refused the connection (${error.details ?? error.message}); connect the seller again in Integrations`,
        );
      if (error.status === 400 || error.status === 404)
        return new AppError(
          422,
          ErrorCode.Unprocessable,
          `Amazon: ${error.message}${error.details ? ` (${error.details})` : ''}`,
        );
      return upstreamError(`Amazon: ${error.message}`);
    }
    return error;
  }

  // ----- sandbox -----

  private sandboxRows(workspaceId: string) {
    return storesOfWorkspace(this.deps.db, workspaceId, 'amazon', {
      sandbox: true,
      statuses: ['connected', 'pending', 'error'],
    });
  }

  /** `GET /api/amazon/sandbox/listings`: every SKU the workspace's sandbox sellers hold, as Amazon holds it. */
  async sandboxListings(workspaceId: string): Promise<TAmazonSandboxListings> {
    const fake = await this.sandboxServer();
    if (!fake) return { sandbox: false, sellers: [] };
    await fake.processDue();
    const sellers = [];
    for (const row of await this.sandboxRows(workspaceId)) {
      const listings = fake.listings(row.externalId).map((l) => {
        const a = l.attributes;
        const parentage = (a.parentage_level?.[0] as { value?: string } | undefined)?.value;
        const parentSku = (a.child_parent_sku_relationship?.[0] as { parent_sku?: string } | undefined)?.parent_sku;
        return {
          sku: l.sku,
          parentage: parentage === 'parent' ? ('parent' as const) : parentage === 'child' ? ('child' as const) : null,
          parentSku: parentSku ?? null,
          productType: l.productType,
          marketplaceId: l.marketplaceId,
          asin: l.asin,
          attributes: a,
          status: l.status,
          issues: l.issues.map((i) => ({ code: i.code, message: i.message, severity: i.severity })),
          processing: l.processAt !== null,
          updatedAt: l.lastUpdatedDate,
        };
      });
      sellers.push({
        integrationId: row.id,
        sellerId: row.externalId,
        name: row.storeName ?? row.externalId,
        listings,
      });
    }
    return { sandbox: true, sellers };
  }

  /** `GET /api/amazon/sandbox/orders`: the sandbox sellers' orders, with the shipment Podforge confirmed. */
  async sandboxOrders(workspaceId: string): Promise<TAmazonSandboxOrders> {
    const fake = await this.sandboxServer();
    if (!fake) return { sandbox: false, orders: [] };
    const out: TAmazonSandboxOrders['orders'] = [];
    for (const row of await this.sandboxRows(workspaceId))
      for (const o of fake.orders(row.externalId)) {
        const pkg = o.packages[o.packages.length - 1];
        out.push({
          integrationId: row.id,
          orderId: o.orderId,
          marketplaceId: o.marketplaceId,
          status: o.status,
          createdTime: o.createdTime,
          currency: o.currency,
          lines: o.items.map((i) => ({ sku: i.sku, quantity: i.quantity, price: i.price })),
          shipmentConfirmed: o.packages.length > 0,
          carrier: pkg ? (pkg.carrierCode === 'Other' ? (pkg.carrierName ?? 'Other') : pkg.carrierCode) : null,
          tracking: pkg?.trackingNumber ?? null,
        });
      }
    out.sort((a, b) => b.createdTime.localeCompare(a.createdTime));
    return { sandbox: true, orders: out };
  }

  /** `POST /api/amazon/sandbox/orders`: a buyer orders BUYABLE SKUs of the sandbox seller; the read runs at once. */
  async placeSandboxOrder(workspaceId: string, input: TSandboxOrderInput) {
    const row = await this.store(workspaceId, input.integrationId);
    const fake = await this.sandboxServer();
    if (!fake) throw conflict('Test orders are for the sandbox seller; this server is connected to Amazon itself');
    if (!row.sandbox || row.status !== 'connected')
      throw conflict(`${row.storeName ?? row.externalId} is not a connected sandbox seller`);
    const s = await this.settings(row);
    const marketplaceId = s.marketplaceId ?? DEFAULT_AMAZON_MARKETPLACE;
    await fake.processDue();
    const buyable = new Set(
      fake
        .listings(row.externalId)
        .filter((l) => l.marketplaceId === marketplaceId && l.status.includes('BUYABLE'))
        .map((l) => l.sku),
    );
    const unknown = input.lines.find((l) => !buyable.has(l.sku));
    if (unknown)
      throw badRequest(
        `SKU ${unknown.sku} is not buyable on Amazon yet (push the product there, and wait until Amazon has processed it)`,
      );
    const a = input.address ?? DEFAULT_TEST_ADDRESS;
    const deliveredBefore = fake.deliveries.length;
    const order = await fake.placeOrder(row.externalId, marketplaceId, {
      lines: input.lines,
      address: {
        name: a.name,
        addressLine1: a.address1,
        ...(a.address2 ? { addressLine2: a.address2 } : {}),
        city: a.city,
        ...(a.provinceCode ? { stateOrRegion: a.provinceCode } : {}),
        postalCode: a.zip,
        countryCode: a.countryCode,
      },
    });
    // A seller subscribed to ORDER_CHANGE with the app's queue has the order delivered; else it is read at once.
    const delivered = fake.deliveries
      .slice(deliveredBefore)
      .some((d) => d.notificationType === 'ORDER_CHANGE' && !d.error);
    if (!delivered) await this.ordersToRead(row);
    const total = order.items.reduce((t, i) => t + Number(i.price) * i.quantity, 0).toFixed(2);
    return { remoteOrderId: order.orderId, name: order.orderId, total, currency: order.currency };
  }
}
