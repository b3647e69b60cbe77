import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { makePng } from './png';

/** What the specs share to set a store up and sell through it, each through the API or the page as a seller would. */

type Rgb = [number, number, number];

/** A product made through the API with a design file (the multipart create), in this page's workspace: its id. */
export async function uploadedProduct(
  page: Page,
  file: { name: string; rgb: Rgb },
  fields: Record<string, string>,
): Promise<string> {
  const [r, g, b] = file.rgb;
  const created = await page.request.post('/api/products', {
    multipart: {
      file: { name: file.name, mimeType: 'image/png', buffer: makePng(400, 400, () => [r, g, b, 255]) },
      ...fields,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).id as string;
}

/** A solid design uploaded in this page's workspace, and its t-shirt-front mockup at `scale` in a colour (its id). */
export async function uploadedDesign(
  page: Page,
  file: { name: string; rgb: Rgb; size: number },
  scale: number,
): Promise<{ designId: string; mockup: (color: string) => Promise<string> }> {
  const [r, g, b] = file.rgb;
  const design = await page.request.post('/api/designs/upload', {
    multipart: {
      file: { name: file.name, mimeType: 'image/png', buffer: makePng(file.size, file.size, () => [r, g, b, 255]) },
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
        adjustments: { scale, rotation: 0, x: 0, y: 0, opacity: 100 },
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).id as string;
  };
  return { designId, mockup };
}

/**
 * A ready tee in Black and Navy (a rendered picture each, Navy the main one), made through the API in this workspace:
 * its id.
 */
export async function twoColourTee(
  page: Page,
  product: { title: string; description: string; tags: string[]; file: { name: string; rgb: Rgb } },
): Promise<string> {
  const { designId, mockup } = await uploadedDesign(page, { ...product.file, size: 600 }, 80);
  const black = await mockup('black');
  const navy = await mockup('navy');
  const created = await page.request.post('/api/products', {
    data: {
      title: product.title,
      description: product.description,
      productType: 'tshirt',
      price: 24,
      tags: product.tags,
      designId,
      mockupId: navy,
      mockupIds: [black, navy],
      status: 'ready',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).id as string;
}

/** The wave tee the store specs sell (Black and Navy). */
export const waveTee = (title: string) => ({
  title,
  description: 'A cool wave on soft cotton.',
  tags: ['wave', 'ocean tee'],
  file: { name: 'wave.png', rgb: [30, 120, 240] as Rgb },
});

/** Orders wait for the seller's approval (Settings: order confirmation manual). */
export async function approveOrdersByHand(page: Page): Promise<void> {
  const manual = await page.request.patch('/api/settings', {
    data: { orderConfirmation: { mode: 'manual', delayMinutes: 60 } },
  });
  expect(manual.status()).toBe(200);
}

/** On the Integrations page: connects the Shopify sandbox shop of this name. */
/**
 * The Integrations page with its store cards loaded: they replace shorter placeholders above the printer cards, so a
 * printer card clicked before they settle can move under the pointer.
 */
export async function openIntegrations(page: Page): Promise<void> {
  await page.goto('/integrations');
  await expect(page.getByTestId('store-platforms')).toBeVisible();
}

export async function connectSandboxShop(page: Page, shop: string): Promise<void> {
  await page.getByLabel('Store domain').fill(shop);
  await page.getByRole('button', { name: 'Connect', exact: true }).first().click();
  await expect(page.getByText('Shopify Connected', { exact: true })).toBeVisible();
}

/** Publishes the product to the workspace's Shopify store through the API. */
export async function publishToShopify(page: Page, productId: string): Promise<void> {
  const stores = await (await page.request.get('/api/integrations')).json();
  const store = stores.find((s: { platform: string }) => s.platform === 'shopify');
  const pushed = await page.request.post(`/api/products/${productId}/publish`, {
    data: { integrationIds: [store.id] },
  });
  expect(pushed.status(), await pushed.text()).toBe(200);
}

/** The Shopify Sandbox page: places a test order of `quantity`; answers the form (its Orders tab link). */
export async function placeShopifyTestOrder(page: Page, quantity?: number): Promise<Locator> {
  await page.goto('/integrations/shopify-sandbox');
  const form = page.getByRole('form', { name: /Place a test order/ });
  if (quantity !== undefined) await form.getByLabel('Quantity').fill(String(quantity));
  await form.getByRole('button', { name: 'Place test order' }).click();
  await expect(form.getByText(/Test order #\d+ placed/)).toBeVisible();
  return form;
}
