import { expect, test } from '../support/fixtures';

test('the AI Generator writes a listing and an offline design that opens in Create Product', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/?tab=ai-generator');
  await expect(page.getByRole('heading', { name: 'AI Generator' })).toBeVisible();
  await expect(page.getByTestId('ai-credits')).toContainText('AI credits left this month');

  // Content from keywords, with the built-in offline writer.
  await page.getByLabel('Design keywords').fill('retro sunset, cat');
  await page.getByRole('button', { name: 'Generate Content', exact: true }).click();
  await expect(page.getByText('Content Generated', { exact: true })).toBeVisible();
  const content = page.getByTestId('generated-content');
  await expect(content.getByLabel('Title', { exact: true })).toHaveValue(/Retro Sunset/);
  await expect(content.getByRole('list', { name: 'Tags' })).toContainText('retro sunset');

  // One vintage crest design, rendered and saved on the server.
  await page.getByLabel('Prompt').fill('mountain adventure club');
  await page.getByLabel('Size').selectOption('512x512');
  await page.getByLabel('Design style').selectOption('vintage-crest');
  await page.getByRole('button', { name: 'Generate Designs' }).click();
  const design = page.getByTestId('ai-design');
  await expect(design).toHaveCount(1);
  const img = design.getByRole('img');
  await expect(img).toHaveJSProperty('complete', true);
  expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(512);

  // Both generations are in Recent Generations.
  await expect(page.getByTestId('recent-generation')).toHaveCount(2);
  await expect(page.getByTestId('recent-generation').first()).toContainText(
    '1 vintage-crest design: “mountain adventure club”',
  );

  // The saved design opens in the simple create flow at the listing step.
  await design.getByRole('link', { name: 'Use in Create Product' }).click();
  await expect(page).toHaveURL(/\/create-product\?step=details&designId=/);
  await expect(page.locator('[aria-current="step"]')).toContainText('Generate Content');
  await expect(page.getByLabel('File name')).toHaveValue(/^ai-mountain-adventure-club-1\.svg$/);
});
