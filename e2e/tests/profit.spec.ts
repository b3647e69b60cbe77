import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { connectSandboxShop, twoColourTee, waveTee } from '../support/store-flows';

/**
 * Issue 28, point 2: one profit formula. A tee live in two sandbox stores (Shopify and Etsy) sells one Navy / M in
 * each; the price editor's promise for that sale (price - base cost - the printer's quoted shipping - the store's
 * fee), each order's profit (revenue - the printer's bill - the store's fee) and the dashboard's Profit agree.
 */

const dollars = async (cell: Locator) => {
  const text = (await cell.textContent()) ?? '';
  const match = /(-?)\$(\d+\.\d{2})/.exec(text);
  expect(match, `no amount in '${text}'`).not.toBeNull();
  return Math.round(Number(`${match?.[1]}${match?.[2]}`) * 100);
};

const figure = (scope: Locator | Page, label: string) =>
  scope.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

/** The editor's promised profit for Navy / M sold on `platform` (Edit Product of My Products). */
async function promised(page: Page, platform: 'shopify' | 'etsy') {
  const dialog = page.getByRole('dialog', { name: 'Edit Product' });
  await dialog.getByRole('combobox', { name: 'Sold on' }).selectOption(platform);
  const row = dialog.getByTestId('pricing-row').filter({ hasText: 'Navy / M' });
  // The printer's shipping quote arrives: profit is promised only with it.
  await expect(row.getByTestId('shipping')).toHaveText(/\$\d+\.\d{2}/, { timeout: 20_000 });
  expect(await dollars(row.getByTestId('shipping'))).toBeGreaterThan(0);
  await expect(row.getByTestId('profit')).toHaveText(/\$\d+\.\d{2}/);
  return dollars(row.getByTestId('profit'));
}

/** One Navy / M bought in a sandbox store's Place a test order form; the order approved and its profit read. */
async function sell(page: Page, sandbox: string, title: string) {
  await page.goto(sandbox);
  const form = page.getByRole('form', { name: /Place a test order/ });
  const variant = form.getByLabel('Variant');
  const navyM = await variant.locator('option', { hasText: `${title} - Navy / M` }).getAttribute('value');
  await variant.selectOption(navyM ?? '');
  await form.getByLabel('Quantity').fill('1');
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order #\d+ placed/)).toBeVisible();
}

test('the price editor’s promise, each store’s order and the dashboard show the same profit for the same sale', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const title = `Profit Tee ${Date.now().toString(36)}`;
  await page.goto('/integrations');
  const productId = await twoColourTee(page, waveTee(title));

  // Two stores: the Shopify and the Etsy sandboxes.
  await connectSandboxShop(page, `profit-${Date.now().toString(36)}.myshopify.com`);
  await page.getByTestId('store-etsy').getByRole('button', { name: 'Connect Etsy' }).click();
  await expect(page.getByText('Etsy Connected', { exact: true })).toBeVisible();
  const stores = (await (await page.request.get('/api/integrations')).json()) as { id: string }[];
  expect(stores).toHaveLength(2);
  const pushed = await page.request.post(`/api/products/${productId}/publish`, {
    data: { integrationIds: stores.map((s) => s.id) },
  });
  expect(pushed.status(), await pushed.text()).toBe(200);
  const manual = await page.request.patch('/api/settings', {
    data: { orderConfirmation: { mode: 'manual', delayMinutes: 60 } },
  });
  expect(manual.status()).toBe(200);

  // The promise, per store.
  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await expect(row.getByText(/Live on Etsy/)).toBeVisible({ timeout: 60_000 });
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const onShopify = await promised(page, 'shopify');
  const onEtsy = await promised(page, 'etsy');
  expect(onEtsy).toBeLessThan(onShopify);
  await page.keyboard.press('Escape');

  // One sale in each store.
  await sell(page, '/integrations/shopify-sandbox', title);
  await sell(page, '/integrations/etsy-sandbox', title);

  // Each order, approved and billed by the printer, shows the editor's figure.
  await page.goto('/?tab=orders');
  const orders = page.getByTestId('order').filter({ hasText: title });
  await expect(orders).toHaveCount(2, { timeout: 30_000 });
  const profits: number[] = [];
  for (const order of await orders.all()) {
    await expect(order.getByTestId('order-status')).toHaveText('Waiting for approval', { timeout: 30_000 });
    await order.getByRole('button', { name: 'Approve' }).click();
    await expect(figure(order, 'Profit')).toHaveText(/\$\d+\.\d{2}/, { timeout: 40_000 });
    profits.push(await dollars(figure(order, 'Profit')));
  }
  // The Shopify sale keeps more (its fee is lower): each order's profit is its store's promise.
  expect(profits.sort((a, b) => a - b)).toEqual([onEtsy, onShopify]);

  // The dashboard's Profit is the two sales'.
  await page.goto('/');
  await expect(figure(page, 'Profit')).toHaveText(/\$\d/);
  await expect(async () => expect(await dollars(figure(page, 'Profit'))).toBe(onShopify + onEtsy)).toPass({
    timeout: 20_000,
  });
});
