import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

/**
 * Issue 28: every screen fits a 390 px phone with nothing cut off. Each route of apps/web's router (src/app/routes.tsx)
 * and each sidebar tab (src/app/tabs.ts) is visited at 390x844: the page never scrolls sideways, and the figures a
 * seller looks for there lie wholly inside the viewport.
 */
test.use({ viewport: { width: 390, height: 844 } });

const SCREENS: { path: string; heading: string | RegExp; figures?: string[] }[] = [
  { path: '/', heading: 'Dashboard', figures: ['Sales', 'Profit', 'Avg Order Value', 'Total Products'] },
  { path: '/?tab=dashboard', heading: 'Dashboard' },
  { path: '/create-product', heading: /Create/ },
  { path: '/?tab=upload', heading: /Upload/ },
  { path: '/?tab=products', heading: /Product/ },
  { path: '/?tab=ai-generator', heading: /AI/ },
  { path: '/?tab=bulk', heading: 'Bulk Create' },
  { path: '/?tab=my-products', heading: 'My Products' },
  { path: '/?tab=orders', heading: 'Orders' },
  { path: '/integrations', heading: /Integrations/ },
  { path: '/integrations/shopify-sandbox', heading: /Shopify/ },
  { path: '/integrations/etsy-sandbox', heading: /Etsy/ },
  { path: '/integrations/woocommerce-sandbox', heading: /WooCommerce/ },
  { path: '/integrations/amazon-sandbox', heading: /Amazon/ },
  { path: '/integrations/gelato-sandbox', heading: /Gelato/ },
  { path: '/integrations/printify-sandbox', heading: /Printify/ },
  { path: '/create', heading: /Create/ },
  { path: '/create/design', heading: /Create/ },
  { path: '/create/mockups', heading: /Create/ },
  { path: '/create/details', heading: /Create/ },
  { path: '/create/pricing', heading: /Create/ },
  { path: '/no-such-page', heading: /404/ },
];

/** The dashboard's store figures appear once a store reports orders: give this workspace some, large ones. */
async function withStoreFigures(page: Page) {
  await page.route('**/api/dashboard/stats', async (route) => {
    // The page's own request would be aborted with the page; the context's shares its cookie, so its workspace.
    const stats = await (await page.request.get('/api/dashboard/stats')).json();
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    stats.store = {
      orders: 1234,
      sales: usd('123456.78'),
      profit: usd('45678.90'),
      conversionRate: 3.4,
      aov: usd('100.05'),
    };
    await route.fulfill({ json: stats }).catch(() => {});
  });
}

/** A product whose title is one long word (as sellers' slugs are), so the lists have a row that could overflow. */
const LONG_TITLE = 'Sunset-over-the-mountains-retro-vintage-graphic-tee-for-hikers-and-campers';
async function seedProduct(page: Page) {
  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: 'sunset.png', mimeType: 'image/png', buffer: makePng(200, 200, () => [240, 120, 30, 255]) },
      title: LONG_TITLE,
      description: 'Printed when it sells.',
      price: '25.00',
      productType: 'tshirt',
      tags: JSON.stringify(['sunset']),
      variants: JSON.stringify([{ option: 'Medium', price: 25 }]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
}

const widthOf = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

// Open screens read the dashboard again when the server says the workspace changed (live updates): a read still in
// flight when the test ends must not fail it.
test.afterEach(async ({ page }) => {
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

for (const screen of SCREENS) {
  test(`${screen.path} fits 390 px`, async ({ page }) => {
    await withStoreFigures(page);
    await seedProduct(page);
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading }).first()).toBeVisible();
    await expect(page.getByText('Loading…', { exact: true })).toHaveCount(0);
    expect(await widthOf(page), `${screen.path} is wider than the phone`).toBeLessThanOrEqual(390);
    for (const label of screen.figures ?? []) {
      const term = page.locator('dt', { hasText: label }).first();
      await expect(term).toBeVisible();
      for (const el of [term, term.locator('xpath=following-sibling::dd[1]')]) {
        const box = await el.boundingBox();
        expect(box, `${label} is not laid out`).not.toBeNull();
        expect(box?.x ?? -1, `${label} starts off screen`).toBeGreaterThanOrEqual(0);
        expect((box?.x ?? 0) + (box?.width ?? 0), `${label} is cut off`).toBeLessThanOrEqual(390);
      }
    }
  });
}

// The one route outside the app's shell: an invite link opened on a phone by someone not yet in the workspace.
test('/invite/:token fits 390 px', async ({ page, browser, baseURL }) => {
  const invite = await page.request.post('/api/workspace/invites', { data: { role: 'editor' } });
  expect(invite.status(), await invite.text()).toBe(201);
  const { url } = (await invite.json()) as { url: string };
  const phone = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  try {
    const invited = await phone.newPage();
    await invited.goto(url);
    await expect(invited.getByRole('heading', { level: 1, name: 'Join a Podforge workspace' })).toBeVisible();
    await expect(invited.getByRole('button', { name: 'Join workspace' })).toBeVisible();
    expect(await widthOf(invited), 'the invite page is wider than the phone').toBeLessThanOrEqual(390);
  } finally {
    await phone.close();
  }
});
