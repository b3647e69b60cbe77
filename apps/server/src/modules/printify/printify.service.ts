import type { TCatalogSource, TPrintifyStatus } from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { listShops, type PrintifyConn } from '../../integrations/printify/api';
import { PrintifyClient, PrintifyError } from '../../integrations/printify/client';
import type { TokenCipher } from '../../lib/crypto';
import { badRequest, conflict, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState } from '../../lib/oauth-states';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import {
  deletePrinterConnection,
  type PrinterConnectionRow,
  printerConnection,
  replacePrinterConnection,
  updatePrinterConnection,
} from '../printers/printer-connections.repository';
import { PrinterTokens } from '../printers/printer-tokens';
import { printifyCatalogue } from './printify-catalogue';
import type { PrintifySandbox } from './printify-sandbox';

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; sandbox: PrintifySandbox };
type Row = PrinterConnectionRow;

/**
 * The workspace's Printify connection: a personal access token (Printify: My Profile -> Connections; valid a year,
 * no refresh) checked against its shops, the shop orders go to and the currency the account bills in (Printify's
 * API names none); or the built-in Printify sandbox. One Printify row per workspace: connecting replaces it.
 */
export class PrintifyService {
  readonly client: PrintifyClient;
  private readonly tokens: PrinterTokens;

  constructor(private readonly deps: Deps) {
    this.client = new PrintifyClient({
      apiBase: deps.config.printifyApiBase,
      oauthBase: deps.config.printifyOauthBase,
      appId: deps.config.printifyAppId,
    });
    this.tokens = new PrinterTokens({
      ...deps,
      name: 'Printify',
      refresh: (refreshToken) => this.client.refresh(refreshToken),
      isRefusal: (error) => error instanceof PrintifyError,
    });
  }

  /** The row's access token, refreshed first when an OAuth token (6 hours) is about to expire (a personal token never is). */
  private async token(row: Row): Promise<string> {
    if (!row.accessTokenEnc) throw conflict('Connect Printify first');
    return this.tokens.token({ ...row, accessTokenEnc: row.accessTokenEnc });
  }

  /** Starts the app flow: a single-use state bound to this workspace (with the billing currency chosen). */
  async startOAuth(workspaceId: string, callbackUrl: string, currency: string): Promise<string> {
    const state = await issueOAuthState(
      { db: this.deps.db, workspaceId, provider: 'printify', now: this.deps.now() },
      { currency },
    );
    // Printify sends the merchant back to one of two URLs: both are our callback (a decline carries `error`).
    return this.client.authorizeUrl(state, callbackUrl, callbackUrl);
  }

  /** Printify's answer: the state checked once, the code exchanged, the shop chosen (or to choose). */
  async finishOAuth(
    workspaceId: string,
    query: { state?: string | undefined; code?: string | undefined; error?: string | undefined },
  ): Promise<'connected' | 'choose_shop' | 'denied' | 'invalid_state' | 'failed'> {
    if (!query.state) return 'invalid_state';
    const scope = { db: this.deps.db, workspaceId, provider: 'printify' as const, now: this.deps.now() };
    const data = await consumeOAuthState<{ currency?: string }>(scope, query.state);
    if (!data) return 'invalid_state';
    if (query.error) return 'denied';
    if (!query.code) return 'failed';
    try {
      const tokens = await this.client.exchangeCode(query.code);
      const shops = await listShops(this.client, tokens.accessToken);
      const shop = shops.length === 1 ? shops[0] : undefined;
      const { cipher } = this.deps;
      await this.replace(workspaceId, shop, {
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: tokens.refreshToken ? cipher.encrypt(tokens.refreshToken) : null,
        tokenExpiresAt: tokens.expiresAt,
        billingCurrency: data.currency ?? 'USD',
      });
      return shop ? 'connected' : 'choose_shop';
    } catch (error) {
      if (error instanceof PrintifyError) return 'failed';
      throw error;
    }
  }

  private row(workspaceId: string): Promise<Row | null> {
    return printerConnection(this.deps.db, workspaceId, 'printify');
  }

  /** Replaces the workspace's Printify row with the seller's own account: connected to its shop, or pending a choice. */
  private async replace(
    workspaceId: string,
    shop: { id: number | string; title: string } | undefined,
    values: { accessTokenEnc: string; billingCurrency: string } & Partial<Row>,
  ) {
    await replacePrinterConnection(this.deps.db, workspaceId, 'printify', {
      ...values,
      externalId: shop ? String(shop.id) : 'printify',
      storeName: shop?.title ?? null,
      status: shop ? 'connected' : 'pending',
      verifiedAt: shop ? this.deps.now() : null,
      sandbox: false,
    });
  }

  async status(workspaceId: string): Promise<TPrintifyStatus> {
    const row = await this.row(workspaceId);
    const oauthConfigured = this.client.oauthConfigured;
    if (!row) return { connected: false, sandbox: false, shopName: null, currency: null, oauthConfigured };
    const connected = row.status === 'connected';
    const base = {
      oauthConfigured,
      connected,
      sandbox: row.sandbox,
      shopName: connected ? row.storeName : null,
      currency: row.billingCurrency,
    };
    if (!connected && row.status === 'pending' && row.accessTokenEnc) {
      const shops = await this.token(row)
        .then((token) => listShops(this.client, token))
        .catch(() => []);
      return { ...base, shops: shops.map((s) => ({ id: String(s.id), title: s.title })) };
    }
    return base;
  }

  /** Checks the token by reading its shops; one shop (or the one named) connects, several wait for a choice. */
  async connect(
    workspaceId: string,
    input: { token: string; currency: string; shopId?: string | undefined },
  ): Promise<TPrintifyStatus> {
    let shops: { id: number | string; title: string }[];
    try {
      shops = await listShops(this.client, input.token);
    } catch (error) {
      if (error instanceof PrintifyError && (error.status === 401 || error.status === 403)) {
        throw badRequest(
          error.status === 401
            ? 'Printify did not accept this token (mistyped, revoked or expired); create a new one in Printify: My Profile -> Connections'
            : 'This token lacks the shops.read scope; create one with the scopes Podforge needs',
        );
      }
      if (error instanceof PrintifyError) throw upstreamError(`Printify: ${error.message}`);
      throw error;
    }
    if (shops.length === 0) throw badRequest('This Printify account has no shop; add one in Printify first');
    const shop = input.shopId
      ? shops.find((s) => String(s.id) === input.shopId)
      : shops.length === 1
        ? shops[0]
        : undefined;
    if (input.shopId && !shop) throw badRequest(`Printify shop ${input.shopId} is not one of this account's shops`);
    await this.replace(workspaceId, shop, {
      accessTokenEnc: this.deps.cipher.encrypt(input.token),
      billingCurrency: input.currency,
    });
    return this.status(workspaceId);
  }

  async chooseShop(workspaceId: string, shopId: string): Promise<TPrintifyStatus> {
    const row = await this.row(workspaceId);
    if (!row?.accessTokenEnc || row.sandbox) throw conflict('Connect Printify first');
    const shops = await listShops(this.client, await this.token(row)).catch((error: unknown) => {
      if (error instanceof PrintifyError) throw upstreamError(`Printify: ${error.message}`);
      throw error;
    });
    const shop = shops.find((s) => String(s.id) === shopId);
    if (!shop) throw badRequest(`Printify shop ${shopId} is not one of this account's shops`);
    await updatePrinterConnection(this.deps.db, row, {
      externalId: String(shop.id),
      storeName: shop.title,
      status: 'connected',
      verifiedAt: this.deps.now(),
    });
    return this.status(workspaceId);
  }

  /** Orders of Printify products go to the built-in Printify sandbox (nothing printed, nothing charged). */
  async useSandbox(workspaceId: string): Promise<TPrintifyStatus> {
    await replacePrinterConnection(this.deps.db, workspaceId, 'printify', {
      externalId: workspaceId,
      storeName: 'Printify Sandbox',
      status: 'connected',
      verifiedAt: this.deps.now(),
      billingCurrency: 'USD',
      sandbox: true,
    });
    return this.status(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<TPrintifyStatus> {
    await deletePrinterConnection(this.deps.db, workspaceId, 'printify');
    return this.status(workspaceId);
  }

  /** The workspace's own Printify shop for orders, or null (not connected, or connected to the sandbox). */
  async orderConnection(
    workspaceId: string,
  ): Promise<(PrintifyConn & { currency: string; name: string | null }) | null> {
    const row = await this.row(workspaceId);
    if (!row || row.sandbox || row.status !== 'connected' || !row.accessTokenEnc) return null;
    return {
      client: this.client,
      token: await this.token(row),
      shopId: row.externalId,
      currency: row.billingCurrency ?? 'USD',
      name: row.storeName,
    };
  }

  /** The sandbox's connection when the workspace chose the Printify sandbox, else null. */
  async sandboxConnection(workspaceId: string) {
    const row = await this.row(workspaceId);
    if (!row?.sandbox || row.status !== 'connected') return null;
    return { ...(await this.deps.sandbox.connection(workspaceId)), name: 'Printify Sandbox' };
  }

  /** The catalogue: the connected shop's, else the sandbox's (the sandbox's fixtures when not connected at all). */
  async catalogFor(workspaceId: string): Promise<CatalogSourceImpl> {
    const own = await this.orderConnection(workspaceId);
    const conn = own ?? (await this.deps.sandbox.connection(workspaceId));
    const source: TCatalogSource = own ? 'printify' : 'printify-sandbox';
    return printifyCatalogue(conn, source, () => this.deps.now().getTime());
  }
}
