import { expect, test } from '../support/fixtures';
import {
  approveOrdersByHand,
  connectSandboxShop,
  openIntegrations,
  placeShopifyTestOrder,
  publishToShopify,
  uploadedProduct,
} from '../support/store-flows';

// Issue #29: a product sold in the Shopify sandbox is printed by the built-in Gelato sandbox, chosen by the
// workspace's routing rule, approved, and shipped with tracking; the order says which printer and why.
test('a Shopify sandbox order goes to the Gelato sandbox by the routing rule, is approved and ships with tracking', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const shop = `gelato-${Date.now().toString(36)}.myshopify.com`;
  const title = `Gelato Tee ${Date.now().toString(36)}`;

  await openIntegrations(page);
  const productId = await uploadedProduct(
    page,
    { name: 'wave.png', rgb: [20, 160, 90] },
    {
      title,
      description: 'Printed near the buyer.',
      price: '25.00',
      productType: 'tshirt',
      tags: JSON.stringify(['gelato']),
      variants: JSON.stringify([{ option: 'Medium', price: 25 }]),
    },
  );
  await approveOrdersByHand(page);

  // The Gelato card: the built-in sandbox, with the contact email Gelato requires.
  const gelato = page.getByTestId('fulfillment-gelato');
  await gelato.getByLabel(/Contact email/).fill('seller@example.com');
  await gelato.getByRole('button', { name: 'Use the Gelato Sandbox' }).click();
  await expect(gelato.getByText('Sandbox', { exact: true })).toBeVisible();

  // Order routing: always the Gelato sandbox.
  const routing = page.getByTestId('printer-routing');
  await routing.getByLabel('Send each order to').selectOption('fixed');
  await routing.getByLabel('Printer').selectOption('gelato-sandbox');
  await expect
    .poll(async () => (await (await page.request.get('/api/routing')).json()).provider)
    .toBe('gelato-sandbox');

  // The sandbox store, the product pushed to it, and a test order.
  await connectSandboxShop(page, shop);
  await publishToShopify(page, productId);
  const form = await placeShopifyTestOrder(page);

  // Orders: the Gelato draft waits for approval; approved, Gelato prints and ships it.
  await form.getByRole('link', { name: 'Orders tab' }).click();
  const order = page.getByTestId('order').first();
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 20_000 });
  await expect(order).toContainText('Printed by Gelato Sandbox');
  await expect(order.getByTestId('order-printer-reason')).toContainText('Routing rule: always Gelato sandbox');
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 40_000 });
  await expect(order.getByRole('link', { name: /^Track / })).toHaveAttribute(
    'href',
    /^https:\/\/tracking\.gelato\.com\//,
  );

  // The Gelato sandbox page shows the order it received, with its parcel.
  await page.goto('/integrations/gelato-sandbox');
  const received = page.getByTestId('gelato-sandbox-order');
  await expect(received).toHaveCount(1);
  await expect(received).toContainText(/shipped|delivered/);
  await expect(received.getByRole('link', { name: /^GT\d+/ })).toBeVisible();
});
