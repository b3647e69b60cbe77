import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

/** A built app shell like apps/web's: one inline script (the screen preloader) and one module script. */
const INLINE = "(function(){var l=document.createElement('link');l.rel='modulepreload';})()";
const INDEX = `<!doctype html><html><head><script>${INLINE}</script><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>`;

function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'podforge-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
  return dir;
}

const expectedHash = `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`;

describe('security headers on every HTML answer', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = webDist();
    t = await createTestApp({ env: { WEB_DIST_DIR: dist } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  for (const url of ['/', '/integrations', '/index.html', '/no-such-page']) {
    it(`GET ${url} answers the app shell with CSP, nosniff, Referrer-Policy and Permissions-Policy`, async () => {
      const res = await t.client().get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      const csp = String(res.headers['content-security-policy']);
      const directives = Object.fromEntries(
        csp.split(';').map((d) => {
          const [name = '', ...values] = d.trim().split(/\s+/);
          return [name, values];
        }),
      );
      // Scripts from this origin only, plus the shell's inline script by the hash of the file actually served.
      expect(directives['script-src']).toEqual(["'self'", expectedHash]);
      expect(directives['frame-ancestors']).toEqual(["'none'"]);
      expect(directives['object-src']).toEqual(["'none'"]);
      expect(directives['default-src']).toEqual(["'self'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['permissions-policy']).toContain('camera=()');
    });
  }

  it('API answers, errors and assets carry them too', async () => {
    for (const url of ['/api/dashboard/stats', '/api/nothing-here', '/assets/index-abc.js']) {
      const res = await t.client().get(url);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});

describe('FRAME_ANCESTORS', () => {
  it('names the hosts that may embed the app instead of none', async () => {
    const dist = webDist();
    const t = await createTestApp({
      env: { WEB_DIST_DIR: dist, FRAME_ANCESTORS: 'https://admin.shopify.com https://*.example.com' },
    });
    try {
      const res = await t.client().get('/');
      expect(res.headers['content-security-policy']).toContain(
        'frame-ancestors https://admin.shopify.com https://*.example.com',
      );
      expect(res.headers['x-frame-options']).toBeUndefined();
    } finally {
      await t.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('refuses a value that is not a list of origins', async () => {
    await expect(
      createTestApp({ env: { FRAME_ANCESTORS: "https://a.example.com; script-src 'unsafe-inline'" } }),
    ).rejects.toThrow(/FRAME_ANCESTORS/);
  });
});

describe('catalogue pictures', () => {
  it('allows a printer configured on plain http (a local fake) as a picture source, and only then', async () => {
    const local = await createTestApp({ env: { PRINTFUL_API_BASE: 'http://127.0.0.1:9/v2' } });
    const real = await createTestApp({ env: { PRINTFUL_API_BASE: 'https://api.printful.com' } });
    try {
      const imgSrc = async (app: TestApp) =>
        String((await app.client().get('/api/health')).headers['content-security-policy'])
          .split(';')
          .find((d) => d.trim().startsWith('img-src'))
          ?.trim();
      expect(await imgSrc(local)).toBe("img-src 'self' data: blob: https: http://127.0.0.1:9");
      expect(await imgSrc(real)).toBe("img-src 'self' data: blob: https:");
    } finally {
      await local.close();
      await real.close();
    }
  });
});
