import { expect, test } from '../support/fixtures';

test("Create Product's 'Guided wizard' opens the wizard, and a typed later step opens the first open one", async ({
  page,
}) => {
  await page.goto('/create-product');
  const ways = page.getByRole('navigation', { name: 'Ways to create a product' });
  await expect(ways.getByRole('link', { name: 'Quick create' })).toHaveAttribute('aria-current', 'page');
  await ways.getByRole('link', { name: 'Guided wizard' }).click();
  await expect(page).toHaveURL(/\/create$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Product' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Ways to create a product' })
    .getByRole('link', { name: 'Quick create' })
    .click();
  await expect(page).toHaveURL(/\/create-product$/);

  // Nothing chosen yet: the address of the Pricing step opens the Product step, with no error anywhere.
  const failures: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() >= 400) failures.push(`${r.status()} ${r.url()}`);
  });
  await page.goto('/create/pricing');
  await expect(page).toHaveURL(/\/create$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Product' })).toBeVisible();
  expect(failures).toEqual([]);
});
