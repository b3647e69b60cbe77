import type { TProductPage } from '@podforge/contract';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// A violet circle on transparent, 1000 px.
const design = makePng(1000, 1000, (x, y) =>
  (x - 500) ** 2 + (y - 500) ** 2 < 380 ** 2 ? [120, 60, 200, 255] : [0, 0, 0, 0],
);

// The whole way in the browser: a connected sandbox shop, the wizard from blank to Pricing, Upload Product pushes
// to the shop, and the shop shows what a buyer would: on the Online Store, each variant available, each colour
// with its own picture.
test('the wizard pushes a 2-colour tee to a connected Shopify store that a buyer can see and buy', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = `e2e-wiz-${Date.now().toString(36)}.myshopify.com`;
  const title = `Violet Circle Tee ${Date.now().toString(36)}`;

  await page.goto('/integrations');
  await page.getByLabel('Store domain').fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();

  // Product: the Bella + Canvas 3001.
  await page.goto('/create');
  await page.getByRole('button', { name: 'Shopify' }).click();
  await page.getByRole('button', { name: 'Apparel' }).click();
  await page.getByRole('button', { name: 'T-Shirts' }).click();
  await page.getByRole('button', { name: /Unisex Staple T-Shirt/ }).click();
  await page.getByRole('button', { name: 'Continue to Design' }).click();

  // Design: an upload.
  await page
    .getByTestId('wizard-file-input')
    .setInputFiles({ name: 'violet-circle.png', mimeType: 'image/png', buffer: design });
  await expect(page.getByRole('list', { name: 'Selected designs' })).toContainText('violet-circle');
  await page.getByRole('button', { name: 'Continue to Mockups' }).click();

  // Mockups: White / S and Black / S (White's sizes are all chosen at first), one mockup per colour.
  const cell = (name: string) => page.getByRole('button', { name, exact: true });
  await expect(cell('White / S')).toHaveAttribute('aria-pressed', 'true');
  for (const size of ['XS', 'M', 'L', 'XL', '2XL', '3XL', '4XL']) await cell(`White / ${size}`).click();
  await cell('Black / S').click();
  await expect(page.getByTestId('matrix-cell').and(page.locator('[aria-pressed="true"]'))).toHaveCount(2);
  await page.getByRole('button', { name: 'Generate Mockups' }).click();
  await expect(page.getByTestId('mockup-progress')).toHaveText('2 of 2 rendered', { timeout: 60_000 });
  await page.getByRole('button', { name: 'Continue to Details' }).click();

  // Details: written by the offline provider, then titled by the seller.
  await page.getByRole('button', { name: 'Generate AI Content' }).click();
  await expect(page.getByLabel('Title', { exact: true })).not.toHaveValue('');
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByRole('button', { name: 'Continue to Pricing' }).click();

  // Pricing: the connected shop is offered; Upload Product creates the product and pushes it.
  await expect(page.getByTestId('pricing-row')).toHaveCount(2);
  await page.getByRole('checkbox', { name: /Sandbox/ }).check();
  await page.getByRole('button', { name: 'Upload Product' }).click();
  await expect(page.getByText('Upload Complete', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(/\/\?tab=my-products$/);
  await expect(page.getByTestId('product-row').filter({ hasText: title }).getByText('Live on Shopify')).toBeVisible();

  // The shop: on the Online Store, Color x Size, both variants available, each colour its own mockup.
  await page.goto('/integrations/shopify-sandbox');
  const card = page.getByTestId('sandbox-product').filter({ hasText: title });
  await expect(card.getByTestId('online-store')).toHaveText('On the Online Store: buyers can see it');
  await expect(card).toContainText('options Color, Size');
  const variants = card.getByTestId('sandbox-variant');
  await expect(variants).toHaveCount(2);
  await expect(variants.filter({ hasText: 'Available' })).toHaveCount(2);
  const { items } = (await (await page.request.get('/api/products')).json()) as TProductPage;
  const product = items.find((p) => p.title === title);
  expect(product?.status).toBe('live');
  for (const color of ['White', 'Black']) {
    const shown = await card.getByRole('img', { name: `${color} / S`, exact: true }).getAttribute('src');
    const mockup = product?.mockups.find((m) => m.color === color);
    expect(mockup, `a mockup for ${color}`).toBeTruthy();
    const bytes = await (await page.request.get(shown as string)).body();
    expect(bytes.equals(await (await page.request.get(mockup?.url as string)).body())).toBe(true);
  }
});
