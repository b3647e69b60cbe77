import type { TCatalogCategory, TCatalogProduct, TGelatoConnect, TGelatoStatus } from '@podforge/contract';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { type GelatoConn, type GProduct, getPrices, listCatalogs, searchProducts } from '../../integrations/gelato/api';
import { GelatoClient, GelatoError } from '../../integrations/gelato/client';
import { groupOf, printAreaOf, productName, productTypeOf } from '../../integrations/gelato/mapping';
import type { TokenCipher } from '../../lib/crypto';
import { badRequest, upstreamError } from '../../lib/errors';
import type { CatalogListing, CatalogSourceImpl } from '../catalog/catalog.service';
import { printerWebhookPath } from '../printers/fulfilment-provider';
import {
  catalogIdsOf,
  catalogUidsOf,
  deleteGelatoConnection,
  gelatoRow,
  gelatoWebhookId,
  replaceGelatoConnection,
  sealedEmailOf,
} from './gelato.repository';
import type { GelatoSandbox } from './gelato-sandbox';

/**
 * Gelato connections (an account API key, or the built-in sandbox; one per workspace), its catalogue in our
 * catalogue shape, and our integer ids for Gelato's string product ids.
 */

type Deps = { db: Db; cipher: TokenCipher; config: Config; now: () => Date; sandbox: GelatoSandbox };

/** The catalogues we can make products of (their product type words), as Gelato names them. */
const CATALOGUES = ['t-shirts', 'posters'];
const COLOR_HEX: Record<string, string> = { white: '#ffffff', black: '#000000' };
/** Base costs are quoted for this country and currency in the picker; quotes per country are separate. */
const PRICE_COUNTRY = 'US';
const PRICE_CURRENCY = 'USD';
const CATALOG_TTL_MS = 10 * 60_000;

export type GelatoConnection = GelatoConn & { email: string; sandbox: boolean };

export class GelatoService {
  readonly client: GelatoClient;
  private readonly cache = new Map<string, { at: number; value: unknown }>();

  constructor(private readonly deps: Deps) {
    this.client = new GelatoClient(deps.config.gelato);
  }

  private row(workspaceId: string) {
    return gelatoRow(this.deps.db, workspaceId);
  }

  async connect(workspaceId: string, input: TGelatoConnect): Promise<TGelatoStatus> {
    if (input.mode === 'live') {
      // The key is tried before it is kept: Gelato answers 401 invalid_api_key_provided for a wrong one.
      try {
        await listCatalogs({ client: this.client, apiKey: input.apiKey });
      } catch (error) {
        if (error instanceof GelatoError && error.status === 401) {
          throw badRequest('Gelato refused this API key (invalid_api_key_provided); copy it again from Gelato');
        }
        throw upstreamError(`Gelato could not be reached to check the key: ${(error as Error).message}`);
      }
    }
    const sandbox = input.mode === 'sandbox';
    await replaceGelatoConnection(this.deps.db, workspaceId, {
      sandbox,
      apiKeyEnc: input.mode === 'live' ? this.deps.cipher.encrypt(input.apiKey) : null,
      emailEnc: this.deps.cipher.encrypt(input.email),
      at: this.deps.now(),
    });
    return this.status(workspaceId);
  }

  async disconnect(workspaceId: string): Promise<TGelatoStatus> {
    await deleteGelatoConnection(this.deps.db, workspaceId);
    return this.status(workspaceId);
  }

  private async email(integrationId: string): Promise<string | null> {
    const sealed = await sealedEmailOf(this.deps.db, integrationId);
    return sealed ? this.deps.cipher.decrypt(sealed) : null;
  }

  async status(workspaceId: string): Promise<TGelatoStatus> {
    const row = await this.row(workspaceId);
    if (row?.status !== 'connected') return { connected: false, sandbox: false, email: null, webhookUrl: null };
    const hook = await gelatoWebhookId(this.deps.db, workspaceId);
    const origin = this.deps.config.appUrl;
    return {
      connected: true,
      sandbox: row.sandbox,
      email: await this.email(row.id),
      webhookUrl: !row.sandbox && hook && origin ? `${origin}${printerWebhookPath('gelato', hook)}` : null,
    };
  }

  /** The workspace's Gelato connection of this kind (live key or sandbox), or null. */
  async connection(workspaceId: string, sandbox: boolean): Promise<GelatoConnection | null> {
    const row = await this.row(workspaceId);
    if (row?.status !== 'connected' || row.sandbox !== sandbox) return null;
    const email = await this.email(row.id);
    if (!email) return null;
    if (sandbox) {
      return {
        client: await this.deps.sandbox.client(),
        apiKey: this.deps.sandbox.apiKeyFor(workspaceId),
        email,
        sandbox,
      };
    }
    if (!row.accessTokenEnc) return null;
    return { client: this.client, apiKey: this.deps.cipher.decrypt(row.accessTokenEnc), email, sandbox };
  }

  /** Our integer ids for Gelato uids, made on first sight. */
  async idsOf(uids: string[]): Promise<Map<string, number>> {
    const unique = [...new Set(uids)];
    if (unique.length === 0) return new Map();
    return catalogIdsOf(this.deps.db, unique);
  }

  async uidsOf(ids: number[]): Promise<Map<number, string>> {
    const valid = [...new Set(ids.filter((i) => Number.isInteger(i)))];
    if (valid.length === 0) return new Map();
    return catalogUidsOf(this.deps.db, valid);
  }

  private async cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && this.deps.now().getTime() - hit.at < CATALOG_TTL_MS) return hit.value as T;
    const value = await load();
    this.cache.set(key, { at: this.deps.now().getTime(), value });
    return value;
  }

  /** The workspace's Gelato catalogue (live or sandbox), grouped into products of sizes and colours. */
  async catalogFor(workspaceId: string): Promise<CatalogSourceImpl> {
    const conn = (await this.connection(workspaceId, false)) ?? (await this.connection(workspaceId, true));
    if (!conn) throw badRequest('Gelato is not connected');
    return this.catalogOf(conn);
  }

  catalogOf(conn: GelatoConn): CatalogSourceImpl {
    const keyOf = (what: string) => `${conn.client.options.productBase}|${conn.apiKey}|${what}`;
    type Group = { catalogUid: string; products: GProduct[] };
    const groups = () =>
      this.cached(keyOf('groups'), async () => {
        const available = new Set((await listCatalogs(conn)).map((c) => c.catalogUid));
        const out = new Map<string, Group>();
        for (const catalogUid of CATALOGUES.filter((c) => available.has(c))) {
          for (let offset = 0; ; offset += 100) {
            const page = await searchProducts(conn, catalogUid, offset, 100);
            for (const p of page.products) {
              const key = groupOf(p.productUid);
              const g = out.get(key) ?? { catalogUid, products: [] };
              g.products.push(p);
              out.set(key, g);
            }
            if (page.products.length < 100) break;
          }
        }
        return out;
      });
    const categories = async (): Promise<TCatalogCategory[]> =>
      CATALOGUES.map((c, n) => ({ id: n + 1, parentId: 0, name: c === 'posters' ? 'Posters' : 'T-Shirts', image: '' }));
    const listings = async (): Promise<CatalogListing[]> => {
      const all = await groups();
      const ids = await this.idsOf([...all.keys()]);
      return [...all.entries()].map(([key, g]) => ({
        id: ids.get(key) as number,
        categoryId: CATALOGUES.indexOf(g.catalogUid) + 1,
        name: productName(g.catalogUid, g.products[0] as GProduct),
        description: `Gelato ${productName(g.catalogUid, g.products[0] as GProduct)}`,
      }));
    };
    const product = async (listing: CatalogListing): Promise<TCatalogProduct> => {
      const all = await groups();
      const ids = await this.idsOf([...all.keys()]);
      const entry = [...all.entries()].find(([key]) => ids.get(key) === listing.id);
      if (!entry) throw badRequest(`Gelato product ${listing.id} not found`);
      const [, g] = entry;
      const variantIds = await this.idsOf(g.products.map((p) => p.productUid));
      const variants = await Promise.all(
        g.products.map(async (p) => {
          const prices = await this.cached(keyOf(`price|${p.productUid}`), () =>
            getPrices(conn, p.productUid, PRICE_COUNTRY, PRICE_CURRENCY),
          );
          const one = prices.find((x) => x.quantity === 1) ?? prices[0];
          const color = p.attributes.GarmentColor ?? 'white';
          const size = p.attributes.GarmentSize ?? p.attributes.PaperFormat ?? 'One size';
          return {
            id: variantIds.get(p.productUid) as number,
            name: `${color} / ${size}`,
            size,
            color,
            colorCode: COLOR_HEX[color] ?? '',
            price: one ? one.price.toFixed(2) : '',
            currency: one?.currency ?? PRICE_CURRENCY,
          };
        }),
      );
      const priced = variants.filter((v) => v.price !== '');
      const area = printAreaOf(g.products[0] as GProduct);
      return {
        id: listing.id,
        categoryId: listing.categoryId,
        type: productTypeOf(g.catalogUid),
        name: listing.name,
        brand: 'Gelato',
        model: groupOf((g.products[0] as GProduct).productUid),
        description: listing.description,
        basePrice: Math.min(...priced.map((v) => Number(v.price))),
        currency: priced[0]?.currency ?? PRICE_CURRENCY,
        mockupUrls: [],
        variantCount: priced.length,
        variants: priced.map(({ currency: _c, ...v }) => v),
        sizes: [...new Set(priced.map((v) => v.size))],
        colors: [...new Map(priced.map((v) => [v.color, { name: v.color, value: v.colorCode }])).values()],
        printAreas: area
          ? [{ placement: 'front', title: 'Front', technique: g.catalogUid === 'posters' ? 'digital' : 'dtg', ...area }]
          : [],
      };
    };
    return { source: 'gelato', categories, listings, product, maxPricedProducts: 20 };
  }
}
