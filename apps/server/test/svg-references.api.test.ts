import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCssEscapes, hostileAttribute } from '../src/modules/designs/svg-references';
import { createTestApp, type TestApp } from './helpers';
import { cssEscapedSvgs } from './hostile/corpus';
import { multipart } from './support/design-fixtures';

/**
 * Issue 25, point 6: an SVG may point at nothing but its own #fragments, however the reference is spelt (CSS
 * escapes, XML entities, comments, a style attribute or sheet, links); fragments stay. Through the upload call and
 * Analyze Image, the two routes that take an SVG from anyone.
 */
describe('SVG references: escapes, entities and comments are resolved before the check', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { AI_RATE_LIMIT_PER_MINUTE: '1000', AI_MONTHLY_CREDITS: '100' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('reads CSS as a CSS parser does', () => {
    expect(decodeCssEscapes('u\\72l(')).toBe('url(');
    expect(decodeCssEscapes('\\000075rl(')).toBe('url(');
    expect(decodeCssEscapes('\\75 rl\\28 x')).toBe('url(x');
    expect(decodeCssEscapes('\\0')).toBe('\uFFFD');
    expect(hostileAttribute('fill', 'u\\72l(data:image/svg+xml;base64,AAAA)')).toMatch(
      /url\(\) that is not a fragment/,
    );
    expect(hostileAttribute('fill', 'url(#g)')).toBeNull();
    expect(hostileAttribute('fill', "url( '#g' )")).toBeNull();
    // Strict: a reference is judged as written and as decoded, so an escaped fragment is refused too.
    expect(hostileAttribute('fill', 'url(\\23 g)')).toMatch(/url\(\) that is not a fragment/);
    expect(hostileAttribute('href', ' #a')).toBeNull();
    expect(hostileAttribute('xlink:href', 'data:image/png;base64,AAAA')).toMatch(/link that is not a fragment/);
  });

  const cases = cssEscapedSvgs();
  it.each(cases.map((f) => [f.name, f] as const))('refuses %s on upload and on Analyze Image', async (name, file) => {
    const client = t.client();
    const content = await file.make();
    for (const [url, field] of [
      ['/api/designs/upload', 'file'],
      ['/api/ai/analyze-image', 'image'],
    ] as const) {
      const { payload, headers } = multipart([{ field, filename: name, content }]);
      const res = await client.request({ method: 'POST', url, payload, headers });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(res.json().error).toContain(name);
      expect(res.json().error).toMatch(file.reason as RegExp);
    }
  });

  it('keeps fragment references: url(#id) however spelt, href="#id" and xlink:href="#id"', async () => {
    const client = t.client();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40">' +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>' +
        '<rect id="r" width="10" height="10"/></defs>' +
        '<rect width="40" height="20" fill="url(#g)"/><rect y="20" width="40" height="20" fill="url( \'#g\' )"/>' +
        '<use href="#r"/><use xlink:href="#r" x="20"/></svg>',
    );
    const { payload, headers } = multipart([{ field: 'file', filename: 'fragments.svg', content: svg }]);
    const res = await client.request({ method: 'POST', url: '/api/designs/upload', payload, headers });
    expect(res.statusCode, res.body).toBe(201);
    const original = await client.get(`/api/designs/${res.json().id}/file/original`);
    const text = original.rawPayload.toString('utf8');
    expect(text).toContain('fill="url(#g)"');
    expect(text).toContain('href="#r"');
    expect(text).not.toMatch(/data:|http:\/\/198/);
  });
});
