import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// #28 point 6: what changes on the server (a job, another tab) reaches an open screen without a reload.
test('My Products shows a product made in another tab within a few seconds, without a reload', async ({ page }) => {
  const title = `Made In Another Tab ${Date.now().toString(36)}`;
  await page.goto('/?tab=my-products');
  await expect(page.getByRole('heading', { name: 'My Products' })).toBeVisible();
  const before = await page.getByTestId('product-row').count();

  // Another tab of the same workspace (same cookie) makes a product; this page does nothing.
  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: 'live.png', mimeType: 'image/png', buffer: makePng(300, 300, () => [20, 120, 200, 255]) },
      title,
      description: 'Made while the list was open.',
      price: '21.00',
      productType: 'tshirt',
      tags: JSON.stringify(['live']),
      variants: JSON.stringify([{ option: 'Medium', price: 21, sku: 'LIVE-M' }]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await expect(page.getByTestId('product-row').filter({ hasText: title })).toBeVisible({ timeout: 4_000 });
  expect(await page.getByTestId('product-row').count()).toBe(before + 1);
});
