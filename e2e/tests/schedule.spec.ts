import { expect, test } from '../support/fixtures';
import { connectSandboxShop, uploadedProduct } from '../support/store-flows';

// The server runs without SHOPIFY_API_KEY (see global-setup): stores connect to the built-in sandbox.
test('schedules a product from My Products and follows it until it shows completed', async ({ page }) => {
  // The earliest schedulable time is the next minute; the worker then picks the job up within seconds.
  test.setTimeout(180_000);
  const shop = `sched-${Date.now().toString(36)}.myshopify.com`;
  const title = `Scheduled Sunset Tee ${Date.now().toString(36)}`;

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
      variants: JSON.stringify([{ option: 'Small', price: 24.99, sku: 'SUN-S' }]),
    },
  );
  await connectSandboxShop(page, shop);

  await page.goto('/?tab=my-products');
  const row = page.getByTestId('product-row').filter({ hasText: title });
  await row.getByRole('button', { name: /^Schedule / }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Upload' });
  // The browser's own clock: the next whole minute that is at least 20 s away.
  const { date, time, today } = await page.evaluate(() => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const at = new Date(Date.now() + 80_000);
    const local = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
    return { date: local(at), time: `${pad(at.getHours())}:${pad(at.getMinutes())}`, today: local(new Date()) };
  });
  const dateInput = dialog.getByLabel('Date');
  await expect(dateInput).toHaveAttribute('min', today);
  await dateInput.fill(date);
  await dialog.getByLabel('Time').fill(time);
  await dialog.getByRole('button', { name: 'Schedule Upload' }).click();
  await expect(page.getByText('Upload Scheduled', { exact: true })).toBeVisible();
  const schedule = dialog.getByTestId('schedule');
  await expect(schedule).toContainText('Pending');
  await expect(row.getByTestId('next-schedule')).toContainText('to Shopify');

  // The list reads itself again while the upload is pending or running, until the worker has pushed it.
  await expect(schedule).toContainText('Completed', { timeout: 150_000 });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(row.getByText('Live on Shopify')).toBeVisible();
  await expect(row.getByTestId('next-schedule')).toHaveCount(0);
});
