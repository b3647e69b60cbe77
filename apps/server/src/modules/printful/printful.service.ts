import type { TCatalogCategory, TCatalogProduct, TPrintfulStatus, TPrintfulStore } from '@podforge/contract';
import { ErrorCode } from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { TtlCache } from '../../integrations/printful/cache';
import { PrintfulClient, PrintfulError } from '../../integrations/printful/client';
import type { PrintfulConn } from '../../integrations/printful/orders';
import type { TokenCipher } from '../../lib/crypto';
import { AppError, badRequest, conflict, upstreamError } from '../../lib/errors';
import { consumeOAuthState, issueOAuthState } from '../../lib/oauth-states';
import { bundledCatalog, type CatalogListing, type CatalogSourceImpl } from '../catalog/catalog.service';
import {
  deletePrinterConnection,
  printerConnection,
  replacePrinterConnection,
  updatePrinterConnection,
} from '../printers/printer-connections.repository';
import { PrinterTokens } from '../printers/printer-tokens';

const CATALOG_TTL_MS = 10 * 60_000;
/** Printful's v2 placements give print areas in inches; files are prepared at 150 DPI. */
const PRINT_DPI = 150;

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date };

type V2Product = {
  id: number;
  main_category_id: number;
  type: string;
  name: string;
  brand: string | null;
  model: string | null;
  image: string;
  variant_count: number;
  description: string;
  sizes?: string[];
  colors?: { name: string; value: string }[];
  placements?: { placement: string; technique: string; print_area_width: number; print_area_height: number }[];
};
type V2Variant = { id: number; name: string; size: string; color: string; color_code: string; image: string };
type V2Prices = { data: { variants: { id: number; techniques: { price: string }[] }[] } };
type Paged<T> = { data: T[]; paging?: { total: number; offset: number; limit: number } };

export function toPrintfulAppError(error: unknown): never {
  if (error instanceof PrintfulError) {
    if (error.status === 429) throw new AppError(503, ErrorCode.RateLimited, `Printful: ${error.message}`);
    if (error.status === 401 || error.status === 403) {
      throw upstreamError('Printful rejected the connection; reconnect Printful on the Integrations page');
    }
    throw upstreamError(`Printful: ${error.message}`);
  }
  throw error;
}

export class PrintfulService {
  client: PrintfulClient;
  private readonly cache: TtlCache;
  private readonly tokens: PrinterTokens;

  constructor(private readonly deps: Deps) {
    const { config } = deps;
    this.client = new PrintfulClient({
      apiBase: config.printfulApiBase,
      oauthBase: config.printfulOauthBase,
      clientId: config.printfulClientId,
      clientSecret: config.printfulClientSecret,
    });
    this.cache = new TtlCache(CATALOG_TTL_MS, () => deps.now().getTime());
    this.tokens = new PrinterTokens({
      ...deps,
      name: 'Printful',
      refresh: (refreshToken) => this.client.refresh(refreshToken),
      isRefusal: (error) => error instanceof PrintfulError,
    });
  }

  /** The workspace's Printful row (only a connected one with `connectedOnly`), or null. */
  private connection(workspaceId: string, options: { connectedOnly?: boolean } = {}) {
    return printerConnection(this.deps.db, workspaceId, 'printful', options);
  }

  /**
   * The workspace's Printful state. `sandbox`: its store orders go to the built-in Printful Sandbox, the fallback
   * printer of the network (src/deps.ts), whenever it has not connected its own account (the server's token is for
   * the catalogue only, as `orderConnection` says).
   */
  async status(workspaceId: string): Promise<TPrintfulStatus> {
    const oauthConfigured = this.client.oauthConfigured;
    const row = await this.connection(workspaceId);
    if (row && row.status === 'connected') {
      return {
        connected: true,
        via: 'oauth',
        oauthConfigured,
        sandbox: false,
        ...(row.storeName ? { storeName: row.storeName } : {}),
      };
    }
    const choosingStore = row?.status === 'pending' && Boolean(row.accessTokenEnc);
    if (this.deps.config.printfulToken) {
      return {
        connected: true,
        via: 'token',
        oauthConfigured,
        sandbox: true,
        storeName: 'Printful (private token)',
        ...(choosingStore ? { choosingStore } : {}),
      };
    }
    if (choosingStore) return { connected: false, oauthConfigured, sandbox: true, choosingStore };
    return { connected: false, oauthConfigured, sandbox: true };
  }

  /** Starts OAuth: a single-use state nonce bound to this workspace, and Printful's authorize URL. */
  async startOAuth(workspaceId: string, redirectUrl: string): Promise<string> {
    const state = await issueOAuthState(
      { db: this.deps.db, workspaceId, provider: 'printful', now: this.deps.now() },
      { redirectUrl },
    );
    return this.client.authorizeUrl(state, redirectUrl);
  }

  /** The callback: check the nonce, then success, then exchange the code. Answers the outcome for the redirect. */
  async finishOAuth(
    workspaceId: string,
    query: { state?: string | undefined; code?: string | undefined; success?: string | undefined },
  ): Promise<'connected' | 'choose_store' | 'denied' | 'invalid_state' | 'failed'> {
    // Printful may not echo state on a rejection (apis.md B1); nothing is stored then, so no nonce is needed.
    if (!query.state) return query.success === '0' ? 'denied' : 'invalid_state';
    // Single use: the nonce is deleted whether the flow goes on or not.
    const scope = { db: this.deps.db, workspaceId, provider: 'printful' as const, now: this.deps.now() };
    if (!(await consumeOAuthState(scope, query.state))) return 'invalid_state';
    if (query.success !== '1') return 'denied';
    if (!query.code) return 'failed';
    try {
      const tokens = await this.client.exchangeCode(query.code);
      const stores = await this.client.get<{ result: { id: number; name: string }[] }>('/stores', tokens.accessToken);
      // One store: it is the one. Several: the seller chooses (the token is kept, the connection pending until then).
      const choose = (stores.result?.length ?? 0) > 1;
      const store = choose ? undefined : stores.result?.[0];
      const { cipher } = this.deps;
      // One Printful connection per workspace: reconnecting replaces the old one.
      await replacePrinterConnection(this.deps.db, workspaceId, 'printful', {
        externalId: store ? String(store.id) : 'printful',
        storeName: choose ? null : (store?.name ?? 'Printful'),
        accessTokenEnc: cipher.encrypt(tokens.accessToken),
        refreshTokenEnc: tokens.refreshToken ? cipher.encrypt(tokens.refreshToken) : null,
        tokenExpiresAt: tokens.expiresAt,
        status: choose ? 'pending' : 'connected',
        verifiedAt: choose ? null : this.deps.now(),
      });
      return choose ? 'choose_store' : 'connected';
    } catch (error) {
      if (error instanceof PrintfulError) return 'failed';
      throw error;
    }
  }

  /** The account's stores, while the seller chooses the one orders go to. */
  async stores(workspaceId: string): Promise<TPrintfulStore[]> {
    const row = await this.connection(workspaceId);
    if (!row?.accessTokenEnc) throw conflict('Connect Printful first');
    const token = this.deps.cipher.decrypt(row.accessTokenEnc);
    const body = await this.client
      .get<{ result: { id: number; name: string }[] }>('/stores', token)
      .catch(toPrintfulAppError);
    return (body.result ?? []).map((s) => ({ id: s.id, name: s.name }));
  }

  async chooseStore(workspaceId: string, storeId: number): Promise<TPrintfulStatus> {
    const row = await this.connection(workspaceId);
    if (!row?.accessTokenEnc) throw conflict('Connect Printful first');
    const store = (await this.stores(workspaceId)).find((s) => s.id === storeId);
    if (!store) throw badRequest(`Printful store ${storeId} is not one of this account's stores`);
    await updatePrinterConnection(this.deps.db, row, {
      externalId: String(store.id),
      storeName: store.name,
      status: 'connected',
      verifiedAt: this.deps.now(),
    });
    return this.status(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<TPrintfulStatus> {
    await deletePrinterConnection(this.deps.db, workspaceId, 'printful');
    return this.status(workspaceId);
  }

  /** The access token to use for this workspace, refreshed first when it is about to expire; null when none. */
  async accessToken(workspaceId: string): Promise<string | null> {
    const row = await this.connection(workspaceId);
    if (row?.status !== 'connected' || !row.accessTokenEnc) return this.deps.config.printfulToken ?? null;
    return this.tokens.token({ ...row, accessTokenEnc: row.accessTokenEnc });
  }

  /**
   * The workspace's own Printful account for orders (the FulfilmentProvider's connection), or null. The store chosen
   * at connect: an account-level token acts for it with X-PF-Store-Id. Never the server's token.
   */
  async orderConnection(workspaceId: string): Promise<PrintfulConn | null> {
    const row = await this.connection(workspaceId, { connectedOnly: true });
    if (!row) return null;
    const token = await this.accessToken(workspaceId);
    return token ? { client: this.client, token, storeId: row.externalId } : null;
  }

  /** The catalogue this workspace sees: live Printful when connected, the bundled snapshot otherwise. */
  async catalogFor(workspaceId: string): Promise<CatalogSourceImpl> {
    const token = await this.accessToken(workspaceId);
    return token ? this.liveCatalog(token) : bundledCatalog;
  }

  /** Forget cached catalogue answers (tests; a manual refresh). */
  clearCatalogCache() {
    this.cache.clear();
  }

  private liveCatalog(token: string): CatalogSourceImpl {
    const get = <T>(path: string, query: Record<string, string> = {}) =>
      this.client.get<T>(path, token, query).catch(toPrintfulAppError);
    // The catalogue is the same for every store; cache keys leave the token out.
    const cached = <T>(key: string, load: () => Promise<T>) => this.cache.get(key, load);

    // A product has hundreds of variants (a tee: every colour x size): read every page, following `_links.next`
    // as Printful gives it (apis.md B2). A page may hold fewer than asked while more remain, so the next offset is
    // never computed here. Only a link on Printful's own API is followed.
    const allPages = async <T>(path: string): Promise<{ data: T[] }> => {
      const data: T[] = [];
      const api = new URL(this.deps.config.printfulApiBase);
      let next: string | null = `${path}?limit=100`;
      for (let pages = 0; next && pages < 50; pages++) {
        const body: Paged<T> & { _links?: { next?: { href?: string } } } = await get(next);
        data.push(...body.data);
        const href = body._links?.next?.href;
        const link = href ? new URL(href, api) : null;
        next = link && link.origin === api.origin && link.pathname === path ? `${link.pathname}${link.search}` : null;
      }
      return { data };
    };

    const categories = () =>
      cached('categories', async () => {
        const body =
          await get<Paged<{ id: number; parent_id: number; title: string; image_url: string }>>(
            '/v2/catalog-categories',
          );
        return body.data.map(
          (c): TCatalogCategory => ({ id: c.id, parentId: c.parent_id ?? 0, name: c.title, image: c.image_url }),
        );
      });

    const allProducts = () =>
      cached('products', async () => {
        const all: V2Product[] = [];
        // The v2 list has no name search, so the whole catalogue is read (100 a page) and searched here.
        for (let offset = 0; offset < 5000; offset += 100) {
          const body = await get<Paged<V2Product>>('/v2/catalog-products', { limit: '100', offset: String(offset) });
          all.push(...body.data);
          if (body.data.length < 100 || (body.paging && offset + 100 >= body.paging.total)) break;
        }
        return all;
      });

    const product = (listing: CatalogListing) =>
      cached(`product:${listing.id}`, async (): Promise<TCatalogProduct> => {
        const p = (await allProducts()).find((x) => x.id === listing.id);
        if (!p) throw upstreamError(`Printful: product ${listing.id} is no longer in the catalogue`);
        const [variants, prices] = await Promise.all([
          allPages<V2Variant>(`/v2/catalog-products/${p.id}/catalog-variants`),
          get<V2Prices>(`/v2/catalog-products/${p.id}/prices`, { currency: 'USD' }),
        ]);
        const priceOf = new Map(prices.data.variants.map((v) => [v.id, v.techniques[0]?.price ?? '0.00']));
        const mapped = variants.data.map((v) => ({
          id: v.id,
          name: v.name,
          size: v.size,
          color: v.color,
          colorCode: v.color_code,
          price: priceOf.get(v.id) ?? '0.00',
        }));
        const amounts = mapped.map((v) => Number(v.price)).filter((n) => n > 0);
        const colourImages = [...new Map(variants.data.map((v) => [v.color, v.image])).values()];
        return {
          id: p.id,
          categoryId: p.main_category_id,
          type: p.type,
          name: p.name,
          brand: p.brand ?? '',
          model: p.model ?? '',
          description: p.description,
          basePrice: amounts.length ? Math.min(...amounts) : 0,
          currency: 'USD',
          mockupUrls: [p.image, ...colourImages.filter((u) => u !== p.image)],
          variantCount: p.variant_count,
          variants: mapped,
          sizes: p.sizes ?? [],
          colors: p.colors ?? [],
          printAreas: (p.placements ?? []).map((a) => ({
            placement: a.placement,
            title: a.placement,
            technique: a.technique,
            widthPx: Math.round(a.print_area_width * PRINT_DPI),
            heightPx: Math.round(a.print_area_height * PRINT_DPI),
            dpi: PRINT_DPI,
          })),
        };
      });

    return {
      source: 'printful',
      categories,
      listings: async () =>
        (await allProducts()).map((p) => ({
          id: p.id,
          categoryId: p.main_category_id,
          name: p.name,
          description: p.description ?? '',
        })),
      product,
      maxPricedProducts: 100,
    };
  }
}
