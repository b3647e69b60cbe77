import { expect, test } from '../support/fixtures';

const TAB_HEADINGS = [
  { label: 'Dashboard', path: '/', heading: 'Dashboard' },
  { label: 'Create Product', path: '/create-product', heading: 'Create Product' },
  { label: 'Upload Design', path: '/?tab=upload', heading: 'Upload Design Files' },
  { label: 'Product Picker', path: '/?tab=products', heading: 'Product Picker' },
  { label: 'AI Generator', path: '/?tab=ai-generator', heading: 'AI Generator' },
  { label: 'My Products', path: '/?tab=my-products', heading: 'My Products' },
  { label: 'Orders', path: '/?tab=orders', heading: 'Orders' },
  { label: 'Integrations', path: '/integrations', heading: 'Store Integrations' },
];

test('the header and sidebar show the product, plan and every tab', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Podforge logo Podforge AI Product Designer' })).toBeVisible();
  await expect(page.getByRole('banner').getByText('Pro Plan')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Settings' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { label } of TAB_HEADINGS) await expect(nav.getByRole('link', { name: label })).toBeVisible();
  await expect(page.getByText('Pro Tip')).toBeVisible();
});

test('every tab renders its heading, is highlighted and survives a reload and back/forward', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const { label, path, heading } of TAB_HEADINGS) {
    await nav.getByRole('link', { name: label }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
  }
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Store Integrations' })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1, name: 'Store Integrations' })).toBeVisible();
});

test("the 'create' alias opens Create Product and an unknown tab says so", async ({ page }) => {
  await page.goto('/?tab=create');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Product' })).toBeVisible();
  await page.goto('/?tab=nope');
  await expect(page.getByText('Tab not found')).toBeVisible();
});

test('the wizard routes keep the step in the path and the create-product query', async ({ page }) => {
  // A new workspace has chosen nothing yet: every later step's address opens the first step that is not complete.
  for (const path of ['/create', '/create/design', '/create/mockups', '/create/details', '/create/pricing']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Create Product' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Product' })).toBeVisible();
    await expect(page).toHaveURL(/\/create$/);
  }
  await page.goto('/create-product?step=details&focus=tags');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Product' })).toBeVisible();
  // A new workspace has no design yet: the listing step waits for one and says so.
  await expect(page.locator('[aria-current="step"]')).toContainText('Upload Design');
  await expect(page.getByRole('button', { name: /Generate Content/ })).toBeDisabled();
  await expect(page.getByText(/^Upload a design first: the listing is written for it\./)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Write a listing from keywords' })).toBeVisible();
});

test('an unknown path shows the 404 page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
});

test('a new workspace sees the empty dashboard with real zeros', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText('No recent uploads found.')).toBeVisible();
  await expect(page.getByText('Start by uploading your first design!')).toBeVisible();
  const cards = page.getByTestId('stat-card');
  await expect(cards).toHaveCount(4);
  await expect(cards.nth(0)).toContainText('Total Products0');
  await expect(cards.nth(3)).toContainText('AI Credits200of 200');
  await expect(page.getByTestId('no-store-data')).toContainText('No store data yet');
  await page.getByRole('button', { name: /View Products/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'My Products' })).toBeVisible();
  await page.goto('/');
  await page.getByRole('link', { name: /Suggest tags/ }).click();
  await expect(page).toHaveURL(/\/create-product\?step=details&focus=tags$/);
});

test('F8 moves focus to the notifications region', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  // The notifications region loads on demand: F8 is heard once it is there.
  const region = page.getByRole('region', { name: /Notifications/ });
  await expect(region).toBeAttached();
  await page.keyboard.press('F8');
  await expect(region.locator('ol')).toBeFocused();
});

test('the settings button opens the workspace settings with the real credit figures', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Workspace settings' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('settings-credits')).toContainText('0 of 200 used · 200 left');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Account' }).click();
  await dialog.getByRole('link', { name: 'Manage integrations' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Store Integrations' })).toBeVisible();
  await expect(dialog).toBeHidden();
});
