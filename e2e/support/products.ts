import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { makePng } from './png';

/** A ready tee in Black and Navy (a rendered picture each, Navy the main one), made through the API in this workspace. */
export async function twoColourTee(page: Page, title: string): Promise<string> {
  const design = await page.request.post('/api/designs/upload', {
    multipart: {
      file: { name: 'wave.png', mimeType: 'image/png', buffer: makePng(600, 600, () => [30, 120, 240, 255]) },
    },
  });
  expect(design.status(), await design.text()).toBe(201);
  const designId = (await design.json()).id as string;
  const mockup = async (color: string) => {
    const res = await page.request.post('/api/mockups', {
      data: {
        designId,
        productType: 'tshirt',
        templateId: 'tshirt-front',
        color,
        adjustments: { scale: 80, rotation: 0, x: 0, y: 0, opacity: 100 },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).id as string;
  };
  const black = await mockup('black');
  const navy = await mockup('navy');
  const product = await page.request.post('/api/products', {
    data: {
      title,
      description: 'A cool wave on soft cotton.',
      productType: 'tshirt',
      price: 24,
      tags: ['wave', 'ocean tee'],
      designId,
      mockupId: navy,
      mockupIds: [black, navy],
      status: 'ready',
    },
  });
  expect(product.status(), await product.text()).toBe(201);
  return (await product.json()).id as string;
}
