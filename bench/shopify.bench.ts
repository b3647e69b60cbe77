// Shopify pushes against the cost bucket: 50 products of 12 variants (3 colours x 4 sizes, a picture per colour)
// pushed through the real API and push jobs to the local fake Shopify with a Standard plan's bucket (2000 points,
// 100 points/s restored). Prints the share of the bucket's points the run used: what it spent over what the bucket
// could give in that time (its fill at the start plus the restore rate times the run's length). The goal is 90% or
// more with no THROTTLED error reaching the seller. Not a test.
import type { TIntegration } from '@podforge/contract';
import { startFakeShopify } from '../apps/server/src/integrations/shopify/fake-server';
import { insertDesign, solidPng } from '../apps/server/test/fixtures/designs';
import { createTestApp } from '../apps/server/test/helpers';

const PRODUCTS = 50;
const BUCKET = { maximum: 2000, restoreRate: 100 };

const fake = await startFakeShopify({ apiKey: 'bench-key', apiSecret: 'bench-secret', bucket: BUCKET });
const t = await createTestApp({
  env: {
    SHOPIFY_API_KEY: 'bench-key',
    SHOPIFY_API_SECRET: 'bench-secret',
    SHOPIFY_SHOP_BASE_URL: `${fake.url}/{shop}`,
    APP_URL: 'http://podforge.bench',
    STORE_PUSH_WAIT_SECONDS: '0',
  },
});
const client = t.client();
try {
  const shop = 'bench-shop.myshopify.com';
  const start = await client.get(`/auth/shopify/start?shop=${shop}`);
  const approved = await fetch(start.headers.location as string, { redirect: 'manual' });
  const callback = new URL(approved.headers.get('location') as string);
  await client.get(callback.pathname + callback.search);
  const store = (await client.get('/api/integrations')).json<TIntegration[]>().find((i) => i.isConnected);
  if (!store) throw new Error('the store did not connect');

  const ws = await client.workspaceId(t.deps.db);
  const { id: designId } = await insertDesign(t.deps, ws, await solidPng(400, 400, { r: 250, g: 190, b: 40 }));
  const colours = ['Black', 'Red', 'Navy'];
  const mockups: string[] = [];
  for (const colour of colours) {
    const res = await client.post('/api/mockups', {
      designId,
      productType: 'tshirt',
      templateId: 'tshirt-front',
      color: colour.toLowerCase(),
      adjustments: { scale: 100, rotation: 0, x: 0, y: 0, opacity: 100 },
    });
    mockups.push(res.json<{ id: string }>().id);
  }
  const detail = (await client.get('/api/printful/products/71')).json<{
    variants: { id: number; color: string; size: string }[];
  }>();
  const variants = detail.variants
    .filter((v) => colours.includes(v.color) && ['S', 'M', 'L', 'XL'].includes(v.size))
    .map((v) => ({ catalogVariantId: v.id, price: 24.99 }));
  if (variants.length !== 12) throw new Error(`expected 12 variants, found ${variants.length}`);
  const ids: string[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const res = await client.post('/api/products', {
      title: `Bench Tee ${i + 1}`,
      description: 'A tee for the benchmark.',
      price: 24.99,
      productType: 'tshirt',
      catalogProductId: 71,
      variants,
      designId,
      mockupIds: mockups,
      mockupId: mockups[0],
      status: 'ready',
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    ids.push(res.json<{ id: string }>().id);
  }

  const callsBefore = fake.calls.length;
  const t0 = Date.now();
  await Promise.all(ids.map((id) => client.post(`/api/products/${id}/publish`, { integrationIds: [store.id] })));
  const states = new Map<string, string>();
  const errors: string[] = [];
  while (states.size < ids.length) {
    for (const id of ids) {
      if (states.has(id)) continue;
      const [push] = (await client.get(`/api/products/${id}/pushes`)).json<{
        pushes: { state: string; error: string | null }[];
      }>().pushes;
      if (push && push.state !== 'running') {
        states.set(id, push.state);
        if (push.error) errors.push(push.error);
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const seconds = (Date.now() - t0) / 1000;
  const calls = fake.calls.slice(callsBefore);
  const spent = calls.filter((c) => !c.throttled).reduce((sum, c) => sum + c.cost, 0);
  const throttled = calls.filter((c) => c.throttled).length;
  const available = BUCKET.maximum + BUCKET.restoreRate * seconds;
  const published = [...states.values()].filter((s) => s === 'published').length;
  console.log(`pushed ${published}/${PRODUCTS} products of 12 variants in ${seconds.toFixed(1)} s`);
  console.log(`GraphQL calls ${calls.length} (${throttled} answered THROTTLED and retried), ${spent} points spent`);
  console.log(
    `bucket share used: ${((spent / available) * 100).toFixed(1)}% of ${available.toFixed(0)} points ` +
      `(${BUCKET.maximum} at the start + ${BUCKET.restoreRate}/s x ${seconds.toFixed(1)} s); goal >= 90%`,
  );
  console.log(`errors shown to the seller: ${errors.length}${errors.length ? ` (${errors[0]})` : ''}`);
  const windows: number[] = [];
  for (const c of calls) {
    const w = Math.floor((c.at - t0) / 5000);
    windows[w] = (windows[w] ?? 0) + (c.throttled ? 0 : c.cost);
  }
  console.log(`points per 5 s: ${windows.map((w) => w ?? 0).join(', ')} (the bucket restores 500 in 5 s)`);
} finally {
  await t.close();
  await fake.close();
}
