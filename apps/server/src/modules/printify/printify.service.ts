import type { TCatalogSource, TPrintifyStatus } from '@podforge/contract';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { integrations } from '../../db/schema';
import { listShops, type PrintifyConn } from '../../integrations/printify/api';
import { PrintifyClient, PrintifyError } from '../../integrations/printify/client';
import type { TokenCipher } from '../../lib/crypto';
import { badRequest, conflict, upstreamError } from '../../lib/errors';
import type { CatalogSourceImpl } from '../catalog/catalog.service';
import { printifyCatalogue } from './printify-catalogue';
import type { PrintifySandbox } from './printify-sandbox';

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; sandbox: PrintifySandbox };
type Row = typeof integrations.$inferSelect;

/**
 * The workspace's Printify connection: a personal access token (Printify: My Profile -> Connections; valid a year,
 * no refresh) checked against its shops, the shop orders go to and the currency the account bills in (Printify's
 * API names none); or the built-in Printify sandbox. One Printify row per workspace: connecting replaces it.
 */
export class PrintifyService {
  readonly client: PrintifyClient;

  constructor(private readonly deps: Deps) {
    this.client = new PrintifyClient({ apiBase: deps.config.printifyApiBase });
  }

  private async row(workspaceId: string): Promise<Row | null> {
    const [row] = await this.deps.db
      .select()
      .from(integrations)
      .where(
        and(
          eq(integrations.workspaceId, workspaceId),
          eq(integrations.platform, 'printify'),
          eq(integrations.kind, 'fulfillment'),
        ),
      )
      .limit(1);
    return row ?? null;
  }

  async status(workspaceId: string): Promise<TPrintifyStatus> {
    const row = await this.row(workspaceId);
    if (!row) return { connected: false, sandbox: false, shopName: null, currency: null };
    const connected = row.status === 'connected';
    const base = {
      connected,
      sandbox: row.sandbox,
      shopName: connected ? row.storeName : null,
      currency: row.billingCurrency,
    };
    if (!connected && row.status === 'pending' && row.accessTokenEnc) {
      const shops = await listShops(this.client, this.deps.cipher.decrypt(row.accessTokenEnc)).catch(() => []);
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
    const { db, cipher, now } = this.deps;
    await db.transaction(async (tx) => {
      await tx
        .delete(integrations)
        .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, 'printify')));
      await tx.insert(integrations).values({
        workspaceId,
        kind: 'fulfillment',
        platform: 'printify',
        externalId: shop ? String(shop.id) : 'printify',
        storeName: shop?.title ?? null,
        accessTokenEnc: cipher.encrypt(input.token),
        status: shop ? 'connected' : 'pending',
        verifiedAt: shop ? now() : null,
        billingCurrency: input.currency,
        sandbox: false,
      });
    });
    return this.status(workspaceId);
  }

  async chooseShop(workspaceId: string, shopId: string): Promise<TPrintifyStatus> {
    const row = await this.row(workspaceId);
    if (!row?.accessTokenEnc || row.sandbox) throw conflict('Connect Printify first');
    return this.connect(workspaceId, {
      token: this.deps.cipher.decrypt(row.accessTokenEnc),
      currency: row.billingCurrency ?? 'USD',
      shopId,
    });
  }

  /** Orders of Printify products go to the built-in Printify sandbox (nothing printed, nothing charged). */
  async useSandbox(workspaceId: string): Promise<TPrintifyStatus> {
    const { db, now } = this.deps;
    await db.transaction(async (tx) => {
      await tx
        .delete(integrations)
        .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, 'printify')));
      await tx.insert(integrations).values({
        workspaceId,
        kind: 'fulfillment',
        platform: 'printify',
        externalId: workspaceId,
        storeName: 'Printify Sandbox',
        status: 'connected',
        verifiedAt: now(),
        billingCurrency: 'USD',
        sandbox: true,
      });
    });
    return this.status(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<TPrintifyStatus> {
    await this.deps.db
      .delete(integrations)
      .where(and(eq(integrations.workspaceId, workspaceId), eq(integrations.platform, 'printify')));
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
      token: this.deps.cipher.decrypt(row.accessTokenEnc),
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
