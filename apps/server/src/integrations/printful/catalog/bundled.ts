import type { TCatalogCategory, TCatalogProduct } from '@podforge/contract';
import { CATEGORY_SEEDS, type CatalogType, PRODUCT_SEEDS, type ProductSeed } from './products';

export const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Product types whose catalogue picture is a PNG render of the mockup template; the others are drawn as SVG. */
export const PHOTO_TYPES = ['tshirt', 'hoodie', 'mug', 'poster'] as const satisfies readonly CatalogType[];
export type PhotoType = (typeof PHOTO_TYPES)[number];
export const isPhotoType = (type: CatalogType): type is PhotoType => (PHOTO_TYPES as readonly string[]).includes(type);

export const productImageFile = (type: CatalogType, colour: string) =>
  `${slug(colour)}.${isPhotoType(type) ? 'png' : 'svg'}`;
export const productImageUrl = (productId: number, type: CatalogType, colour: string) =>
  `/templates/catalog/products/${productId}/${productImageFile(type, colour)}`;
/** The product's colour range as one picture (photo kinds with several colours): its Product Picker card. */
export const PRODUCT_RANGE_FILE = 'range.png';
export const hasRangeImage = (seed: ProductSeed) => isPhotoType(seed.type) && seed.colours.length > 1;
export const categoryImageUrl = (categoryId: number) => `/templates/catalog/categories/${categoryId}.svg`;

function toProduct(seed: ProductSeed): TCatalogProduct {
  // Variant ids are stable: product id x 1000 + position in the colour x size grid.
  const variants = seed.colours.flatMap(([color, colorCode], ci) =>
    seed.sizes.map(([size, price], si) => ({
      id: seed.id * 1000 + ci * seed.sizes.length + si + 1,
      name: `${seed.brand === 'Printful' ? seed.name : `${seed.brand} ${seed.model}`} (${color} / ${size})`,
      size,
      color,
      colorCode,
      price,
    })),
  );
  const basePrice = Math.min(...seed.sizes.map(([, price]) => Number(price)));
  return {
    id: seed.id,
    categoryId: seed.categoryId,
    type: seed.type,
    name: seed.name,
    brand: seed.brand,
    model: seed.model,
    description: seed.description,
    basePrice,
    currency: 'USD',
    // First the product's own picture (its colour range; tees share one drawing, not their colours), then each colour.
    mockupUrls: [
      ...(hasRangeImage(seed) ? [`/templates/catalog/products/${seed.id}/${PRODUCT_RANGE_FILE}`] : []),
      ...seed.colours.map(([colour]) => productImageUrl(seed.id, seed.type, colour)),
    ],
    variantCount: variants.length,
    variants,
    sizes: seed.sizes.map(([size]) => size),
    colors: seed.colours.map(([name, value]) => ({ name, value })),
    printAreas: seed.printAreas.map((a) => ({ ...a })),
  };
}

export const BUNDLED_PRODUCTS: readonly TCatalogProduct[] = PRODUCT_SEEDS.map(toProduct);

export const BUNDLED_CATEGORIES: readonly TCatalogCategory[] = CATEGORY_SEEDS.map((c) => ({
  id: c.id,
  parentId: c.parentId,
  name: c.title,
  image: categoryImageUrl(c.id),
}));

/** The product type a category's picture shows: its own, or its first child's. */
export function categoryType(categoryId: number): CatalogType | null {
  const seed = CATEGORY_SEEDS.find((c) => c.id === categoryId);
  if (!seed) return null;
  return seed.type ?? CATEGORY_SEEDS.find((c) => c.parentId === seed.id)?.type ?? null;
}

export function findSeed(productId: number): ProductSeed | undefined {
  return PRODUCT_SEEDS.find((p) => p.id === productId);
}
