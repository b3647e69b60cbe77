import type { TIntegration } from '@podforge/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json } from '@/test/render';
import { uploadToStores } from './upload-to-stores';

afterEach(() => vi.unstubAllGlobals());

const store = (id: string) => ({ id, platform: 'shopify' }) as TIntegration;
const result = (integrationId: string, over: object) => ({
  integrationId,
  platform: 'shopify',
  ok: false,
  remoteProductId: null,
  remoteUrl: null,
  error: null,
  ...over,
});
const push = (integrationId: string, state: string, error: string | null = null) => ({
  integrationId,
  state,
  progress: null,
  error,
  remoteProductId: state === 'published' ? 'gid://shopify/Product/1' : null,
  remoteUrl: null,
  updatedAt: '2026-11-23T10:00:00Z',
});

describe('uploadToStores', () => {
  it('follows pushes still running when the answer came, and reports how each ended', async () => {
    const fetch = fakeFetch({
      'POST /api/products/p1/publish': () =>
        json({
          results: [
            result('a', { ok: true, state: 'published', remoteProductId: 'gid://shopify/Product/9' }),
            result('b', { state: 'running' }),
            result('c', { state: 'running' }),
          ],
        }),
      'GET /api/products/p1/pushes': () =>
        json({
          pushes: [
            push('a', 'published'),
            push('b', 'published'),
            push('c', 'failed', 'Shopify could not process the picture "Sun Tee - Black"'),
          ],
        }),
    });
    vi.stubGlobal('fetch', fetch);
    expect(await uploadToStores('p1', [store('a'), store('b'), store('c')])).toEqual([
      { platform: 'shopify', integrationId: 'a', ok: true, error: null },
      { platform: 'shopify', integrationId: 'b', ok: true, error: null },
      {
        platform: 'shopify',
        integrationId: 'c',
        ok: false,
        error: 'Shopify could not process the picture "Sun Tee - Black"',
      },
    ]);
    expect(fetch.calls.map((c) => `${c.method} ${c.url.pathname}`)).toEqual([
      'POST /api/products/p1/publish',
      'GET /api/products/p1/pushes',
    ]);
  });

  it('a push waiting for the store’s spent request limit is neither done nor failed: it says until when', async () => {
    const waiting = "Waiting for Etsy's request limit; resumes at 14:05 UTC";
    const fetch = fakeFetch({
      'POST /api/products/p1/publish': () =>
        json({ results: [result('a', { state: 'waiting', progress: waiting }), result('b', { state: 'running' })] }),
      'GET /api/products/p1/pushes': () => json({ pushes: [{ ...push('b', 'waiting'), progress: waiting }] }),
    });
    vi.stubGlobal('fetch', fetch);
    expect(await uploadToStores('p1', [store('a'), store('b')])).toEqual([
      { platform: 'shopify', integrationId: 'a', ok: false, error: null, waiting },
      { platform: 'shopify', integrationId: 'b', ok: false, error: null, waiting },
    ]);
  });
});
