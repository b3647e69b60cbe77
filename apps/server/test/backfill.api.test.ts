import { skuFor } from '@podforge/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillProductModel } from '../src/db/backfill-product-model';
import { products, productVariants } from '../src/db/schema';
import { insertDesign, solidPng } from './fixtures/designs';
import { createTestApp, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('products made before the catalogue model', () => {
  it('are put on their type default catalogue product, free-text sizes becoming catalogue variants', async () => {
    const client = t.client();
    const ws = await client.workspaceId(t.deps.db);
    const { id: designId } = await insertDesign(t.deps, ws, await solidPng(64, 64, { r: 0, g: 0, b: 0 }));
    // As an older version wrote them: no catalogue product, free-text variants.
    const [old] = await t.deps.db
      .insert(products)
      .values({ workspaceId: ws, title: 'Old tee', productType: 'tshirt', price: '25.00', designId })
      .returning();
    const [mug] = await t.deps.db
      .insert(products)
      .values({ workspaceId: ws, title: 'Old mug', productType: 'mug', price: '25.00', designId })
      .returning();
    if (!old || !mug) throw new Error('insert failed');
    await t.deps.db.insert(productVariants).values([
      { workspaceId: ws, productId: old.id, position: 0, option: 'Small', price: '25.00', sku: 'S' },
      { workspaceId: ws, productId: old.id, position: 1, option: 'Extra Large', price: '27.00', sku: null },
      { workspaceId: ws, productId: old.id, position: 2, option: 'Glow in the dark', price: '30.00', sku: 'G' },
      { workspaceId: ws, productId: mug.id, position: 0, option: 'Small', price: '25.00', sku: 'S' },
    ]);

    expect(await backfillProductModel(t.deps.db)).toBe(1);
    expect(await backfillProductModel(t.deps.db)).toBe(0);

    const product = (await client.get(`/api/products/${old.id}`)).json();
    expect(product).toMatchObject({ catalogProductId: 71, placements: [{ placement: 'front', technique: 'dtg' }] });
    expect(product.variants).toMatchObject([
      { option: 'White / S', catalogVariantId: 71002, size: 'S', price: 25, sku: 'S', baseCost: 9.25 },
      { option: 'White / XL', catalogVariantId: 71005, size: 'XL', price: 27, sku: skuFor(old.id, 71005) },
      // Not a size of the product: kept as it was, never guessed.
      { option: 'Glow in the dark', catalogVariantId: null, price: 30, sku: 'G' },
    ]);
    // A mug has no 'Small': it keeps its free-text variant and gets no catalogue product.
    const [mugRow] = await t.deps.db.select().from(products).where(eq(products.id, mug.id));
    expect(mugRow?.catalogProductId).toBeNull();
  });
});
