import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// The server runs without SHOPIFY_API_KEY (see global-setup): stores connect to the built-in sandbox.
test('connects the sandbox Shopify store and uploads a product to it from My Products', async ({ page }) => {
  test.setTimeout(60_000);
  const shop = `e2e-${Date.now().toString(36)}.myshopify.com`;
  const title = `Sandbox Sunset Tee ${Date.now().toString(36)}`;

  // A draft product made through the API, in this page's workspace (the request shares its cookie).
  await page.goto('/integrations');
  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: 'sunset.png', mimeType: 'image/png', buffer: makePng(400, 400, () => [240, 120, 30, 255]) },
      title,
      description: 'A warm sunset on soft cotton.',
      price: '24.99',
      productType: 'tshirt',
      tags: JSON.stringify(['sunset']),
      variants: JSON.stringify([
        { option: 'Small', price: 24.99, sku: 'SUN-S' },
        { option: 'Large', price: 26.99, sku: 'SUN-L' },
      ]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  // Store Platforms: the domain is checked, then the browser goes through the (relayed) approval and back.
  const domain = page.getByLabel('Store domain');
  await domain.fill('not a domain');
  await expect(page.getByRole('alert')).toHaveText(
    'Please enter a valid Shopify store domain (e.g., your-store.myshopify.com).',
  );
  await domain.fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page).toHaveURL(/\/integrations$/);
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
  const store = page.getByTestId('shopify-store');
  await expect(store).toContainText(`${shop.replace('.myshopify.com', '')} (Sandbox)`);
  await expect(store.getByText('Connected', { exact: true })).toBeVisible();
  await store.getByRole('button', { name: 'Sync' }).click();
  await expect(store.getByRole('status')).toHaveText('Synced successfully');

  // My Products: Upload to Shopify pushes it to the sandbox store.
  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Upload to Shopify' }).click();
  await expect(page.getByText('Upload Successful', { exact: true })).toBeVisible();
  await expect(row.getByText('Live on Shopify')).toBeVisible();

  // The sandbox page lists what the store received.
  await page.goto('/integrations/shopify-sandbox');
  const pushed = page.getByTestId('sandbox-product').filter({ hasText: title });
  // The free-text sizes became the default blank's catalogue variants, with SKUs of their own.
  await expect(pushed).toContainText('White / L');
  await expect(pushed).toContainText('26.99');
  await expect(pushed).toContainText(/PF-[0-9A-F]{10}-71004/);
});
