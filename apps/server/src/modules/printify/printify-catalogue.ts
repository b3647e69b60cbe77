import type { TCatalogProduct, TCatalogSource } from '@podforge/contract';
import { TtlCache } from '../../integrations/printful/cache';
import {
  createProduct,
  deleteProduct,
  listBlueprints,
  listProviders,
  listVariants,
  type PfyBlueprint,
  type PrintifyConn,
  uploadImage,
} from '../../integrations/printify/api';
import { PrintifyError } from '../../integrations/printify/client';
import { centsToDecimal } from '../../integrations/printify/mapping';
import { upstreamError } from '../../lib/errors';
import type { CatalogListing, CatalogSourceImpl } from '../catalog/catalog.service';

/**
 * Printify's catalogue in Podforge's shape. A catalogue product is a blueprint printed by the first print provider
 * Printify lists for it (Printify makes a product choose one provider); its id is the blueprint id. Variants and
 * placeholders (the print file's pixel size) come from the catalogue; Printify's catalogue carries no costs, so a
 * blueprint's costs are read the one way its API gives them: an unpublished product with one variant is created in
 * the shop (the answer carries the cost of every variant of the matrix) and deleted at once; cached for an hour.
 */

const CATALOG_TTL_MS = 60 * 60_000;
/** Printify gives placeholders in pixels at print resolution and no DPI; its file guidelines ask for 300. */
const PRINTIFY_DPI = 300;
/** A 1x1 transparent PNG: the probe product's image (uploads are content-addressed, so it is stored once). */
const PROBE_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** Colour names Printify uses, with their hex (its catalogue sends names only); unknown names have none. */
const COLOUR_HEX: Record<string, string> = {
  black: '#000000',
  white: '#ffffff',
  navy: '#1f2a44',
  'heather grey': '#b4b4b4',
  'sport grey': '#9e9e9e',
  red: '#c8102e',
  'royal blue': '#1d4f91',
  'forest green': '#223b26',
  maroon: '#6b1c2e',
  sand: '#dcd2be',
  charcoal: '#403e41',
};

/** Podforge's product type from a blueprint's title. */
export function typeOfBlueprint(title: string): string {
  const t = title.toLowerCase();
  if (/hood/.test(t)) return 'hoodie';
  if (/\btee\b|t-shirt|tshirt/.test(t)) return 'tshirt';
  if (/\bmug\b/.test(t)) return 'mug';
  if (/poster/.test(t)) return 'poster';
  if (/phone case|iphone|samsung/.test(t)) return 'phone_case';
  if (/tote/.test(t)) return 'tote';
  if (/sticker/.test(t)) return 'sticker';
  return 'other';
}

/** One bounded cache for every shop (its oldest entries go first): costs are per account, so keys name the shop. */
let cache: TtlCache | null = null;

export function printifyCatalogue(
  conn: PrintifyConn & { currency: string },
  source: TCatalogSource,
  now: () => number,
): CatalogSourceImpl {
  cache ??= new TtlCache(CATALOG_TTL_MS, now, 5000);
  const shared = cache;
  const prefix = `${conn.client.apiBase}|${conn.shopId}|`;
  const cached = <T>(key: string, load: () => Promise<T>) => shared.get(prefix + key, load);
  const wrap = <T>(p: Promise<T>) =>
    p.catch((error: unknown) => {
      if (error instanceof PrintifyError) throw upstreamError(`Printify: ${error.message}`);
      throw error;
    });

  const blueprints = () => cached('blueprints', () => wrap(listBlueprints(conn.client, conn.token)));

  const costs = (bp: number, pp: number, variantId: number, position: string) =>
    cached(`costs:${bp}:${pp}`, async () => {
      const upload = await uploadImage(conn, { fileName: 'podforge-cost-probe.png', contents: PROBE_PNG });
      const probe = await createProduct(conn, {
        title: 'Podforge cost check (deleted at once)',
        description: 'Made by Podforge to read this blueprint’s costs; deleted at once.',
        blueprint_id: bp,
        print_provider_id: pp,
        variants: [{ id: variantId, price: 100, is_enabled: true }],
        print_areas: [
          {
            variant_ids: [variantId],
            placeholders: [{ position, images: [{ id: upload.id, x: 0.5, y: 0.5, scale: 1, angle: 0 }] }],
          },
        ],
      });
      await deleteProduct(conn, probe.id).catch(() => {});
      return new Map(probe.variants.map((v) => [v.id, v.cost]));
    });

  const product = (listing: CatalogListing) =>
    cached(`product:${listing.id}`, async (): Promise<TCatalogProduct> => {
      const bp = (await blueprints()).find((b) => b.id === listing.id);
      if (!bp) throw upstreamError(`Printify: blueprint ${listing.id} is no longer in the catalogue`);
      const [provider] = await wrap(listProviders(conn.client, conn.token, bp.id));
      if (!provider) throw upstreamError(`Printify: blueprint ${bp.id} has no print provider`);
      const { variants } = await wrap(listVariants(conn.client, conn.token, bp.id, provider.id));
      const first = variants[0];
      const costOf = first
        ? await wrap(costs(bp.id, provider.id, first.id, first.placeholders[0]?.position ?? 'front'))
        : new Map<number, number>();
      const mapped = variants.map((v) => ({
        id: v.id,
        name: v.title,
        size: v.options.size ?? '',
        color: v.options.color ?? '',
        colorCode: COLOUR_HEX[(v.options.color ?? '').toLowerCase()] ?? '',
        price: centsToDecimal(costOf.get(v.id) ?? 0),
      }));
      const areas = new Map<string, { width: number; height: number }>();
      for (const v of variants) {
        for (const p of v.placeholders) if (!areas.has(p.position)) areas.set(p.position, p);
      }
      const amounts = mapped.map((v) => Number(v.price)).filter((n) => n > 0);
      const colours = [...new Map(mapped.map((v) => [v.color, v.colorCode])).entries()];
      return {
        id: bp.id,
        categoryId: 0,
        type: typeOfBlueprint(bp.title),
        name: bp.title,
        brand: bp.brand,
        model: bp.model,
        description: bp.description ?? '',
        basePrice: amounts.length ? Math.min(...amounts) : 0,
        currency: conn.currency,
        mockupUrls: bp.images ?? [],
        variantCount: mapped.length,
        variants: mapped,
        sizes: [...new Set(mapped.map((v) => v.size))],
        colors: colours.map(([name, value]) => ({ name, value })),
        printAreas: [...areas.entries()].map(([position, a]) => ({
          placement: position,
          title: position,
          technique: 'dtg',
          widthPx: a.width,
          heightPx: a.height,
          dpi: PRINTIFY_DPI,
        })),
      };
    });

  const listingOf = (b: PfyBlueprint): CatalogListing => ({
    id: b.id,
    categoryId: 0,
    name: b.title,
    description: [b.brand, b.model, b.description ?? ''].filter(Boolean).join(' '),
  });

  return {
    source,
    categories: async () => [],
    listings: async () => (await blueprints()).map(listingOf),
    product,
    // Each product's costs cost a probe: a price filter prices few.
    maxPricedProducts: 10,
  };
}
