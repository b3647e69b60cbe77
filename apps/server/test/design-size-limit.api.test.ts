import { DESIGN_MAX_BYTES, DESIGN_MAX_LABEL } from '@podforge/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';
import { multipart, type Part, type TextPart } from './support/design-fixtures';

/**
 * Issue 28: one design file limit everywhere. Every route that takes a design file lets a file under
 * DESIGN_MAX_BYTES through the size check (these bytes are no image, so the type check answers 415) and refuses
 * one byte more with 413 naming DESIGN_MAX_LABEL.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ROUTES: { url: string; field: string; extra: TextPart[] }[] = [
  { url: '/api/designs/upload', field: 'file', extra: [] },
  { url: '/api/upload/files', field: 'files', extra: [] },
  {
    url: '/api/products',
    field: 'file',
    extra: [
      { field: 'title', value: 'Big' },
      { field: 'price', value: '15' },
      { field: 'productType', value: 'poster' },
    ],
  },
  // Quick create's Generate Content sends the uploaded design itself for analysis: the same limit (#28).
  { url: '/api/ai/analyze-image', field: 'image', extra: [{ field: 'productType', value: 'tshirt' }] },
];

async function send(route: (typeof ROUTES)[number], bytes: number) {
  const file: Part = { field: route.field, filename: 'big.png', content: Buffer.alloc(bytes, 0x41) };
  const { payload, headers } = multipart([...route.extra, file]);
  const res = await t.client().request({ method: 'POST', url: route.url, payload, headers });
  // /api/upload/files answers each file in its list.
  const body = res.json();
  const item = Array.isArray(body?.files) ? body.files[0] : Array.isArray(body) ? body[0] : body;
  return { status: (item?.status as number | undefined) ?? res.statusCode, error: String(item?.error ?? '') };
}

describe.each(ROUTES)('$url', (route) => {
  it(`takes a file of 11 MB past the size check and refuses ${DESIGN_MAX_LABEL} + 1 byte naming the limit`, async () => {
    const under = await send(route, 11 * 1024 * 1024);
    expect(under.status, under.error).not.toBe(413);
    const over = await send(route, DESIGN_MAX_BYTES + 1);
    expect(over.status, over.error).toBe(413);
    expect(over.error).toContain(`big.png is larger than ${DESIGN_MAX_LABEL}`);
  });
});
