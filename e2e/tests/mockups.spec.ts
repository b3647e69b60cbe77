import fs from 'node:fs';
import type { TDesign } from '@podforge/contract';
import { expect, test } from '../support/fixtures';
import { makePng, pngSize } from '../support/png';

// A red design with a blue square in the middle: 300 px, so far too small for print.
const design = makePng(300, 300, (x, y) =>
  x >= 100 && x < 200 && y >= 100 && y < 200 ? [20, 60, 200, 255] : [220, 30, 40, 255],
);

test('the Mockups step edits a design on real templates and downloads the PNG', async ({ page }) => {
  // The server renders every colour of a mug view at 2000x2500 below, waited on for up to 60 s: the default 30 s
  // test limit cut such a wait short on a busy machine, so the test gets room for its own wait.
  test.setTimeout(90_000);
  // The wizard's Product and Design steps have their own test: here the design is uploaded through the API and
  // the wizard's saved state (version 2) names it with a t-shirt template.
  await page.goto('/');
  const uploaded = await page.request.post('/api/designs/upload', {
    multipart: { file: { name: 'design.png', mimeType: 'image/png', buffer: design } },
  });
  expect(uploaded.ok()).toBe(true);
  const d = (await uploaded.json()) as TDesign;
  await page.evaluate(
    (item) =>
      localStorage.setItem(
        'podforge.create-wizard',
        JSON.stringify({
          version: 2,
          state: {
            step: 'mockups',
            platform: 'shopify',
            selectedCategory: { id: 0, parentId: 0, name: 'T-Shirts', image: '' },
            selectedTemplate: { id: 71, name: 'Unisex Staple T-Shirt', description: '', price: 12, imageUrl: '' },
            designFiles: [item],
            mockups: [],
            selectedMockupId: null,
            colorMockups: {},
            createdProductId: null,
            details: { title: '', description: '', tags: [] },
            pricing: { catalogProductId: null, variants: [] },
          },
        }),
      ),
    { id: d.id, src: d.thumbnailUrl, source: d.source, name: d.name, url: d.url, width: d.width, height: d.height },
  );
  await page.goto('/create/mockups');
  await expect(page.getByRole('heading', { level: 2, name: 'Mockups' })).toBeVisible();
  await expect(page.getByTestId('print-readiness')).toHaveText(/Too low for print · \d+ DPI/);

  const canvas = page.getByLabel(/Mockup canvas/);
  const template = page.getByRole('combobox', { name: 'Template' });
  await expect(template).toHaveValue('tshirt-front');
  await template.selectOption({ label: 'T-shirt back' });
  await expect(canvas).toHaveAttribute('data-template', 'tshirt-back');

  // The template image is drawn and the design is inside the t-shirt design area (centre 200,240: the t-shirt is centred in the frame).
  const centre = async () =>
    canvas.evaluate((el: HTMLCanvasElement) =>
      Array.from(el.getContext('2d')?.getImageData(200, 240, 1, 1).data ?? []),
    );
  // The upload turns the design into a print PNG, so colours may move by a step or two.
  const centreIsNear = (expected: number[]) => async () => {
    const pixel = await centre();
    return pixel.length === 4 && pixel.every((value, i) => Math.abs(value - (expected[i] ?? 0)) <= 3);
  };
  await expect.poll(centreIsNear([20, 60, 200, 255])).toBe(true);
  // The first request renders the template on the server (about a second alone; far longer while the wizard test
  // renders mockups in the other worker); Download waits for it.
  await expect(page.getByRole('button', { name: 'Download Mockup' })).toBeEnabled({ timeout: 40_000 });
  const corner = await canvas.evaluate((el: HTMLCanvasElement) =>
    Array.from(el.getContext('2d')?.getImageData(5, 5, 1, 1).data ?? []),
  );
  // Studio backdrop from the template render: not the design and not the grey shown while loading.
  expect(corner[0]).toBeGreaterThan(150);
  expect(corner).not.toEqual([226, 232, 240, 255]);

  // Drag the design 40 right and 20 down (the canvas is shown at 400 px, one canvas unit per pixel). The colours and
  // sizes card sits above the editor, so the canvas is brought into view first.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  await page.mouse.move(box.x + 200, box.y + 240);
  await page.mouse.down();
  await page.mouse.move(box.x + 220, box.y + 250, { steps: 4 });
  await page.mouse.move(box.x + 240, box.y + 260, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId('value-x')).toHaveText('40');
  await expect(page.getByTestId('value-y')).toHaveText('20');
  await expect.poll(centreIsNear([220, 30, 40, 255])).toBe(true);
  await canvas.press('ArrowLeft');
  await expect(page.getByTestId('value-x')).toHaveText('39');

  await page.getByRole('slider', { name: 'Scale' }).fill('150');
  await expect(page.getByTestId('value-scale')).toHaveText('150%');
  await page.getByRole('slider', { name: 'Rotation' }).fill('-45');
  await expect(page.getByTestId('value-rotation')).toHaveText('-45°');
  await page.getByRole('slider', { name: 'Opacity' }).fill('50');
  await expect(page.getByTestId('value-opacity')).toHaveText('50%');

  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByTestId('value-scale')).toHaveText('100%');
  await expect(page.getByTestId('value-x')).toHaveText('0');
  await expect(page.getByTestId('value-rotation')).toHaveText('0°');
  await expect.poll(centreIsNear([20, 60, 200, 255])).toBe(true);

  // A mug template chosen in the Product step gives the mug set, starting at its first template.
  await page.getByRole('link', { name: '1. Product' }).click();
  await page.getByRole('button', { name: 'Catalog' }).click();
  await page.getByRole('button', { name: 'Home & Living' }).click();
  await page.getByRole('button', { name: 'Mugs' }).click();
  await page.getByRole('button', { name: 'White Glossy Mug' }).click();
  await page.getByRole('button', { name: 'Continue to Design' }).click();
  await page.getByRole('button', { name: 'Continue to Mockups' }).click();
  await expect(template).toHaveValue('mug-right');
  await expect(page.getByRole('button', { name: 'Download Mockup' })).toBeEnabled({ timeout: 20_000 });

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Mockup' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^mockup-mug-\d{8}-\d{6}\.png$/);
  const file = fs.readFileSync(await download.path());
  expect(file.subarray(1, 4).toString()).toBe('PNG');
  expect(pngSize(file)).toEqual({ width: 400, height: 500 });

  // The design is on the server, so it renders the chosen mug view in each colour the mug is sold in: the White
  // Glossy Mug comes in white only.
  await page.getByRole('button', { name: 'Generate Mockups' }).click();
  await expect(page.getByTestId('mockup-progress')).toHaveText('1 of 1 rendered', { timeout: 60_000 });
  // One mockup is one, and there is no other to pick from.
  await expect(page.getByText('1 mockup rendered.', { exact: true })).toBeVisible();
  const results = page.getByTestId('mockup-result');
  await expect(results).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Continue to Details' })).toBeEnabled();
  const firstImage = results.first().locator('img');
  await expect.poll(() => firstImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});
