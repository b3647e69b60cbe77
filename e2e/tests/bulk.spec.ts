import type { TDesign, TProductPage } from '@podforge/contract';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

const colours: [number, number, number, number][] = [
  [220, 30, 40, 255],
  [20, 140, 60, 255],
  [30, 60, 200, 255],
];

test('the Bulk screen makes 3 designs x 2 blanks as 6 products, pushes each to a store and follows them', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const shop = `e2e-bulk-${Date.now().toString(36)}`;
  await page.goto('/integrations');
  await page.getByLabel('Store domain').fill(`${shop}.myshopify.com`);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
  for (const [i, colour] of colours.entries()) {
    const png = makePng(400, 400, () => colour);
    const uploaded = await page.request.post('/api/designs/upload', {
      multipart: { file: { name: `bulk-${i + 1}.png`, mimeType: 'image/png', buffer: png } },
    });
    expect(uploaded.ok()).toBe(true);
    expect(((await uploaded.json()) as TDesign).name).toBe(`bulk-${i + 1}.png`);
  }

  await page.goto('/?tab=bulk');
  await expect(page.getByRole('heading', { name: 'Bulk Create' })).toBeVisible();
  for (const i of [1, 2, 3]) await page.getByRole('checkbox', { name: `bulk-${i}.png` }).check();
  await page.getByRole('checkbox', { name: /^Unisex Staple T-Shirt \| Bella \+ Canvas 3001 from/ }).check();
  await page.getByRole('checkbox', { name: /^White Glossy Mug from/ }).check();
  await expect(page.getByTestId('bulk-grid')).toHaveText('3 designs × 2 blanks = 6 products');
  await page.getByRole('checkbox', { name: 'White', exact: true }).check();
  // The shared store picker: each product goes to the shop once made.
  await page.getByRole('checkbox', { name: new RegExp(shop) }).check();
  await page.getByRole('button', { name: 'Create 6 products' }).click();

  await expect(page.getByTestId('bulk-progress')).toHaveText('Finished: 6 of 6 products made', { timeout: 120_000 });
  const items = page.getByRole('list', { name: 'Products of this bulk job' }).getByRole('listitem');
  await expect(items).toHaveCount(6);
  await expect(items.filter({ hasText: 'Made' })).toHaveCount(6);
  await expect(items.filter({ hasText: new RegExp(`${shop}.*: live`) })).toHaveCount(6);

  const products = (await (await page.request.get('/api/products?pageSize=50')).json()) as TProductPage;
  expect(products.total).toBe(6);
  expect(products.items.every((p) => p.mockups.length === 1 && p.variants.every((v) => v.color === 'White'))).toBe(
    true,
  );
  expect(products.items.every((p) => p.status === 'live')).toBe(true);
});
