import {
  DEFAULT_TEST_ADDRESS,
  ErrorCode,
  listingProblems,
  type TEtsySandboxListings,
  type TEtsySetup,
  type TEtsySetupBody,
  type TSandboxOrderInput,
} from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  type DraftListingInput,
  ETSY_SCOPES,
  type EtsyCallBudget,
  EtsyClient,
  EtsyError,
  type EtsyInventoryInput,
  type EtsyListing,
  type EtsyReceipt,
  moneyString,
  pkcePair,
  type TaxonomyNode,
} from '../../integrations/etsy/client';
import { type EtsyFakeState, type FakeEtsy, startFakeEtsy } from '../../integrations/etsy/fake-server';
import { fromEtsyReceipt } from '../../integrations/etsy/mapping';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, conflict, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState, pendingFlowOf } from '../../lib/oauth-states';
import type { Storage } from '../../storage/storage';
import { findIntegration } from '../integrations/integrations.repository';
import { markBudgetSpent, reserveCallTurn } from '../stores/call-budget.repository';
import type { IncomingOrder } from '../stores/incoming-order';
import { resumeOrCreate } from '../stores/resume-or-create';
import { SandboxState, sandboxOwnerTag } from '../stores/sandbox-state';
import {
  disconnectStore,
  FORGET_OAUTH_TOKENS,
  publishedRemoteIds,
  sandboxListingsOf,
  saveStoreSettings,
  setStoreProblem,
  storeConnection,
  storeSettingsOf,
  storesOfWorkspace,
  updateStoreInWorkspace,
  upsertStoreConnection,
} from '../stores/store-connections.repository';
import { StoreOrderSource, type StorePlatform } from '../stores/store-platform';
import type {
  IntegrationRow,
  PublishContext,
  PublishOutcome,
  PushProduct,
  StoreListing,
  Tracking,
} from '../stores/store-publisher';

/** Fixed credentials of the built-in sandbox: it runs in this process, on loopback, and nobody else holds a key. */
export const ETSY_SANDBOX_KEYSTRING = 'podforgesandbox';
export const ETSY_SANDBOX_SECRET = 'podforgesandboxsecret';
/** The browser-facing approval step of the sandbox, relayed by the app (see etsy.routes.ts). */
export const ETSY_SANDBOX_CONNECT_PREFIX = '/auth/etsy/sandbox';

/** Etsy's custom variation properties; we name them Color and Size. */
export const ETSY_COLOR_PROPERTY = 513;
export const ETSY_SIZE_PROPERTY = 514;
/** Etsy takes 10 pictures a listing; one is kept back so an update can add the new ones before removing the old. */
const MAX_PICTURES = 9;
/** Refreshed this long before the hour ends. */
const REFRESH_MARGIN_MS = 5 * 60_000;
/** getShopReceipts' largest page. */
const RECEIPT_PAGE = 100;
/** Print-on-demand is made to order: an offering's quantity (Etsy's maximum). */
const MADE_TO_ORDER_QUANTITY = 999;

/** What each order scope lets Podforge do, for the store's problem when a connection lacks it. */
const SCOPE_PURPOSE = {
  transactions_r: 'read orders',
  transactions_w: 'send tracking to Etsy',
} as const;
export type EtsyOrderScope = keyof typeof SCOPE_PURPOSE;

/** The store's problem when its connection lacks an order scope (connected before Podforge asked for it). */
export const etsyScopeProblem = (scope: EtsyOrderScope) =>
  `Reconnect Etsy to let Podforge ${SCOPE_PURPOSE[scope]}: the connection lacks ${scope}`;

/** The connection lacks a scope an order call needs: the seller must reconnect (no retry helps). */
export class EtsyScopeMissing extends AppError {
  constructor(readonly scope: EtsyOrderScope) {
    super(409, ErrorCode.Conflict, etsyScopeProblem(scope));
  }
}

/**
 * Seller-taxonomy nodes tried, in order, for each product type: the end of a node's path from the root (names
 * matched case-insensitively). Etsy's tree has several nodes of one name (a 'T-shirts' under Women's Clothing and
 * one under Gender-Neutral Adult Clothing, which was 'Unisex Adult Clothing' before), so apparel names its parents.
 */
const TAXONOMY_PATHS: Record<string, string[][]> = {
  tshirt: [
    ['Gender-Neutral Adult Clothing', 'Tops & Tees', 'T-shirts'],
    ['Unisex Adult Clothing', 'Tops & Tees', 'T-shirts'],
    ['T-shirts'],
  ],
  hoodie: [
    ['Gender-Neutral Adult Clothing', 'Hoodies & Sweatshirts'],
    ['Unisex Adult Clothing', 'Hoodies & Sweatshirts'],
    ['Hoodies & Sweatshirts'],
    ['Hoodies'],
  ],
  mug: [['Mugs']],
  poster: [['Posters & Prints'], ['Posters'], ['Prints']],
  sticker: [['Stickers']],
  tote: [['Tote Bags'], ['Totes']],
  phone_case: [['Phone Cases']],
};

type EtsySettings = {
  shopId?: string;
  shippingProfileId?: string | null;
  readinessStateId?: string | null;
  productionPartnerId?: string | null;
};
type FlowData = { verifier: string; redirectUri: string };
type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; storage: Storage };

export type EtsyOAuthOutcome = { outcome: 'connected' | 'setup' | 'invalid_state' | 'failed'; integrationId?: string };

/**
 * Etsy shops of a workspace: OAuth 2 with PKCE, the profiles chosen once at connect, listing pushes (the
 * StorePlatform for 'etsy'). With ETSY_API_KEY and ETSY_SHARED_SECRET it talks to Etsy; without them to the
 * built-in sandbox, the fake Etsy the tests use, started in this process and kept in the database.
 */
export class EtsyService extends StoreOrderSource implements StorePlatform {
  readonly platform = 'etsy' as const;
  readonly sandboxMode: boolean;
  /** Replaceable (tests put a client with a virtual clock or sleep here). */
  client: EtsyClient | null = null;
  private sandbox: Promise<FakeEtsy> | null = null;
  private sandboxState: SandboxState<EtsyFakeState> | null = null;
  private taxonomyCache: TaxonomyNode[] | null = null;
  /** Set before first use to change the sandbox (tests raise its rate limits: they run faster than a second). */
  sandboxOptions: { limits?: { perSecond: number; perDay: number } } = {};
  /** Told when a shop may have orders to read now (connected, a sandbox test order): the orders module's reader. */

  constructor(private readonly deps: Deps) {
    super();
    const etsy = deps.config.etsy;
    this.sandboxMode = etsy === null;
    if (etsy) {
      this.client = new EtsyClient({
        keystring: etsy.apiKey,
        sharedSecret: etsy.sharedSecret,
        apiBase: etsy.apiBase,
        connectBase: etsy.connectBase,
        tokenBase: etsy.tokenBase,
        budget: this.sharedBudget(etsy.apiKey),
      });
    }
  }

  /** Etsy counts calls per app: the app's budget is kept in the database, shared by every instance. */
  private sharedBudget(keystring: string): EtsyCallBudget {
    const key = `etsy:${keystring}`;
    return {
      reserve: (perSecond, windowMs) => reserveCallTurn(this.deps.db, key, perSecond, windowMs),
      spent: (seconds) => markBudgetSpent(this.deps.db, key, seconds),
    };
  }

  /** The sandbox Etsy (null with real credentials), started once with the state the database holds. */
  sandboxServer(): Promise<FakeEtsy> | null {
    if (!this.sandboxMode) return null;
    this.sandbox ??= (async () => {
      this.sandboxState = new SandboxState<EtsyFakeState>(this.deps.db, this.deps.storage, 'etsy', this.deps.cipher);
      const state = await this.sandboxState.load();
      const keeper = this.sandboxState;
      return startFakeEtsy({
        keystring: ETSY_SANDBOX_KEYSTRING,
        sharedSecret: ETSY_SANDBOX_SECRET,
        state,
        persist: (s) => keeper.save(s),
        images: keeper.images,
        ...this.sandboxOptions,
      });
    })();
    return this.sandbox;
  }

  async getClient(): Promise<EtsyClient> {
    if (this.client) return this.client;
    const fake = await this.sandboxServer();
    if (!fake) throw new Error('Etsy client missing');
    this.client ??= new EtsyClient({
      keystring: ETSY_SANDBOX_KEYSTRING,
      sharedSecret: ETSY_SANDBOX_SECRET,
      apiBase: fake.url,
      connectBase: ETSY_SANDBOX_CONNECT_PREFIX,
      tokenBase: fake.url,
      budget: this.sharedBudget(ETSY_SANDBOX_KEYSTRING),
      // Paced to the sandbox's own limit (tests raise it).
      ...(this.sandboxOptions.limits ? { perSecond: this.sandboxOptions.limits.perSecond } : {}),
    });
    return this.client;
  }

  async close() {
    const fake = await this.sandbox?.catch(() => null);
    await fake?.close();
    await this.sandboxState?.flush();
  }

  private stateScope(workspaceId: string) {
    return { db: this.deps.db, workspaceId, provider: 'etsy' as const, now: this.deps.now() };
  }

  /** A PKCE pair and a single-use state bound to this workspace; the verifier stays on the server. */
  async startOAuth(workspaceId: string, redirectUri: string): Promise<string> {
    const { verifier, challenge } = pkcePair();
    const state = await issueOAuthState(this.stateScope(workspaceId), { verifier, redirectUri } satisfies FlowData);
    return (await this.getClient()).authorizeUrl({ state, challenge, redirectUri });
  }

  /**
   * The sandbox's approval, as this workspace's own sandbox seller (`login`, set here whatever the browser sent):
   * each workspace gets its own sandbox shop, so no other workspace's test orders or listings are in it.
   */
  sandboxApprovalUrl(sandboxUrl: string, workspaceId: string, search: string): string {
    const query = new URLSearchParams(search);
    query.set('login', `podforge-${sandboxOwnerTag(workspaceId)}`);
    return `${sandboxUrl}/oauth/connect?${query}`;
  }

  /** The sandbox relay hands on an approval only for a flow this workspace started, to its own callback. */
  async isOwnPendingFlow(workspaceId: string, query: URLSearchParams): Promise<boolean> {
    return (await pendingFlowOf<FlowData>(this.stateScope(workspaceId), query)) !== null;
  }

  /**
   * The callback: state (single use, this workspace), the code and PKCE verifier for tokens, the user's shop. The
   * shop's profiles are chosen at once when it has one of each; otherwise the seller chooses them (status pending).
   */
  async finishOAuth(workspaceId: string, query: Record<string, string>): Promise<EtsyOAuthOutcome> {
    if (!query.state) return { outcome: 'invalid_state' };
    const flow = await consumeOAuthState<FlowData>(this.stateScope(workspaceId), query.state);
    if (!flow) return { outcome: 'invalid_state' };
    if (!query.code) return { outcome: 'failed' };
    try {
      const client = await this.getClient();
      const tokens = await client.exchangeCode({
        code: query.code,
        verifier: flow.verifier,
        redirectUri: flow.redirectUri,
      });
      const me = await client.me(tokens.accessToken);
      const shopId = String(me.shop_id);
      const shop = await client.shop(tokens.accessToken, shopId);
      const { db, cipher } = this.deps;
      const values = {
        storeName: this.sandboxMode ? `${shop.shop_name} (Sandbox)` : shop.shop_name,
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: cipher.encrypt(tokens.refreshToken),
        tokenExpiresAt: tokens.expiresAt,
        // What the authorization asked for (Etsy grants the requested scopes or none).
        scopes: ETSY_SCOPES.join(' '),
        problem: null,
        status: 'pending' as const,
        verifiedAt: null,
        sandbox: this.sandboxMode,
      };
      const row = await upsertStoreConnection(db, { workspaceId, platform: 'etsy', externalId: shopId }, values);
      if (!row) return { outcome: 'failed' };
      const [shipping, processing, partners] = await Promise.all([
        client.shippingProfiles(tokens.accessToken, shopId),
        client.processingProfiles(tokens.accessToken, shopId),
        client.productionPartners(tokens.accessToken, shopId),
      ]);
      const previous = await this.settings(row);
      const keep = (id: string | null | undefined, ids: string[]) => (id && ids.includes(id) ? id : null);
      const only = (ids: string[]) => (ids.length === 1 ? (ids[0] ?? null) : null);
      const shippingIds = shipping.map((s) => String(s.shipping_profile_id));
      const processingIds = processing.map((p) => String(p.readiness_state_id));
      const partnerIds = partners.map((p) => String(p.production_partner_id));
      const settings: EtsySettings = {
        shopId,
        shippingProfileId: keep(previous.shippingProfileId, shippingIds) ?? only(shippingIds),
        readinessStateId: keep(previous.readinessStateId, processingIds) ?? only(processingIds),
        productionPartnerId: keep(previous.productionPartnerId, partnerIds) ?? only(partnerIds),
      };
      await this.saveSettings(row, settings);
      if (
        settings.shippingProfileId &&
        settings.readinessStateId &&
        (partnerIds.length <= 1 || settings.productionPartnerId)
      ) {
        await this.markConnected(row);
        return { outcome: 'connected', integrationId: row.id };
      }
      return { outcome: 'setup', integrationId: row.id };
    } catch (error) {
      if (error instanceof EtsyError) return { outcome: 'failed' };
      throw error;
    }
  }

  private async markConnected(row: IntegrationRow) {
    await updateStoreInWorkspace(this.deps.db, row, { status: 'connected', verifiedAt: this.deps.now() });
    await this.ordersToRead(row);
  }

  /** The scope is among those the connection was granted. */
  hasScope(row: IntegrationRow, scope: EtsyOrderScope): boolean {
    return (row.scopes ?? '').split(/[\s,]+/).includes(scope);
  }

  /** Sets (or clears, with null) what the seller must do for this shop, shown on its Integrations card. */
  async setProblem(row: IntegrationRow, problem: string | null) {
    await setStoreProblem(this.deps.db, row, problem);
  }

  /** An Etsy refusal of a call outside the granted scopes (403 naming a scope) as the named problem. */
  private scopeRefusal(error: unknown, scope: EtsyOrderScope): unknown {
    return error instanceof EtsyError && error.status === 403 && /scope/i.test(error.message)
      ? new EtsyScopeMissing(scope)
      : error;
  }

  /**
   * One page of the shop's receipts changed at or after `minLastModified` (epoch seconds), oldest change first
   * (getShopReceipts, scope transactions_r). A connection without the scope throws EtsyScopeMissing before calling.
   */
  async receiptsSince(row: IntegrationRow, minLastModified: number, offset: number, limit: number) {
    if (!this.hasScope(row, 'transactions_r')) throw new EtsyScopeMissing('transactions_r');
    const token = await this.accessToken(row);
    const settings = await this.settings(row);
    const client = await this.getClient();
    try {
      return await client.receipts(token, settings.shopId ?? row.externalId, {
        minLastModified,
        sortOn: 'updated',
        sortOrder: 'asc',
        limit,
        offset,
      });
    } catch (error) {
      throw this.scopeRefusal(error, 'transactions_r');
    }
  }

  /** The shop's owner answers with this token (refreshed first when its hour is nearly over). */
  async verify(row: IntegrationRow): Promise<void> {
    const token = await this.accessToken(row);
    await (await this.getClient()).me(token);
  }

  /** The port's drift read: each listing and its inventory's SKUs and prices; a deleted one is null. */
  async listings(row: IntegrationRow, remoteProductIds: string[]): Promise<(StoreListing | null)[]> {
    const token = await this.accessToken(row);
    const client = await this.getClient();
    const out: (StoreListing | null)[] = [];
    for (const id of remoteProductIds) {
      try {
        const listing = await client.getListing(token, id);
        const inventory = await client.inventory(token, id);
        out.push({
          remoteProductId: String(listing.listing_id),
          title: listing.title,
          visible: listing.state === 'active',
          variants: inventory.products.map((p) => ({
            sku: p.sku || null,
            price: p.offerings[0] ? moneyString(p.offerings[0].price) : '',
          })),
        });
      } catch (error) {
        if (!(error instanceof EtsyError && error.status === 404)) throw error;
        out.push(null);
      }
    }
    return out;
  }

  /**
   * The port's order read: every page of receipts changed since `since`, the paid and the cancelled ones, oldest
   * change first, each with its `changedAt` (the order reader's cursor) and its lines' listings. A connection without
   * transactions_r throws EtsyScopeMissing.
   */
  async readOrders(row: IntegrationRow, since: Date): Promise<IncomingOrder[]> {
    const found: IncomingOrder[] = [];
    for (let offset = 0; ; offset += RECEIPT_PAGE) {
      const page = await this.receiptsSince(row, Math.floor(since.getTime() / 1000), offset, RECEIPT_PAGE);
      for (const receipt of page.results) {
        const order = fromEtsyReceipt(receipt);
        if (order) found.push({ ...order, changedAt: new Date(receipt.update_timestamp * 1000) });
      }
      if (page.results.length < RECEIPT_PAGE || offset + RECEIPT_PAGE >= page.count) return found;
    }
  }

  /**
   * The shipment's tracking on the receipt (createReceiptShipment, scope transactions_w), once: Etsy adds a shipment
   * and emails the buyer on every call, so the receipt is read first and a shipment already holding this tracking
   * code (a retry after an answer that was lost) is the one answered. Answers `shipment:<receipt_shipping_id>`.
   */
  async fulfilReceipt(
    row: IntegrationRow,
    receiptId: string,
    tracking: { carrier: string | null; number: string | null; url: string | null },
  ): Promise<string> {
    if (!this.hasScope(row, 'transactions_w')) throw new EtsyScopeMissing('transactions_w');
    if (!tracking.number) throw conflict('Printful gave no tracking number to send to Etsy');
    const token = await this.accessToken(row);
    const settings = await this.settings(row);
    const shopId = settings.shopId ?? row.externalId;
    const client = await this.getClient();
    const existing = (r: EtsyReceipt) => r.shipments.find((x) => x.tracking_code === tracking.number);
    try {
      const before = await client.receipt(token, shopId, receiptId);
      const found = existing(before);
      if (found) return `shipment:${found.receipt_shipping_id ?? tracking.number}`;
      const after = await client.createReceiptShipment(token, shopId, receiptId, {
        tracking_code: tracking.number,
        // Etsy knows carriers by name; one it does not know may be sent as 'other' (not confirmed which it knows).
        carrier_name: (tracking.carrier ?? 'other').toLowerCase(),
        ...(tracking.url ? { note_to_buyer: `Track your parcel: ${tracking.url}` } : {}),
      });
      const made = existing(after);
      return `shipment:${made?.receipt_shipping_id ?? tracking.number}`;
    } catch (error) {
      const refused = this.scopeRefusal(error, 'transactions_w');
      if (refused instanceof AppError) throw refused;
      if (error instanceof EtsyError && error.status >= 400 && error.status < 500 && error.status !== 429)
        throw new AppError(422, ErrorCode.Unprocessable, `Etsy refused the tracking: ${error.message}`);
      throw this.toAppError(error);
    }
  }

  /** The port's tracking out: `fulfilReceipt`; a connection without transactions_w also says so on the shop. */
  async sendTracking(row: IntegrationRow, remoteOrderId: string, tracking: Tracking): Promise<string> {
    // createReceiptShipment with the tracking code and carrier; Etsy emails the buyer (see fulfilReceipt).
    try {
      return await this.fulfilReceipt(row, remoteOrderId, tracking);
    } catch (error) {
      // A connection without transactions_w: the shop shows it too, so the seller knows to reconnect.
      if (error instanceof EtsyScopeMissing) await this.setProblem(row, error.message);
      throw error;
    }
  }

  /**
   * `POST /api/etsy/sandbox/orders`: a buyer pays for SKUs of the workspace's sandbox shop's active listings; the
   * shop's order reader is told at once (it reads the receipt through the same client as a real shop's).
   */
  async placeSandboxOrder(workspaceId: string, input: TSandboxOrderInput) {
    const row = await this.store(workspaceId, input.integrationId);
    const fake = await this.sandboxServer();
    if (!fake) throw conflict('Test orders are for sandbox shops; this server is connected to Etsy itself');
    if (!row.sandbox || row.status !== 'connected')
      throw conflict(`${row.storeName ?? row.externalId} is not a connected sandbox shop`);
    const shopId = Number(row.externalId);
    const sold = new Set(
      fake
        .listings(shopId)
        .filter((l) => l.state === 'active')
        .flatMap((l) => (l.inventory?.products ?? []).map((p) => p.sku)),
    );
    const unknown = input.lines.find((l) => !sold.has(l.sku));
    if (unknown) throw badRequest(`SKU ${unknown.sku} is not sold in ${row.storeName}; push the product there first`);
    const a = input.address ?? DEFAULT_TEST_ADDRESS;
    const receipt = await fake.placeReceipt(shopId, {
      lines: input.lines,
      address: {
        name: a.name,
        first_line: a.address1,
        second_line: a.address2 ?? null,
        city: a.city,
        state: a.provinceCode ?? null,
        zip: a.zip,
        country_iso: a.countryCode,
      },
    });
    await this.ordersToRead(row);
    return {
      remoteOrderId: String(receipt.receipt_id),
      name: `#${receipt.receipt_id}`,
      total: moneyString(receipt.grandtotal),
      currency: receipt.grandtotal.currency_code,
    };
  }

  private async settings(row: IntegrationRow): Promise<EtsySettings> {
    return ((await storeSettingsOf(this.deps.db, row.id)) as EtsySettings | undefined) ?? {};
  }

  private async saveSettings(row: IntegrationRow, data: EtsySettings) {
    await saveStoreSettings(this.deps.db, row, data, this.deps.now());
  }

  store(workspaceId: string, id: string): Promise<IntegrationRow> {
    return findIntegration(this.deps.db, workspaceId, id, 'etsy');
  }

  /**
   * A usable access token, refreshed when its hour is nearly over. Etsy's refresh tokens are single use: when two
   * pushes refresh at once, the one whose refresh is refused reads the row again and takes the other's new token.
   * (No row lock: the sandbox writes to the same database while the call is in flight.)
   */
  async accessToken(row: IntegrationRow): Promise<string> {
    if (!row.accessTokenEnc || !row.refreshTokenEnc || row.status === 'disconnected') {
      throw conflict(`${row.storeName ?? 'The Etsy shop'} is not connected. Connect it in Integrations first.`);
    }
    const { db, cipher, now } = this.deps;
    const fresh = (r: IntegrationRow) =>
      r.tokenExpiresAt !== null && r.tokenExpiresAt.getTime() - REFRESH_MARGIN_MS > now().getTime();
    const reread = async () => (await storeConnection(db, row.workspaceId, row.id)) ?? undefined;
    const current = (await reread()) ?? row;
    if (current.accessTokenEnc && fresh(current)) return cipher.decrypt(current.accessTokenEnc);
    if (!current.refreshTokenEnc) throw conflict('The Etsy shop is not connected. Connect it in Integrations first.');
    const client = await this.getClient();
    try {
      const tokens = await client.refresh(cipher.decrypt(current.refreshTokenEnc));
      await updateStoreInWorkspace(db, row, {
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: cipher.encrypt(tokens.refreshToken),
        tokenExpiresAt: tokens.expiresAt,
      });
      return tokens.accessToken;
    } catch (error) {
      if (!(error instanceof EtsyError) || error.status !== 401) throw error;
      const after = await reread();
      if (after?.accessTokenEnc && fresh(after)) return cipher.decrypt(after.accessTokenEnc);
      await updateStoreInWorkspace(db, row, { status: 'error' });
      throw upstreamError('Etsy no longer accepts this connection; connect the shop again in Integrations');
    }
  }

  /** `GET /api/etsy/:id/setup`: the shop's profiles, read from Etsy, and what is chosen. */
  async setup(workspaceId: string, id: string): Promise<TEtsySetup> {
    const row = await this.store(workspaceId, id);
    const token = await this.accessToken(row);
    const client = await this.getClient();
    const settings = await this.settings(row);
    const shopId = settings.shopId ?? row.externalId;
    try {
      const [shipping, processing, partners] = await Promise.all([
        client.shippingProfiles(token, shopId),
        client.processingProfiles(token, shopId),
        client.productionPartners(token, shopId),
      ]);
      return {
        integrationId: row.id,
        shopName: row.storeName ?? shopId,
        shippingProfiles: shipping.map((s) => ({ id: String(s.shipping_profile_id), name: s.title })),
        processingProfiles: processing.map((p) => ({
          id: String(p.readiness_state_id),
          name: `${p.readiness_state === 'made_to_order' ? 'Made to order' : 'Ready to ship'}, ${p.min_processing_days}-${p.max_processing_days} days`,
        })),
        productionPartners: partners.map((p) => ({ id: String(p.production_partner_id), name: p.partner_name })),
        chosen: {
          shippingProfileId: settings.shippingProfileId ?? null,
          readinessStateId: settings.readinessStateId ?? null,
          productionPartnerId: settings.productionPartnerId ?? null,
        },
      };
    } catch (error) {
      throw this.toAppError(error);
    }
  }

  /** `POST /api/etsy/:id/setup`: the choices must be the shop's own; then the shop is connected. */
  async saveSetup(workspaceId: string, id: string, body: TEtsySetupBody): Promise<TEtsySetup> {
    const current = await this.setup(workspaceId, id);
    if (!current.shippingProfiles.some((s) => s.id === body.shippingProfileId))
      throw badRequest('shippingProfileId: not a shipping profile of this shop');
    if (!current.processingProfiles.some((s) => s.id === body.readinessStateId))
      throw badRequest('readinessStateId: not a processing profile of this shop');
    const partner = body.productionPartnerId ?? null;
    if (partner !== null && !current.productionPartners.some((s) => s.id === partner))
      throw badRequest('productionPartnerId: not a production partner of this shop');
    if (partner === null && current.productionPartners.length > 0)
      throw badRequest('productionPartnerId: choose who prints the products (Etsy asks for the production partner)');
    const row = await this.store(workspaceId, id);
    const settings = await this.settings(row);
    await this.saveSettings(row, {
      ...settings,
      shippingProfileId: body.shippingProfileId,
      readinessStateId: body.readinessStateId,
      productionPartnerId: partner,
    });
    await this.markConnected(row);
    return this.setup(workspaceId, id);
  }

  async disconnect(workspaceId: string, id: string) {
    return disconnectStore(this.deps.db, await this.store(workspaceId, id), FORGET_OAUTH_TOKENS);
  }

  private async taxonomyId(token: string, productType: string): Promise<number | null> {
    if (!this.taxonomyCache) this.taxonomyCache = await (await this.getClient()).taxonomy(token);
    const nodes: { id: number; path: string[] }[] = [];
    const walk = (list: TaxonomyNode[], parents: string[]) => {
      for (const n of list) {
        const path = [...parents, n.name.toLowerCase()];
        nodes.push({ id: n.id, path });
        walk(n.children ?? [], path);
      }
    };
    walk(this.taxonomyCache, []);
    for (const wanted of TAXONOMY_PATHS[productType] ?? []) {
      const tail = wanted.map((w) => w.toLowerCase());
      const found = nodes.find(
        (n) => n.path.length >= tail.length && tail.every((w, i) => n.path[n.path.length - tail.length + i] === w),
      );
      if (found) return found.id;
    }
    return null;
  }

  /** Etsy's listing rules and the shop's setup, before anything is sent. */
  async problems(store: IntegrationRow, product: PushProduct): Promise<string[]> {
    const problems = listingProblems({ title: product.title, tags: product.tags, platform: 'etsy' });
    const settings = await this.settings(store);
    if (!settings.shippingProfileId || !settings.readinessStateId)
      problems.push('Choose the shop’s shipping and processing profiles in Integrations first.');
    if (product.images.length === 0) problems.push('Etsy lists a product only with a picture; add a mockup first.');
    if (!product.description.trim()) problems.push('Etsy needs a description.');
    if (product.variants.some((v) => /[()]/.test(`${v.color ?? ''}${v.size ?? ''}${v.option}`)))
      problems.push('Etsy variation names cannot contain ( or ).');
    return problems;
  }

  /** A lost create (Etsy answered an error yet made it): our SKUs, or our title on a draft made since this push began. */
  private async findLostListing(ctx: PublishContext, token: string, shopId: string): Promise<EtsyListing | null> {
    const client = await this.getClient();
    const ours = new Set(ctx.product.variants.map((v) => v.sku));
    const since = Math.floor(ctx.startedAt.getTime() / 1000) - 24 * 3600;
    for (const state of ['draft', 'active', 'inactive'] as const) {
      const listings = await client.listingsByShop(token, shopId, state);
      const bySku = listings.find((l) => (l.skus ?? []).some((s) => ours.has(s)));
      if (bySku) return bySku;
      if (state === 'draft') {
        const byTitle = listings.find(
          (l) => (l.skus ?? []).length === 0 && l.title === ctx.product.title && l.created_timestamp >= since,
        );
        if (byTitle) return byTitle;
      }
    }
    return null;
  }

  /**
   * The push: the listing an earlier attempt recorded, or one a lost create made, or a new draft whose id is
   * recorded before anything else is sent (`resumeOrCreate`); then its text, pictures, inventory and variation pictures; then active.
   */
  async publish(ctx: PublishContext): Promise<PublishOutcome> {
    const token = await this.accessToken(ctx.store);
    const settings = await this.settings(ctx.store);
    const shopId = settings.shopId ?? ctx.store.externalId;
    const client = await this.getClient();
    const { remoteId: listingId } = await resumeOrCreate(ctx, {
      exists: (id) =>
        client.getListing(token, id).then(
          () => true,
          (e: unknown) => {
            if (e instanceof EtsyError && e.status === 404) return false;
            throw e;
          },
        ),
      findLost: async () => {
        const lost = await this.findLostListing(ctx, token, shopId);
        return lost ? String(lost.listing_id) : null;
      },
      creating: 'Creating the draft listing',
      create: async () => {
        const created = await client.createDraftListing(
          token,
          shopId,
          await this.draftInput(token, ctx.product, settings, await this.returnPolicyId(token, shopId)),
        );
        return { remoteId: String(created.listing_id), made: created };
      },
    });
    return this.sync(ctx, token, shopId, listingId, settings);
  }

  async update(ctx: PublishContext & { remoteProductId: string }): Promise<PublishOutcome> {
    const token = await this.accessToken(ctx.store);
    const settings = await this.settings(ctx.store);
    const shopId = settings.shopId ?? ctx.store.externalId;
    return this.sync(ctx, token, shopId, ctx.remoteProductId, settings);
  }

  async remove(ctx: PublishContext & { remoteProductId: string }, mode: 'delete' | 'archive'): Promise<void> {
    const token = await this.accessToken(ctx.store);
    const settings = await this.settings(ctx.store);
    const client = await this.getClient();
    try {
      if (mode === 'delete') await client.deleteListing(token, ctx.remoteProductId);
      else
        await client.updateListing(token, settings.shopId ?? ctx.store.externalId, ctx.remoteProductId, {
          state: 'inactive',
        });
    } catch (error) {
      if (error instanceof EtsyError && error.status === 404) return;
      throw error;
    }
  }

  /**
   * The shop's return policy, which Etsy needs before a physical listing can be active (outside the EU): the first
   * the shop has, else one made now (no returns or exchanges: print-on-demand goods are made to order).
   */
  private async returnPolicyId(token: string, shopId: string): Promise<number> {
    const client = await this.getClient();
    const [existing] = await client.returnPolicies(token, shopId);
    if (existing) return existing.return_policy_id;
    const made = await client.createReturnPolicy(token, shopId, { accepts_returns: false, accepts_exchanges: false });
    return made.return_policy_id;
  }

  private async draftInput(
    token: string,
    product: PushProduct,
    settings: EtsySettings,
    returnPolicyId: number,
  ): Promise<DraftListingInput> {
    const taxonomyId = await this.taxonomyId(token, product.productType);
    if (taxonomyId === null) throw conflict(`Etsy has no category for ${product.productType} products`);
    const lowest = Math.min(...product.variants.map((v) => Number(v.price)));
    return {
      title: product.title,
      description: product.description,
      price: lowest,
      quantity: MADE_TO_ORDER_QUANTITY,
      who_made: 'i_did',
      when_made: 'made_to_order',
      taxonomy_id: taxonomyId,
      shipping_profile_id: Number(settings.shippingProfileId),
      readiness_state_id: Number(settings.readinessStateId),
      return_policy_id: returnPolicyId,
      ...(settings.productionPartnerId ? { production_partner_ids: [Number(settings.productionPartnerId)] } : {}),
      tags: product.tags,
      type: 'physical',
      is_supply: false,
    };
  }

  private inventoryInput(product: PushProduct, settings: EtsySettings): EtsyInventoryInput {
    const hasColor = product.variants.some((v) => v.color);
    const hasSize = product.variants.some((v) => v.size);
    const properties = [
      ...(hasColor ? [ETSY_COLOR_PROPERTY] : []),
      ...(hasSize || !hasColor ? [ETSY_SIZE_PROPERTY] : []),
    ];
    return {
      products: product.variants.map((v) => ({
        sku: v.sku,
        property_values: [
          ...(hasColor
            ? [
                {
                  property_id: ETSY_COLOR_PROPERTY,
                  property_name: 'Color',
                  value_ids: [],
                  values: [v.color ?? 'Default'],
                },
              ]
            : []),
          ...(hasSize || !hasColor
            ? [{ property_id: ETSY_SIZE_PROPERTY, property_name: 'Size', value_ids: [], values: [v.size ?? v.option] }]
            : []),
        ],
        offerings: [
          {
            price: Number(v.price),
            quantity: MADE_TO_ORDER_QUANTITY,
            is_enabled: true,
            ...(settings.readinessStateId ? { readiness_state_id: Number(settings.readinessStateId) } : {}),
          },
        ],
      })),
      price_on_property: properties,
      quantity_on_property: [],
      sku_on_property: properties,
    };
  }

  /** Brings the listing to the product as it is now, then makes it active. */
  private async sync(
    ctx: PublishContext,
    token: string,
    shopId: string,
    listingId: string,
    settings: EtsySettings,
  ): Promise<PublishOutcome> {
    const client = await this.getClient();
    const { product } = ctx;
    // The return policy goes with the text, so a listing made before we sent one can go active too.
    await client.updateListing(token, shopId, listingId, {
      title: product.title,
      description: product.description,
      tags: product.tags,
      return_policy_id: String(await this.returnPolicyId(token, shopId)),
    });
    // Pictures: the new ones first (main at rank 1), then the old ones go, so the listing is never without one.
    const old = await client.images(token, listingId);
    const pictures = product.images.slice(0, MAX_PICTURES);
    const uploaded: { color: string | null; imageId: number }[] = [];
    for (const [i, picture] of pictures.entries()) {
      const bytes = await picture.read();
      if (!bytes) continue;
      await ctx.progress?.(`Uploading pictures (${i + 1} of ${pictures.length})`);
      if (old.length + uploaded.length >= 10) {
        const drop = old.shift();
        if (drop) await client.deleteImage(token, shopId, listingId, drop.listing_image_id);
      }
      const image = await client.uploadImage(token, shopId, listingId, {
        bytes,
        name: `${product.id}-${i}.png`,
        rank: i + 1,
      });
      uploaded.push({ color: picture.color, imageId: image.listing_image_id });
    }
    if (uploaded.length === 0) throw conflict(`"${product.title}" has no picture in storage to send`);
    for (const image of old) await client.deleteImage(token, shopId, listingId, image.listing_image_id);

    await ctx.progress?.('Writing colours, sizes, prices and SKUs');
    const inventory = await client.updateInventory(token, listingId, this.inventoryInput(product, settings));
    const colorValues = new Map<string, number>();
    for (const p of inventory.products)
      for (const v of p.property_values)
        if (v.property_id === ETSY_COLOR_PROPERTY && v.values[0] && v.value_ids[0] !== undefined)
          colorValues.set(v.values[0], v.value_ids[0]);
    const links = [...colorValues.entries()].flatMap(([color, valueId]) => {
      const image = uploaded.find((u) => u.color === color);
      return image ? [{ property_id: ETSY_COLOR_PROPERTY, value_id: valueId, image_id: image.imageId }] : [];
    });
    if (links.length > 0) await client.updateVariationImages(token, shopId, listingId, links);
    await ctx.progress?.('Activating the listing');
    const listing = await client.updateListing(token, shopId, listingId, { state: 'active' });
    const remoteUrl = this.sandboxMode ? `/integrations/etsy-sandbox#${listingId}` : listing.url;
    // Etsy's product ids as this inventory made them (a receipt's transactions name them), ours by SKU.
    const remoteVariants: Record<string, string> = {};
    for (const p of inventory.products) {
      const ours = product.variants.find((v) => v.sku === p.sku);
      if (ours && p.product_id) remoteVariants[String(p.product_id)] = ours.id;
    }
    return { remoteProductId: listingId, remoteUrl, remoteVariants };
  }

  /**
   * A push makes about 10 calls (the shop's policies, the draft, its pictures, inventory, variation pictures, the
   * activation), which the client paces to Etsy's calls per second (10 by default; the sandbox's own when tests set
   * it): one product every 10 / perSecond seconds. The day's budget is the push's refusal with its wait.
   */
  pushPaceSeconds(): number {
    return 10 / (this.sandboxOptions.limits?.perSecond ?? 10);
  }

  /** Etsy's answer as the seller should read it: 503 while limited, 502 with the reason otherwise. */
  toAppError(error: unknown): unknown {
    if (error instanceof AppError) return error;
    if (error instanceof EtsyError) {
      if (error.status === 429)
        return new AppError(
          503,
          ErrorCode.RateLimited,
          error.message,
          // Set when the wait is longer than a push should hold on (the day's budget): a schedule moves by it.
          error.retryAfterSeconds && error.retryAfterSeconds > 60
            ? { retryAfterSeconds: String(Math.ceil(error.retryAfterSeconds)) }
            : {},
        );
      if (error.status === 401 || error.status === 403)
        return upstreamError(`Etsy refused the connection (${error.message}); connect the shop again in Integrations`);
      return upstreamError(error.message.startsWith('Etsy') ? error.message : `Etsy: ${error.message}`);
    }
    return error;
  }

  /** What this workspace's sandbox shops hold (listings it pushed), read through the same client. */
  async sandboxListings(workspaceId: string): Promise<TEtsySandboxListings> {
    if (!this.sandboxMode) return { sandbox: false, shops: [] };
    const rows = await storesOfWorkspace(this.deps.db, workspaceId, 'etsy', {
      sandbox: true,
      statuses: ['connected', 'pending'],
    });
    const client = await this.getClient();
    const shops = [];
    for (const row of rows) {
      const token = await this.accessToken(row);
      const mine = await publishedRemoteIds(this.deps.db, row);
      const listings = [];
      for (const remoteProductId of mine) {
        try {
          const listing = await client.getListing(token, remoteProductId);
          const [images, inventory, variation] = await Promise.all([
            client.images(token, remoteProductId),
            client.inventory(token, remoteProductId),
            client.variationImages(token, row.externalId, remoteProductId),
          ]);
          listings.push({
            listing_id: listing.listing_id,
            title: listing.title,
            state: listing.state,
            tags: listing.tags,
            price: listing.price ? moneyString(listing.price) : '',
            url: `/integrations/etsy-sandbox#${listing.listing_id}`,
            images: images.map((i) => ({
              listing_image_id: i.listing_image_id,
              rank: i.rank,
              url_fullxfull: `/api/etsy/sandbox/images/${i.listing_image_id}`,
            })),
            inventory: {
              products: inventory.products.map((p) => ({
                sku: p.sku,
                property_values: p.property_values.map((v) => ({
                  property_id: v.property_id,
                  property_name: v.property_name,
                  values: v.values,
                })),
                offerings: p.offerings.map((o) => ({
                  price: moneyString(o.price),
                  quantity: o.quantity,
                  is_enabled: o.is_enabled,
                })),
              })),
            },
            variation_images: variation.map((v) => ({ value: v.value, image_id: v.image_id })),
          });
        } catch (error) {
          if (error instanceof EtsyError && error.status === 404) continue;
          throw this.toAppError(error);
        }
      }
      shops.push({ integrationId: row.id, shopId: row.externalId, name: row.storeName ?? row.externalId, listings });
    }
    return { sandbox: true, shops };
  }

  /** A sandbox picture's bytes, for the sandbox page: only a picture of a listing this workspace pushed. */
  async sandboxImage(workspaceId: string, imageId: number): Promise<Buffer | null> {
    if (!this.sandboxMode) return null;
    const fake = await this.sandboxServer();
    const listing = fake?.listings().find((l) => l.images.some((i) => i.listing_image_id === imageId));
    if (!fake || !listing) return null;
    const mine = (await sandboxListingsOf(this.deps.db, workspaceId, 'etsy')).some(
      (r) => r.remoteProductId === String(listing.listing_id),
    );
    if (!mine) return null;
    return this.sandboxState?.images.get(imageId) ?? null;
  }
}
