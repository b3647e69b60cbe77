import type { TProductPage } from '@podforge/contract';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// An orange disc on white, 1500 px: big enough to print well on a mug.
const design = makePng(1500, 1500, (x, y) =>
  (x - 750) ** 2 + (y - 750) ** 2 < 600 ** 2 ? [240, 120, 30, 255] : [255, 255, 255, 255],
);

test('the simple flow turns an upload, an AI listing and a rendered mockup into a draft product', async ({ page }) => {
  // The server draws the mug templates and renders every colour at 2000x2500: give it room on a busy machine.
  test.setTimeout(90_000);
  const currentStep = page.locator('[aria-current="step"]');
  await page.goto('/create-product');
  await expect(currentStep).toContainText('Upload Design');

  await page.getByTestId('simple-file-input').setInputFiles({
    name: 'retro-sunset_v2.png',
    mimeType: 'image/png',
    buffer: design,
  });
  await expect(currentStep).toContainText('Generate Content');
  await expect(page.getByText('Upload Complete', { exact: true })).toBeVisible();

  // The built-in offline provider writes the listing from the design's name and the catalogue.
  await page.getByRole('combobox', { name: 'Product type' }).selectOption('mug');
  await page.getByRole('button', { name: 'Generate Content', exact: true }).click();
  await expect(page.getByText('Content Generated', { exact: true })).toBeVisible();
  const title = page.getByLabel('Title', { exact: true });
  await expect(title).toHaveValue(/Retro Sunset/i);
  await expect(page.getByRole('textbox', { name: 'Description', exact: true })).not.toHaveValue('');
  await expect(page.getByTestId('variant-row').first()).toBeVisible();
  await title.fill('Retro Sunset Coffee Mug');
  await page.getByRole('button', { name: 'Use This Content' }).click();
  await expect(currentStep).toContainText('Preview Mockup');

  // The editor shows the mug set; Generate Mockups renders its first view in every colour the blank comes in (the
  // White Glossy Mug: white only) on the server.
  await expect(page.getByLabel(/Mockup canvas/)).toHaveAttribute('data-template', 'mug-right');
  await expect(page.getByRole('button', { name: 'Create Product' })).toBeDisabled();
  await page.getByRole('button', { name: 'Generate Mockups' }).click();
  await expect(page.getByTestId('mockup-progress')).toHaveText(/^(\d+) of \1 rendered$/, { timeout: 60_000 });
  const results = page.getByTestId('mockup-result');
  expect(await results.count()).toBeGreaterThan(0);
  await expect(results.first().locator('img')).toHaveJSProperty('complete', true);
  expect(
    await results
      .first()
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.naturalWidth),
  ).toBe(512);
  await results.last().click();
  await expect(results.last()).toHaveAttribute('aria-pressed', 'true');

  await page.getByRole('button', { name: 'Create Product' }).click();
  await expect(page.getByText('Product Created', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/\?tab=my-products$/);

  // The product is stored as a draft with the chosen mockup, the edited title and priced variants.
  const answer = await page.request.get('/api/products');
  expect(answer.ok()).toBe(true);
  const { items } = (await answer.json()) as TProductPage;
  expect(items).toHaveLength(1);
  const [product] = items;
  expect(product?.title).toBe('Retro Sunset Coffee Mug');
  expect(product?.status).toBe('draft');
  expect(product?.productType).toBe('mug');
  expect(product?.mockupUrl).toMatch(/^\/api\/mockups\//);
  expect(product?.variants.length).toBeGreaterThan(0);
  expect(product?.variants.every((v) => v.price > 0)).toBe(true);

  // Back in Create Product, the kept product id opens Upload to Stores; no store is connected yet.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Product' }).click();
  await expect(currentStep).toContainText('Upload Design');
  await page.getByRole('button', { name: /Upload to Stores/ }).click();
  await expect(page.getByText('No Connected Stores')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Integrations' }).click();
  await expect(page).toHaveURL(/\/integrations$/);

  // Connect the built-in sandbox store, come back, and upload the kept product to it.
  const shop = `flow-${Date.now().toString(36)}.myshopify.com`;
  await page.getByLabel('Store domain').fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Product' }).click();
  await page.getByRole('button', { name: /Upload to Stores/ }).click();
  await expect(page.getByTestId('stores-selected')).toHaveText('0 of 1 stores selected');
  await expect(page.getByRole('button', { name: 'Upload Now' })).toBeDisabled();
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await expect(page.getByTestId('stores-selected')).toHaveText('1 of 1 stores selected');
  await page.getByRole('button', { name: 'Upload Now' }).click();
  await expect(page.getByText('Product uploaded to 1 of 1 stores.', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('stores-selected')).toHaveText('0 of 1 stores selected');
  const live = await (await page.request.get(`/api/products/${product?.id}`)).json();
  expect(live.status).toBe('live');
  expect(live.storeUrl).toMatch(/^\/integrations\/shopify-sandbox#/);
});
