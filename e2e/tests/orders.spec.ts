import { expect, test } from '../support/fixtures';
import {
  approveOrdersByHand,
  connectSandboxShop,
  placeShopifyTestOrder,
  publishToShopify,
  uploadedProduct,
} from '../support/store-flows';

// The whole loop on one machine: the built-in Shopify sandbox takes a test order, the built-in Printful Sandbox
// prints and ships it, and the Orders tab and the dashboard show it.
test('a test order in the sandbox shop is approved, printed and shipped with tracking; the dashboard shows the sale', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const shop = `orders-${Date.now().toString(36)}.myshopify.com`;
  const title = `Parcel Tee ${Date.now().toString(36)}`;

  await page.goto('/integrations');
  const productId = await uploadedProduct(
    page,
    { name: 'parcel.png', rgb: [30, 120, 240] },
    {
      title,
      description: 'Printed when it sells.',
      price: '25.00',
      productType: 'tshirt',
      tags: JSON.stringify(['parcel']),
      variants: JSON.stringify([{ option: 'Medium', price: 25 }]),
    },
  );
  await approveOrdersByHand(page);

  // Connect the sandbox store and push the product to it.
  await connectSandboxShop(page, shop);
  await expect(page.getByTestId('printful-sandbox-note')).toBeVisible();
  await publishToShopify(page, productId);

  // The Shopify Sandbox page: Place a test order.
  const form = await placeShopifyTestOrder(page, 2);

  // The Orders tab: the order waits for approval; approving sends it to the printer, which ships it.
  await form.getByRole('link', { name: 'Orders tab' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const order = page.getByTestId('order').first();
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 20_000 });
  await expect(order).toContainText(title);
  await expect(order.getByRole('img', { name: new RegExp(title) })).toBeVisible();
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 40_000 });
  const tracking = order.getByRole('link', { name: /^Track / });
  await expect(tracking).toHaveAttribute('href', /^https:\/\/tools\.usps\.com\//);
  await expect(order).toContainText('$50.00');

  // The dashboard's Sales and Profit come from the order.
  await page.goto('/');
  const figure = (label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('..');
  await expect(figure('Sales')).toContainText('$50.00');
  await expect(figure('Profit')).toContainText(/\$\d+\.\d{2}/);
  await expect(figure('Avg Order Value')).toContainText('$50.00');
  await expect(figure('Conversion')).toContainText('No data');
});
