import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

// A red disc on a transparent canvas, 800 x 1000 (portrait 4:5).
const design = makePng(800, 1000, (x, y) =>
  (x - 400) ** 2 + (y - 500) ** 2 < 300 ** 2 ? [220, 30, 30, 255] : [0, 0, 0, 0],
);

test('Analyze Image in the simple flow reads the uploaded picture and writes the listing from it', async ({ page }) => {
  await page.goto('/create-product');
  await page.getByTestId('simple-file-input').setInputFiles({
    name: 'midnight-fox_final.png',
    mimeType: 'image/png',
    buffer: design,
  });
  await expect(page.getByText('Upload Complete', { exact: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Target audience' }).selectOption('women');

  await page.getByRole('button', { name: 'Analyze Image' }).click();
  await expect(page.getByText('Image Analyzed', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Listing written from the picture (red). Review it, then use it.', { exact: true }),
  ).toBeVisible();
  await expect(page.getByLabel('Title', { exact: true })).toHaveValue(/Midnight Fox .*Women/);
  await expect(page.getByRole('textbox', { name: 'Description', exact: true })).toHaveValue(
    /portrait \(4:5\) design in red on a transparent background/,
  );
  await expect(page.getByLabel('Tags (comma separated)')).toHaveValue(/red t-shirt/);

  // Copy puts the title on the clipboard and shows the tick.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy title' }).click();
  await expect(page.getByRole('button', { name: 'Title copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^Midnight Fox/);
});
