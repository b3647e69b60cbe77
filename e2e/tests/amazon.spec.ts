import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// The server runs without an SP-API application (see global-setup): Amazon connects to the built-in sandbox seller.

/** A ready tee in Black and Navy (a rendered picture each), made through the API in this workspace. */
async function twoColourTee(page: Page, title: string): Promise<void> {
  const design = await page.request.post('/api/designs/upload', {
    multipart: {
      file: { name: 'sun.png', mimeType: 'image/png', buffer: makePng(600, 600, () => [240, 160, 30, 255]) },
    },
  });
  expect(design.status(), await design.text()).toBe(201);
  const designId = (await design.json()).id as string;
  const mockup = async (color: string) => {
    const res = await page.request.post('/api/mockups', {
      data: {
        designId,
        productType: 'tshirt',
        templateId: 'tshirt-front',
        color,
        adjustments: { scale: 80, rotation: 0, x: 0, y: 0, opacity: 100 },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).id as string;
  };
  const black = await mockup('black');
  const navy = await mockup('navy');
  const product = await page.request.post('/api/products', {
    data: {
      title,
      description: 'A warm sun on soft cotton. Printed to order.',
      productType: 'tshirt',
      price: 24,
      tags: ['sun', 'summer tee'],
      designId,
      mockupId: navy,
      mockupIds: [black, navy],
      status: 'ready',
    },
  });
  expect(product.status(), await product.text()).toBe(201);
}

test('connects the Amazon sandbox seller, lists a tee as a variation family, and a sale there is printed and its shipment confirmed', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const title = `Sun Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');
  await twoColourTee(page, title);

  const amazon = page.getByTestId('store-amazon');
  await amazon.getByRole('combobox', { name: 'Sell on' }).selectOption({ label: 'Amazon.com' });
  await amazon.getByRole('button', { name: 'Connect Amazon' }).click();
  await expect(page.getByText('Amazon Connected', { exact: true })).toBeVisible();
  const settings = amazon.getByRole('form', { name: 'Amazon listing settings' });
  await expect(settings.getByText(/Amazon needs the brand printed on your products/)).toBeVisible();
  await settings.getByRole('textbox', { name: 'Brand' }).fill('Generic');
  await settings.getByRole('checkbox', { name: /My brand has a GTIN exemption/ }).check();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Amazon Settings Saved', { exact: true })).toBeVisible();
  await expect(settings.getByText(/Amazon needs the brand/)).toHaveCount(0);

  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: 'Upload to Amazon' }).click();
  await expect(page.getByText('Upload Successful', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expect(row.getByText('Live on Amazon')).toBeVisible();
  await expect(row.getByTestId('amazon-listing-state')).toContainText(/still processing|Buyable on Amazon/);

  // The sandbox seller: one parent, a child per variant; Amazon processes them a few seconds after ACCEPTED.
  await page.goto('/integrations/amazon-sandbox');
  const listing = page.getByTestId('amazon-sandbox-listing').filter({ hasText: title });
  await expect(listing).toContainText('Variation theme SIZE/COLOR');
  const navyM = listing.getByTestId('amazon-sandbox-sku').filter({ hasText: /Navy\s*m/ });
  await expect(navyM).toContainText('24.00 USD');
  await expect(navyM).toContainText('999 / 5 days');
  await expect(navyM).toContainText('Buyable', { timeout: 20_000 });

  const manual = await page.request.patch('/api/settings', {
    data: { orderConfirmation: { mode: 'manual', delayMinutes: 60 } },
  });
  expect(manual.status()).toBe(200);
  const form = page.getByRole('form', { name: /Place a test order/ });
  const variant = form.getByLabel('Variant');
  const option = await variant.locator('option', { hasText: `${title} - Navy / m` }).getAttribute('value');
  await variant.selectOption(option ?? '');
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order .* placed/)).toBeVisible();
  await form.getByRole('link', { name: 'Orders tab' }).click();
  const order = page.getByTestId('order').filter({ hasText: title });
  await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 30_000 });
  await order.getByRole('button', { name: 'Approve' }).click();
  await expect(order.getByTestId('order-status')).toHaveText(/Shipped|Delivered/, { timeout: 40_000 });

  // The shipment confirmed on Amazon with the printer's carrier and tracking number.
  await page.goto('/integrations/amazon-sandbox');
  const sold = page.getByTestId('amazon-sandbox-order').first();
  await expect(sold).toContainText('SHIPPED', { timeout: 30_000 });
  await expect(sold).toContainText(/USPS \S+/);
});
