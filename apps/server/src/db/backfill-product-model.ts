import { DEFAULT_CATALOG_PRODUCT, sizeFromOption, skuFor, variantLabel } from '@podforge/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { BUNDLED_PRODUCTS } from '../integrations/printful/catalog/bundled';
import type { Db } from './db';
import { mockups, productMockups, products, productVariants } from './schema';

/**
 * The data half of migration 0003: products made before the catalogue model have free-text variants ('Small',
 * 'M') and no catalogue product. Each is put on its type's default catalogue product (from the bundled snapshot,
 * so no network is needed), and each variant whose name is a size of it becomes that catalogue variant in the
 * colour of the product's main mockup (else the catalogue's first colour), keeping its price and SKU. A product
 * none of whose variants is a size keeps its free-text variants and no catalogue product: nothing is invented.
 * Idempotent: it only reads products that have no catalogue product yet.
 */
export async function backfillProductModel(db: Db): Promise<number> {
  const legacy = await db.select().from(products).where(isNull(products.catalogProductId));
  let mapped = 0;
  for (const product of legacy) {
    const catalogId = DEFAULT_CATALOG_PRODUCT[product.productType];
    const catalog = BUNDLED_PRODUCTS.find((p) => p.id === catalogId);
    if (!catalog) continue;
    const variants = await db.select().from(productVariants).where(eq(productVariants.productId, product.id));
    const [main] = await db
      .select({ color: mockups.color })
      .from(productMockups)
      .innerJoin(mockups, eq(mockups.id, productMockups.mockupId))
      .where(and(eq(productMockups.productId, product.id), eq(productMockups.main, true)));
    const colour =
      catalog.colors.find((c) => c.name.toLowerCase().replace(/\s+/g, '-') === main?.color)?.name ??
      catalog.colors[0]?.name;
    const taken = new Set<number>();
    const updates = variants.flatMap((v) => {
      const size = catalog.sizes.find((s) => s.toUpperCase() === sizeFromOption(v.option));
      const cv = catalog.variants.find((c) => c.color === colour && c.size === size);
      if (!cv || taken.has(cv.id)) return [];
      taken.add(cv.id);
      return [{ id: v.id, cv, sku: v.sku ?? skuFor(product.id, cv.id) }];
    });
    if (updates.length === 0) continue;
    await db.transaction(async (tx) => {
      for (const u of updates) {
        await tx
          .update(productVariants)
          .set({
            catalogVariantId: u.cv.id,
            color: u.cv.color,
            colorHex: u.cv.colorCode,
            size: u.cv.size,
            option: variantLabel(u.cv.color, u.cv.size),
            baseCost: u.cv.price,
            sku: u.sku,
          })
          .where(eq(productVariants.id, u.id));
      }
      const first = catalog.printAreas[0];
      await tx
        .update(products)
        .set({
          catalogProductId: catalog.id,
          placements: first ? [{ placement: first.placement, technique: first.technique }] : [],
        })
        .where(eq(products.id, product.id));
      if (colour) {
        await tx
          .update(productMockups)
          .set({ color: colour })
          .where(and(eq(productMockups.productId, product.id), eq(productMockups.main, true)));
      }
    });
    mapped += 1;
  }
  return mapped;
}
