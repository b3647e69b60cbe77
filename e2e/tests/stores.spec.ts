import { expect, test } from '../support/fixtures';
import { approveOrdersByHand, twoColourTee, waveTee } from '../support/store-flows';

// The server runs without ETSY_API_KEY (see global-setup): Etsy connects to the built-in sandbox shop, and
// WooCommerce offers its sandbox store.

test('connects the Etsy sandbox shop, uploads from My Products (the listing active with its variations), and a sale there is printed and shipped', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const title = `Wave Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');
  await twoColourTee(page, waveTee(title));

  const etsy = page.getByTestId('store-etsy');
  await etsy.getByRole('button', { name: 'Connect Etsy' }).click();
  await expect(page).toHaveURL(/\/integrations$/);
  await expect(page.getByText('Etsy Connected', { exact: true })).toBeVisible();
  const shop = page.getByTestId('etsy-store');
  await expect(shop).toContainText('(Sandbox)');
  await expect(shop.getByText('Connected', { exact: true })).toBeVisible();

  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Upload to Etsy' }).click();
  await expect(page.getByText('Upload Successful', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText('Live on Etsy')).toBeVisible();

  await page.goto('/integrations/etsy-sandbox');
  const listing = page.getByTestId('etsy-sandbox-listing').filter({ hasText: title });
  await expect(listing).toContainText('active');
  await expect(listing).toContainText('Colours: Black, Navy');
  await expect(listing.getByRole('img', { name: `${title}, Navy` })).toBeVisible();
  await expect(listing.getByTestId('etsy-sandbox-variation').filter({ hasText: 'Navy / M' })).toContainText(
    /PF-[0-9A-F]{10}-\d+/,
  );

  // A sale in the sandbox shop: Podforge reads the shop's receipts at once, and the order goes to the printer.
  await approveOrdersByHand(page);
  const form = page.getByRole('form', { name: /Place a test order/ });
  const variant = form.getByLabel('Variant');
  const navyM = await variant.locator('option', { hasText: `${title} - Navy / M` }).getAttribute('value');
  await variant.selectOption(navyM ?? '');
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order #\d+ placed/)).toBeVisible();
  await form.getByRole('link', { name: 'Orders tab' }).click();
  const order = page.getByTestId('order').filter({ hasText: title });
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 40_000 });
  await expect(order.getByRole('link', { name: /^Track / })).toBeVisible();
});

test('connects the WooCommerce sandbox store and uploads through Upload to Stores', async ({ page }) => {
  test.setTimeout(120_000);
  const title = `Woo Wave Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');
  const productId = await twoColourTee(page, waveTee(title));

  const woo = page.getByTestId('store-woocommerce');
  await woo.getByRole('button', { name: 'Use the sandbox store' }).click();
  await expect(page.getByText('WooCommerce Connected', { exact: true })).toBeVisible();
  await expect(page.getByTestId('woocommerce-store')).toContainText('Podforge Sandbox Store (Sandbox)');

  // The simple flow as Create Product leaves it: the kept product id opens Upload to Stores.
  await page.evaluate(
    (id) =>
      sessionStorage.setItem(
        'podforge.create-product.v1',
        JSON.stringify({ step: 'stores', design: null, content: null, mockups: [], mockup: null, productId: id }),
      ),
    productId,
  );
  await page.goto('/create-product');
  await page.getByRole('button', { name: /Upload to Stores/ }).click();
  await expect(page.getByTestId('stores-selected')).toHaveText('0 of 1 stores selected');
  await page.getByRole('button', { name: 'Select All', exact: true }).click();
  await page.getByRole('button', { name: 'Upload Now' }).click();
  await expect(page.getByText('Product uploaded to 1 of 1 stores.', { exact: true })).toBeVisible({ timeout: 60_000 });

  await page.goto('/integrations/woocommerce-sandbox');
  const product = page.getByTestId('woo-sandbox-product').filter({ hasText: title });
  await expect(product).toContainText('published');
  await expect(product).toContainText('Color: Black, Navy');
  await expect(product.getByRole('img').first()).toBeVisible();
  await expect(product.getByTestId('woo-sandbox-variation').filter({ hasText: 'Navy / M' })).toContainText('24.00');
});
