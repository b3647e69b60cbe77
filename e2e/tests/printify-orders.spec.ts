import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// Printify beside Printful (#29): the seller chooses the built-in Printify Sandbox on the Printify card, makes a
// product on a Printify blank, sells it in the Shopify sandbox; the order goes to Printify (its sandbox) once, waits
// for approval, ships with tracking, and the Printify Sandbox page shows what it received.
test('a Printify product sold in the sandbox shop is printed by the Printify Sandbox and shipped with tracking', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const shop = `pfy-${Date.now().toString(36)}.myshopify.com`;
  const title = `Printify Tee ${Date.now().toString(36)}`;

  await page.goto('/integrations');
  const printify = page.getByTestId('fulfillment-printify');
  await printify.getByRole('button', { name: 'Use the Printify Sandbox' }).click();
  await expect(printify.getByText('Sandbox', { exact: true })).toBeVisible();
  await expect(printify.getByRole('link', { name: 'See what it received' })).toBeVisible();

  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: 'pfy.png', mimeType: 'image/png', buffer: makePng(400, 400, () => [200, 60, 30, 255]) },
      title,
      description: 'Printed by Printify.',
      price: '25.00',
      productType: 'tshirt',
      provider: 'printify',
      catalogProductId: '6',
      tags: JSON.stringify(['printify']),
      variants: JSON.stringify([{ catalogVariantId: 17391, price: 25 }]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const productId = (await created.json()).id as string;
  const manual = await page.request.patch('/api/settings', {
    data: { orderConfirmation: { mode: 'manual', delayMinutes: 60 } },
  });
  expect(manual.status()).toBe(200);

  await page.getByLabel('Store domain').fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
  const stores = await (await page.request.get('/api/integrations')).json();
  const store = stores.find((s: { kind: string }) => s.kind === 'store');
  const pushed = await page.request.post(`/api/products/${productId}/publish`, {
    data: { integrationIds: [store.id] },
  });
  expect(pushed.status(), await pushed.text()).toBe(200);

  await page.goto('/integrations/shopify-sandbox');
  const form = page.getByRole('form', { name: /Place a test order/ });
  await form.getByLabel('Quantity').fill('2');
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order #\d+ placed/)).toBeVisible();

  await form.getByRole('link', { name: 'Orders tab' }).click();
  const order = page.getByTestId('order').first();
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await expect(order).toContainText('Printed by Printify Sandbox');
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 60_000 });
  await expect(order.getByRole('link', { name: /Track parcel/ })).toHaveAttribute(
    'href',
    /^https:\/\/tools\.usps\.com\//,
  );

  await page.goto('/integrations/printify-sandbox');
  const received = page.getByTestId('printify-sandbox-order');
  await expect(received).toHaveCount(1);
  await expect(received).toContainText('fulfilled');
  await expect(received).toContainText('2 × variant 17391');
  await expect(received).toContainText('Shipped with USPS');
});
