import { expect, test } from '../support/fixtures';

// A real 1x1 PNG, a small SVG, and an HTML page renamed .png, which the browser accepts by name and the server refuses.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="#f60"/></svg>';
const HTML = '<!doctype html><html><body>not an image</body></html>';

test('drop two good files and one bad one: two complete, one error, with the notices; remove one', async ({ page }) => {
  // Answers are held back so the three notices come one after the other (only one toast shows at a time).
  const delays: Record<string, number> = { 'dot.png': 0, 'logo.svg': 1500, 'fake.png': 3000 };
  await page.route('**/api/designs/upload', async (route) => {
    const body = route.request().postDataBuffer()?.toString('latin1') ?? '';
    const name = Object.keys(delays).find((n) => body.includes(`filename="${n}"`)) ?? '';
    await new Promise((resolve) => setTimeout(resolve, delays[name] ?? 0));
    await route.continue();
  });
  await page.goto('/?tab=upload');
  await expect(page.getByRole('heading', { level: 1, name: 'Upload Design Files' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Choose Files' })).toBeVisible();

  const dataTransfer = await page.evaluateHandle(
    ({ png, svg, html }) => {
      const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      dt.items.add(new File([svg], 'logo.svg', { type: 'image/svg+xml' }));
      dt.items.add(new File([html], 'fake.png', { type: 'image/png' }));
      return dt;
    },
    { png: PNG_1X1, svg: SVG, html: HTML },
  );
  await page.getByTestId('dropzone').dispatchEvent('drop', { dataTransfer });

  const items = page.getByTestId('upload-item');
  await expect(items).toHaveCount(3);
  await expect(page.getByText('dot.png has been uploaded successfully.').first()).toBeVisible();
  await expect(page.getByText('logo.svg has been uploaded successfully.').first()).toBeVisible();
  await expect(page.getByText('Failed to upload fake.png . Please try again.').first()).toBeVisible();
  await expect(page.getByText('Upload Failed', { exact: true }).first()).toBeVisible();

  await expect(page.locator('[data-testid="upload-item"][data-status="complete"]')).toHaveCount(2);
  const failed = page.locator('[data-testid="upload-item"][data-status="error"]');
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('fake.png');
  await expect(failed).toContainText('Upload failed • Please try again');
  await expect(page.getByRole('button', { name: 'Process Design' })).toHaveCount(2);
  await page.screenshot({ path: '/tmp/designs-upload.png', fullPage: true });

  await page.getByRole('button', { name: 'Remove fake.png' }).click();
  await expect(items).toHaveCount(2);
  await expect(page.getByText('Upload failed • Please try again')).toHaveCount(0);

  // The thumbnail the server made is served to this workspace.
  const thumb = items.first().locator('img');
  await expect(thumb).toHaveJSProperty('complete', true);
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  await items.first().getByRole('button', { name: 'Process Design' }).click();
  await expect(page).toHaveURL(/\/create-product\?step=details&designId=[0-9a-f-]{36}$/);
  // The create flow opens on the listing step with the handed-over design.
  await expect(page.locator('[aria-current="step"]')).toContainText('Generate Content');
  await expect(page.getByLabel('File name')).not.toHaveValue('');
});

test('the drop zone refuses other types with the dropzone text', async ({ page }) => {
  await page.goto('/?tab=upload');
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
  await expect(page.getByTestId('rejections')).toContainText('notes.txt: File type must be');
  await expect(page.getByTestId('upload-item')).toHaveCount(0);
});
