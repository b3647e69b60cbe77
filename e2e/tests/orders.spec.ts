import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// The whole loop on one machine: the built-in Shopify sandbox takes a test order, the built-in Printful Sandbox
// prints and ships it, and the Orders tab and the dashboard show it.
test('a test order in the sandbox shop is approved, printed and shipped with tracking; the dashboard shows the sale', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const shop = `orders-${Date.now().toString(36)}.myshopify.com`;
  const title = `Parcel Tee ${Date.now().toString(36)}`;

  await page.goto('/integrations');
  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: 'parcel.png', mimeType: 'image/png', buffer: makePng(400, 400, () => [30, 120, 240, 255]) },
      title,
      description: 'Printed when it sells.',
      price: '25.00',
      productType: 'tshirt',
      tags: JSON.stringify(['parcel']),
      variants: JSON.stringify([{ option: 'Medium', price: 25 }]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const productId = (await created.json()).id as string;
  const manual = await page.request.patch('/api/settings', {
    data: { orderConfirmation: { mode: 'manual', delayMinutes: 60 } },
  });
  expect(manual.status()).toBe(200);

  // Connect the sandbox store and push the product to it.
  await page.getByLabel('Store domain').fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
  await expect(page.getByTestId('printful-sandbox-note')).toBeVisible();
  const stores = await (await page.request.get('/api/integrations')).json();
  const pushed = await page.request.post(`/api/products/${productId}/publish`, {
    data: { integrationIds: [stores[0].id] },
  });
  expect(pushed.status(), await pushed.text()).toBe(200);

  // The Shopify Sandbox page: Place a test order.
  await page.goto('/integrations/shopify-sandbox');
  const form = page.getByRole('form', { name: /Place a test order/ });
  await form.getByLabel('Quantity').fill('2');
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order #\d+ placed/)).toBeVisible();

  // The Orders tab: the order waits for approval; approving sends it to the printer, which ships it.
  await form.getByRole('link', { name: 'Orders tab' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  const order = page.getByTestId('order').first();
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 20_000 });
  await expect(order).toContainText(title);
  await expect(order.getByRole('img', { name: new RegExp(title) })).toBeVisible();
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 40_000 });
  const tracking = order.getByRole('link', { name: /Track parcel/ });
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
