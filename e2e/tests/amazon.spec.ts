import { expect, test } from '../support/fixtures';
import { approveOrdersByHand, twoColourTee } from '../support/store-flows';

// The server runs without an SP-API application (see global-setup): Amazon connects to the built-in sandbox seller.

test('connects the Amazon sandbox seller, lists a tee as a variation family, and a sale there is printed and its shipment confirmed', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const title = `Sun Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');
  await twoColourTee(page, {
    title,
    description: 'A warm sun on soft cotton. Printed to order.',
    tags: ['sun', 'summer tee'],
    file: { name: 'sun.png', rgb: [240, 160, 30] },
  });

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

  await approveOrdersByHand(page);
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
