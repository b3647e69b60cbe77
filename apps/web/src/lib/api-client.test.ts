import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api-client';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('api client', () => {
  it('sends credentials and no body or content type when there is no payload', async () => {
    const fetchMock = vi.fn(async () => new Response('{"ok":true}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.post('/api/printful/disconnect')).resolves.toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.credentials).toBe('include');
    expect(init.body).toBeUndefined();
    expect(init.headers).toBeUndefined();
  });

  it('sends JSON with a JSON content type when there is a payload', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/api/x', { a: 1 });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.body).toBe('{"a":1}');
    expect(init.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('turns a non-2xx answer into "status: body text"', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response('{"error":"Design not found","code":"NOT_FOUND"}', { status: 404 }),
    );
    const error = await api.get('/api/designs/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('404: {"error":"Design not found","code":"NOT_FOUND"}');
    expect((error as ApiError).serverMessage).toBe('Design not found');
  });

  it('uses the status text when the body is empty, and treats 401 as an error', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 401, statusText: 'Unauthorized' }));
    await expect(api.get('/api/x')).rejects.toThrow('401: Unauthorized');
  });
});
