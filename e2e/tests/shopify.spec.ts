import { expect, test } from '../support/fixtures';
import { connectSandboxShop, uploadedDesign, uploadedProduct } from '../support/store-flows';

// The server runs without SHOPIFY_API_KEY (see global-setup): stores connect to the built-in sandbox.
test('connects the sandbox Shopify store and uploads a product to it from My Products', async ({ page }) => {
  test.setTimeout(60_000);
  const shop = `e2e-${Date.now().toString(36)}.myshopify.com`;
  const title = `Sandbox Sunset Tee ${Date.now().toString(36)}`;

  // A draft product made through the API, in this page's workspace (the request shares its cookie).
  await page.goto('/integrations');
  await uploadedProduct(
    page,
    { name: 'sunset.png', rgb: [240, 120, 30] },
    {
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
  );

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

// Issue #10: what a buyer would see. The sandbox page shows the pushed product on the Online Store, available,
// each colour with its own picture; an edit reaches the store with Update in store; deleting archives it there.
test('pushes a 2-colour product a buyer can see and buy, updates it in the store, and archives it on delete', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = `e2e-buy-${Date.now().toString(36)}.myshopify.com`;
  const title = `Two Colour Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');

  // A product on the Bella + Canvas 3001 in Black and Red, S and M, with one mockup per colour (via the API).
  const { designId, mockup: mockupOf } = await uploadedDesign(
    page,
    { name: 'sun.png', rgb: [250, 200, 40], size: 400 },
    100,
  );
  const black = await mockupOf('black');
  const red = await mockupOf('red');
  const detail = await (await page.request.get('/api/printful/products/71')).json();
  const pick = (color: string, size: string) =>
    detail.variants.find((v: { color: string; size: string }) => v.color === color && v.size === size).id as number;
  const created = await page.request.post('/api/products', {
    data: {
      title,
      description: 'Bright sun on soft cotton.',
      price: 24.99,
      tags: ['sun'],
      productType: 'tshirt',
      catalogProductId: 71,
      variants: [
        { catalogVariantId: pick('Black', 'S'), price: 24.99 },
        { catalogVariantId: pick('Black', 'M'), price: 24.99 },
        { catalogVariantId: pick('Red', 'S'), price: 25.99 },
        { catalogVariantId: pick('Red', 'M'), price: 25.99 },
      ],
      designId,
      mockupIds: [black, red],
      mockupId: black,
      status: 'ready',
    },
  });
  expect(created.status(), await created.text()).toBe(201);

  // Connect a sandbox store.
  await connectSandboxShop(page, shop);

  // Push it from My Products.
  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Upload to Shopify' }).click();
  await expect(page.getByText('Upload Successful', { exact: true })).toBeVisible();
  await expect(row.getByText('Live on Shopify')).toBeVisible();

  // The sandbox page: on the Online Store, Color x Size, every variant available, each colour's own picture.
  await page.goto('/integrations/shopify-sandbox');
  const card = page.getByTestId('sandbox-product').filter({ hasText: title });
  await expect(card.getByTestId('online-store')).toHaveText('On the Online Store: buyers can see it');
  await expect(card).toContainText('options Color, Size');
  const variants = card.getByTestId('sandbox-variant');
  await expect(variants).toHaveCount(4);
  await expect(variants.filter({ hasText: 'Available' })).toHaveCount(4);
  const srcOf = (name: string) => card.getByRole('img', { name, exact: true }).getAttribute('src');
  const blackS = await srcOf('Black / S');
  expect(await srcOf('Black / M')).toBe(blackS);
  const redS = await srcOf('Red / S');
  expect(redS).not.toBe(blackS);
  const shown = await (await page.request.get(blackS as string)).body();
  const mockupBytes = await (await page.request.get(`/api/mockups/${black}/file`)).body();
  expect(shown.equals(mockupBytes)).toBe(true);
  const redShown = await (await page.request.get(redS as string)).body();
  expect(redShown.equals(await (await page.request.get(`/api/mockups/${red}/file`)).body())).toBe(true);
  await expect(card.getByRole('img', { name: `${title}, main` })).toHaveAttribute('src', blackS as string);

  // Edit the price; Update in store; the sandbox shows the new price.
  await page.goto('/?tab=my-products');
  await row.getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Product' });
  await dialog.getByLabel('Price of Black / S').fill('29.99');
  await dialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(dialog.getByText('Changes not in store')).toBeVisible();
  await dialog.getByRole('button', { name: 'Update in store' }).click();
  await expect(dialog.getByTestId('store-in-sync')).toContainText('Updated in');
  await page.goto('/integrations/shopify-sandbox');
  await expect(card.getByTestId('sandbox-variant').filter({ hasText: 'Black / S' })).toContainText('29.99');

  // Delete it, archiving it in the store: the sandbox shows it archived and off the Online Store.
  await page.goto('/?tab=my-products');
  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete product?' });
  await expect(confirm.getByRole('radio', { name: /Archive it in the store/ })).toBeChecked();
  await confirm.getByRole('button', { name: 'Delete product' }).click();
  await expect(page.getByText(`${title} was deleted and archived in the store.`).first()).toBeVisible();
  await expect(row).toHaveCount(0);
  await page.goto('/integrations/shopify-sandbox');
  await expect(card.getByTestId('online-store')).toHaveText('Not on the Online Store: buyers cannot see it');
  await expect(card).toContainText('ARCHIVED');
});
