import type { TProductPage } from '@podforge/contract';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// A teal square on white, 1200 px.
const design = makePng(1200, 1200, (x, y) =>
  Math.abs(x - 600) < 400 && Math.abs(y - 600) < 400 ? [20, 150, 140, 255] : [255, 255, 255, 255],
);

test('the wizard walks Product, Design, Mockups, Details and Pricing into a saved ready product', async ({ page }) => {
  // The server draws the t-shirt template and renders one mockup at 2000x2500: room for a busy machine.
  test.setTimeout(90_000);
  const heading = (name: string) => page.getByRole('heading', { level: 2, name });

  // Product: Shopify, Catalog > Apparel > T-Shirts, a template.
  await page.goto('/create');
  await expect(heading('Product')).toBeVisible();
  // Etsy, WooCommerce and Amazon are offered.
  await expect(page.getByRole('button', { name: /Etsy/ })).toBeEnabled();
  await expect(page.getByRole('button', { name: /Amazon/ })).toBeEnabled();
  await page.getByRole('button', { name: 'Shopify' }).click();
  await page.getByRole('button', { name: 'Apparel' }).click();
  await page.getByRole('button', { name: 'T-Shirts' }).click();
  await expect(page.getByText('No subcategories found.')).toBeVisible();
  const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
  await expect(breadcrumb).toContainText('Catalog');
  await expect(breadcrumb).toContainText('Apparel');
  await expect(page.getByRole('button', { name: 'Continue to Design' })).toBeDisabled();
  await page.getByRole('button', { name: /Unisex Staple T-Shirt/ }).click();
  await page.getByRole('button', { name: 'Continue to Design' }).click();

  // Design: an upload through POST /api/upload/files.
  await expect(page).toHaveURL(/\/create\/design$/);
  await expect(page.getByRole('button', { name: 'Continue to Mockups' })).toBeDisabled();
  await page
    .getByTestId('wizard-file-input')
    .setInputFiles({ name: 'teal-square.png', mimeType: 'image/png', buffer: design });
  await expect(page.getByRole('list', { name: 'Selected designs' })).toContainText('teal-square');
  await page.getByRole('button', { name: 'Continue to Mockups' }).click();

  // Mockups: the blank's colours x sizes; 2 colours x 3 sizes, one mockup rendered per colour on the server.
  await expect(page).toHaveURL(/\/create\/mockups$/);
  await expect(page.getByLabel(/Mockup canvas/)).toHaveAttribute('data-template', /^tshirt-/);
  await expect(page.getByRole('button', { name: 'Continue to Details' })).toBeDisabled();
  const cell = (name: string) => page.getByRole('button', { name, exact: true });
  await expect(cell('White / S')).toHaveAttribute('aria-pressed', 'true');
  for (const size of ['XS', 'XL', '2XL', '3XL', '4XL']) await cell(`White / ${size}`).click();
  for (const size of ['S', 'M', 'L']) await cell(`Black / ${size}`).click();
  await expect(page.getByTestId('matrix-cell').and(page.locator('[aria-pressed="true"]'))).toHaveCount(6);
  await page.getByRole('button', { name: 'Generate Mockups' }).click();
  await expect(page.getByTestId('mockup-progress')).toHaveText('2 of 2 rendered', { timeout: 60_000 });
  await expect(page.getByTestId('mockup-result')).toHaveCount(2);
  await page.getByRole('button', { name: 'Continue to Details' }).click();

  // Details: the offline provider writes the listing.
  await expect(page).toHaveURL(/\/create\/details$/);
  await expect(page.getByRole('button', { name: 'Continue to Pricing' })).toBeDisabled();
  await page.getByRole('button', { name: 'Generate AI Content' }).click();
  await expect(page.getByLabel('Title', { exact: true })).not.toHaveValue('');
  await expect(page.getByRole('textbox', { name: 'Description', exact: true })).not.toHaveValue('');
  await page.getByLabel('Title', { exact: true }).fill('Teal Square Tee');
  await expect(page.getByTestId('listing-preview')).toContainText('Teal Square Tee');
  await page.getByRole('button', { name: 'Continue to Pricing' }).click();

  // Pricing: no store is connected, so Upload Product saves the product.
  await expect(page).toHaveURL(/\/create\/pricing$/);
  await expect(page.getByTestId('pricing-row')).toHaveCount(6);
  await expect(page.getByTestId('no-stores')).toBeVisible();
  await page.getByRole('button', { name: 'Upload Product' }).click();
  await expect(page).toHaveURL(/\/\?tab=my-products$/);
  await expect(page.getByText('Product Saved', { exact: true })).toBeVisible();

  const answer = await page.request.get('/api/products');
  expect(answer.ok()).toBe(true);
  const { items } = (await answer.json()) as TProductPage;
  expect(items).toHaveLength(1);
  const [product] = items;
  expect(product?.title).toBe('Teal Square Tee');
  expect(product?.status).toBe('ready');
  expect(product?.productType).toBe('tshirt');
  expect(product?.mockupUrl).toMatch(/^\/api\/mockups\//);
  // Catalogue-linked: the Bella + Canvas 3001, its 6 enabled variants, and a picture per colour.
  expect(product?.catalogProductId).toBe(71);
  expect(product?.variants.map((v) => v.option).sort()).toEqual(
    ['Black / L', 'Black / M', 'Black / S', 'White / L', 'White / M', 'White / S'].sort(),
  );
  expect(product?.variants.every((v) => v.catalogVariantId !== null && v.sku && v.price > (v.baseCost ?? 0))).toBe(
    true,
  );
  expect(product?.mockups.map((m) => m.color).sort()).toEqual(['Black', 'White']);

  // The wizard was reset.
  await page.goto('/create');
  await expect(page.getByRole('button', { name: 'Shopify' })).toHaveAttribute('aria-pressed', 'false');
});
