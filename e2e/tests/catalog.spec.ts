import { expect, test } from '../support/fixtures';
import { openIntegrations } from '../support/store-flows';

const cards = (page: import('@playwright/test').Page) => page.getByTestId('catalog-product');

test('the Product Picker searches, filters by category and price, pages and shows the empty state', async ({
  page,
}) => {
  await page.goto('/?tab=products');
  await expect(page.getByRole('heading', { level: 1, name: 'Product Picker' })).toBeVisible();
  await expect(cards(page)).toHaveCount(12);
  await expect(page.getByText('Bundled Printful catalogue')).toBeVisible();
  const first = cards(page).filter({ hasText: 'Unisex Staple T-Shirt | Bella + Canvas 3001' });
  await expect(first.getByText('$9.25')).toBeVisible();
  await expect(first.getByText('48 variants')).toBeVisible();
  // Apparel pictures are 600x750 PNG renders of the mockup templates.
  await expect(first.getByRole('img', { name: 'Unisex Staple T-Shirt | Bella + Canvas 3001' })).toHaveJSProperty(
    'naturalWidth',
    600,
  );

  // The pager pages for real.
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page.getByText(/Showing 13 to 24 of \d+ products/)).toBeVisible();
  await expect(first).toHaveCount(0);

  await page.getByRole('combobox', { name: 'Category' }).selectOption('Mugs');
  await expect(page.getByText(/Showing 1 to \d of \d products/)).toBeVisible();
  await expect(cards(page).filter({ hasText: 'White Glossy Mug' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Price' }).selectOption('$15 - $25');
  await expect(cards(page)).toHaveCount(2);
  await expect(cards(page).filter({ hasText: 'Travel Mug with a Handle' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Category' }).selectOption('All Categories');
  await page.getByRole('combobox', { name: 'Price' }).selectOption('All Prices');
  await page.getByRole('searchbox', { name: 'Search products' }).fill('dishwasher');
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText('White Glossy Mug');
  await expect(cards(page).first()).toContainText('$5.95');

  await page.getByRole('searchbox', { name: 'Search products' }).fill('no such product anywhere');
  await expect(page.getByText('No products found.')).toBeVisible();
  await expect(page.getByText('Try adjusting your search or filters.')).toBeVisible();
});

test('the Product Picker shows an 8-card skeleton while loading, then image fallbacks', async ({ page }) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/printful/products?**', async (route) => {
    await gate;
    const response = await route.fetch();
    const body = await response.json();
    // One card without images, one whose image fails to load.
    body.items[0].mockupUrls = [];
    body.items[1].mockupUrls = ['/templates/catalog/products/1/missing.png'];
    await route.fulfill({ response, json: body });
  });
  await page.goto('/?tab=products');
  await expect(page.getByTestId('product-skeleton')).toHaveCount(8);
  release();
  await expect(cards(page)).toHaveCount(12);
  await expect(cards(page).nth(0).getByText('No image')).toBeVisible();
  await expect(cards(page).nth(1).getByText('Image unavailable')).toBeVisible();
});

test('Printful connects and disconnects through the fake, switching the catalogue to live and back', async ({
  page,
}) => {
  await openIntegrations(page);
  const printful = page.getByTestId('fulfillment-printful');
  // Not connected to an account of its own, yet its orders are printed: by the built-in Printful Sandbox.
  await expect(printful.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(printful.getByTestId('printful-sandbox-note')).toBeVisible();
  // Gelato and Printify are real cards: each offers its own connection and its built-in sandbox.
  await expect(page.getByTestId('fulfillment-gelato').getByText('Not connected')).toBeVisible();
  await expect(
    page.getByTestId('fulfillment-gelato').getByRole('button', { name: 'Use the Gelato Sandbox' }),
  ).toBeVisible();
  await expect(page.getByTestId('fulfillment-printify').getByText('Not connected')).toBeVisible();
  await expect(
    page.getByTestId('fulfillment-printify').getByRole('button', { name: 'Use the Printify Sandbox' }),
  ).toBeVisible();

  await printful.getByRole('link', { name: 'Connect' }).click();
  await expect(page).toHaveURL(/\/integrations$/);
  await expect(page.getByText('Printful Connected', { exact: true })).toBeVisible();
  await expect(printful.getByText('Connected', { exact: true })).toBeVisible();
  await expect(printful.getByText('Fake Print Store')).toBeVisible();

  await page.goto('/?tab=products');
  await expect(page.getByText('Live Printful catalogue')).toBeVisible();
  await expect(cards(page)).toHaveCount(3);
  await expect(
    cards(page).filter({ hasText: 'White Glossy Mug' }).getByRole('img', { name: 'White Glossy Mug' }),
  ).toHaveJSProperty('naturalWidth', 400);

  await openIntegrations(page);
  await printful.getByRole('button', { name: 'Disconnect' }).click();
  // Disconnect asks first.
  await page.getByRole('dialog', { name: 'Disconnect Printful?' }).getByRole('button', { name: 'Disconnect' }).click();
  await expect(printful.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(page.getByText('Printful Disconnected', { exact: true })).toBeVisible();
  await page.goto('/?tab=products');
  await expect(page.getByText('Bundled Printful catalogue')).toBeVisible();
});
