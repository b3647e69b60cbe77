import type {
  TCatalogCategory,
  TCatalogProduct,
  TCatalogProductDetail,
  TCatalogProductPage,
  TCatalogProductsQuery,
  TCatalogSource,
  TCatalogTemplate,
} from '@podforge/contract';
import { BUNDLED_CATEGORIES, BUNDLED_PRODUCTS } from '../../integrations/printful/catalog/bundled';
import { badRequest, notFound } from '../../lib/errors';

/** What a catalogue lists cheaply; the full product (variants, prices) may cost more calls. */
export type CatalogListing = { id: number; categoryId: number; name: string; description: string };

export type CatalogSourceImpl = {
  source: TCatalogSource;
  categories(): Promise<TCatalogCategory[]>;
  listings(): Promise<CatalogListing[]>;
  product(listing: CatalogListing): Promise<TCatalogProduct>;
  /** Most products whose prices may be fetched for one price filter (the live catalogue prices cost a call each). */
  maxPricedProducts: number;
};

export const bundledCatalog: CatalogSourceImpl = {
  source: 'bundled',
  categories: async () => [...BUNDLED_CATEGORIES],
  listings: async () => [...BUNDLED_PRODUCTS],
  product: async (listing) => {
    const found = BUNDLED_PRODUCTS.find((p) => p.id === listing.id);
    if (!found) throw new Error(`bundled product ${listing.id} missing`);
    return found;
  },
  maxPricedProducts: Number.POSITIVE_INFINITY,
};

/** A category and all its descendants. */
export function categoryWithDescendants(categories: TCatalogCategory[], id: number): Set<number> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of categories) {
      if (ids.has(c.parentId) && !ids.has(c.id)) {
        ids.add(c.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** A category name or slug as one key: 'T-Shirts', 't-shirts', 'tshirt' -> 'tshirt'; 'Hoodies', 'hoodie' -> 'hoodie'. */
export const categoryKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .replace(/s$/, '');

/**
 * `category` is an id, a name from the spec's filter or a slug ('hoodie', 't-shirts', 'phone_case'); 'All
 * Categories' and empty mean no filter.
 */
export function resolveCategory(categories: TCatalogCategory[], category: string | undefined): Set<number> | null {
  if (!category || category.toLowerCase() === 'all categories' || category.toLowerCase() === 'all') return null;
  const found = /^\d+$/.test(category)
    ? categories.find((c) => c.id === Number(category))
    : (categories.find((c) => c.name.toLowerCase() === category.toLowerCase()) ??
      categories.find((c) => categoryKey(c.name) === categoryKey(category)));
  if (!found) throw badRequest(`Unknown category '${category}'`);
  return categoryWithDescendants(categories, found.id);
}

export function matchesSearch(listing: CatalogListing, search: string | undefined): boolean {
  if (!search) return true;
  const haystack = `${listing.name} ${listing.description}`.toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

export async function listCatalogProducts(
  catalog: CatalogSourceImpl,
  query: TCatalogProductsQuery,
): Promise<TCatalogProductPage> {
  const categories = await catalog.categories();
  const inCategory = resolveCategory(categories, query.category);
  const listings = (await catalog.listings()).filter(
    (l) => (!inCategory || inCategory.has(l.categoryId)) && matchesSearch(l, query.search),
  );
  const { page, pageSize, minPrice, maxPrice } = query;
  const start = (page - 1) * pageSize;
  let total: number;
  let items: TCatalogProduct[];
  if (minPrice !== undefined || maxPrice !== undefined) {
    if (listings.length > catalog.maxPricedProducts) {
      throw badRequest(
        `Filtering ${listings.length} live Printful products by price needs too many calls; choose a category or search first`,
      );
    }
    const priced = (await Promise.all(listings.map((l) => catalog.product(l)))).filter(
      (p) => (minPrice === undefined || p.basePrice >= minPrice) && (maxPrice === undefined || p.basePrice <= maxPrice),
    );
    total = priced.length;
    items = priced.slice(start, start + pageSize);
  } else {
    total = listings.length;
    items = await Promise.all(listings.slice(start, start + pageSize).map((l) => catalog.product(l)));
  }
  return { items, page, pageSize, total, totalPages: Math.max(1, Math.ceil(total / pageSize)), source: catalog.source };
}

export async function listCatalogCategories(
  catalog: CatalogSourceImpl,
  parentId: number | undefined,
): Promise<TCatalogCategory[]> {
  const categories = await catalog.categories();
  return parentId === undefined ? categories : categories.filter((c) => c.parentId === parentId);
}

/** The catalogue as templates for a Shopify product (spec 3, 'Catalog template'). */
export async function listCatalogTemplates(
  catalog: CatalogSourceImpl,
  categoryId: number | undefined,
): Promise<TCatalogTemplate[]> {
  const categories = await catalog.categories();
  if (categoryId !== undefined && !categories.some((c) => c.id === categoryId)) {
    throw badRequest(`Unknown category '${categoryId}'`);
  }
  const inCategory = categoryId === undefined ? null : categoryWithDescendants(categories, categoryId);
  const listings = (await catalog.listings()).filter((l) => !inCategory || inCategory.has(l.categoryId));
  if (listings.length > catalog.maxPricedProducts) {
    throw badRequest('Choose a category: the live Printful catalogue is too large to price at once');
  }
  const products = await Promise.all(listings.map((l) => catalog.product(l)));
  return products.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    price: p.basePrice,
    imageUrl: p.mockupUrls[0] ?? '',
  }));
}

/** One catalogue product with its variants' base costs and its placements (`GET /api/printful/products/:id`). */
export async function getCatalogProductDetail(source: CatalogSourceImpl, id: number): Promise<TCatalogProductDetail> {
  const listing = (await source.listings()).find((l) => l.id === id);
  if (!listing) throw notFound(`Catalogue product ${id}`);
  const p = await source.product(listing);
  return {
    id: p.id,
    type: p.type,
    name: p.name,
    brand: p.brand,
    model: p.model,
    description: p.description,
    currency: p.currency,
    variants: p.variants.map((v) => ({
      id: v.id,
      color: v.color,
      colorHex: v.colorCode,
      size: v.size,
      baseCost: Number(v.price),
    })),
    placements: p.printAreas.map((a) => ({ ...a })),
  };
}
