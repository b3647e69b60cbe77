import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

const design = makePng(600, 600, (x, y) =>
  Math.abs(x - 300) < 200 && Math.abs(y - 300) < 200 ? [30, 90, 200, 255] : [255, 255, 255, 255],
);

test.use({ viewport: { width: 390, height: 844 } });

/** What the focused element shows: an outline or a ring (box-shadow); 'none' when nothing. */
const focusMark = () =>
  document.activeElement && document.activeElement !== document.body
    ? (() => {
        const style = getComputedStyle(document.activeElement as Element);
        const outline = style.outlineStyle !== 'none' && style.outlineWidth !== '0px';
        return {
          tag: (document.activeElement as Element).tagName,
          text: (document.activeElement as HTMLElement).innerText?.slice(0, 30) ?? '',
          shown: outline || style.boxShadow !== 'none',
        };
      })()
    : null;

test('at 390 px the listing fits (variant fields included) and every control shows keyboard focus', async ({
  page,
}) => {
  await page.goto('/create-product');
  await page
    .getByTestId('simple-file-input')
    .setInputFiles({ name: 'blue-square.png', mimeType: 'image/png', buffer: design });
  await page.getByRole('button', { name: 'Generate Content', exact: true }).click();
  await expect(page.getByTestId('variant-row').first()).toBeVisible();

  const outside = await page.evaluate(
    () =>
      Array.from(document.querySelectorAll('[data-testid="variant-row"] input, [data-testid="variant-row"] button'))
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.left < 0 || r.right > window.innerWidth + 0.5).length,
  );
  expect(outside).toBe(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Tab through the page: the active sidebar tab and every control after it show where the focus is.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  const unmarked: string[] = [];
  let sawActiveTab = false;
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const mark = await page.evaluate(focusMark);
    if (!mark) continue;
    if (mark.text.includes('Create Product') && mark.tag === 'A') sawActiveTab = true;
    if (!mark.shown) unmarked.push(`${mark.tag} ${mark.text}`);
  }
  expect(sawActiveTab).toBe(true);
  expect(unmarked).toEqual([]);

  // The active tab is brand-coloured: its outline is solid, darker and set off from it (not the browser's faint auto
  // ring drawn on the same colour).
  const activeTab = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create Product' });
  await activeTab.focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  // (The tab's colour transition animates the outline colour too: poll until it settles.)
  await expect
    .poll(() =>
      activeTab.evaluate((el) => {
        const cs = getComputedStyle(el);
        return { style: cs.outlineStyle, width: cs.outlineWidth, offset: cs.outlineOffset, color: cs.outlineColor };
      }),
    )
    .toEqual({ style: 'solid', width: '2px', offset: '2px', color: 'rgb(67, 56, 202)' });
});
