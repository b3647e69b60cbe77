import { expect, test } from '../support/fixtures';
import {
  approveOrdersByHand,
  connectSandboxShop,
  openIntegrations,
  placeShopifyTestOrder,
  publishToShopify,
  uploadedProduct,
} from '../support/store-flows';

// Printify beside Printful (#29): the seller chooses the built-in Printify Sandbox on the Printify card, makes a
// product on a Printify blank, sells it in the Shopify sandbox; the order goes to Printify (its sandbox) once, waits
// for approval, ships with tracking, and the Printify Sandbox page shows what it received.
test('a Printify product sold in the sandbox shop is printed by the Printify Sandbox and shipped with tracking', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = `pfy-${Date.now().toString(36)}.myshopify.com`;
  const title = `Printify Tee ${Date.now().toString(36)}`;

  await openIntegrations(page);
  const printify = page.getByTestId('fulfillment-printify');
  await printify.getByRole('button', { name: 'Use the Printify Sandbox' }).click();
  await expect(printify.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(printify.getByRole('link', { name: 'See what it received' })).toBeVisible();

  const productId = await uploadedProduct(
    page,
    { name: 'pfy.png', rgb: [200, 60, 30] },
    {
      title,
      description: 'Printed by Printify.',
      price: '25.00',
      productType: 'tshirt',
      provider: 'printify',
      catalogProductId: '6',
      tags: JSON.stringify(['printify']),
      variants: JSON.stringify([{ catalogVariantId: 17391, price: 25 }]),
    },
  );
  await approveOrdersByHand(page);

  await connectSandboxShop(page, shop);
  await publishToShopify(page, productId);

  const form = await placeShopifyTestOrder(page, 2);

  await form.getByRole('link', { name: 'Orders tab' }).click();
  const order = page.getByTestId('order').first();
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await expect(order).toContainText('Printed by Printify Sandbox');
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 60_000 });
  await expect(order.getByRole('link', { name: /^Track / })).toHaveAttribute('href', /^https:\/\/tools\.usps\.com\//);

  await page.goto('/integrations/printify-sandbox');
  const received = page.getByTestId('printify-sandbox-order');
  await expect(received).toHaveCount(1);
  await expect(received).toContainText('fulfilled');
  await expect(received).toContainText('2 × variant 17391');
  await expect(received).toContainText('Shipped with USPS');
});
