import { test as base, expect } from '@playwright/test';
import { test } from '../support/fixtures';

// Issue 25: the app shell runs under its Content-Security-Policy in a real browser. The shell's own inline script
// (the screen preloader) runs by its hash; a script injected inline does not, and nobody may frame the app.

test('the shell runs under the CSP: its inline preloader runs, headers are sent', async ({ page }) => {
  const response = await page.goto('/?tab=upload');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
  expect(headers['permissions-policy']).toBeTruthy();
  await expect(page.getByRole('heading', { level: 1, name: 'Upload Design Files' })).toBeVisible();
  // The preloader (allowed by its hash) added the upload screen's chunks.
  expect(await page.locator('link[rel="modulepreload"]').count()).toBeGreaterThan(0);
});

// Plain Playwright test: these two provoke violations on purpose, which the shared fixture would count as failures.
base('an injected inline script is refused and reported', async ({ page }) => {
  const url = process.env.E2E_BASE_URL as string;
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${url}/`);
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.head.appendChild(script);
    return (window as unknown as { __injected?: boolean }).__injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

base('the app refuses to be framed', async ({ page }) => {
  const url = process.env.E2E_BASE_URL as string;
  // Any page that frames it (here about:blank, another origin): the browser shows its error page in the frame.
  await page.setContent(`<iframe src="${url}/"></iframe>`);
  await expect
    .poll(
      () =>
        page
          .frames()
          .find((f) => f !== page.mainFrame())
          ?.url(),
      { timeout: 15_000 },
    )
    .toMatch(/^chrome-error:/);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(await frame?.locator('#root').count()).toBe(0);
});
