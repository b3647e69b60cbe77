import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { createQueryClient } from '@/lib/query-client';

/** Renders with the app's own query client settings (a fresh one per test) and a router at `path`. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>,
    ),
  };
}

export type FakeRequest = { method: string; url: URL; body: unknown };

/**
 * A fetch stand-in answering by URL; unknown URLs fail the test loudly. A key is the path with its query
 * ('/api/x?a=1'), or a method and that path ('PATCH /api/x/1'); a method with a bare path ('GET /api/x') answers
 * that path whatever its query. Every request is kept in `calls`, its JSON body parsed.
 */
export function fakeFetch(routes: Record<string, (request: FakeRequest) => Response | Promise<Response>>) {
  const calls: FakeRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const url = new URL(raw, 'http://app.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = `${url.pathname}${url.search}`;
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        // Not JSON: keep the text.
      }
    }
    const request = { method, url, body };
    calls.push(request);
    const handler = routes[`${method} ${path}`] ?? routes[path] ?? routes[`${method} ${url.pathname}`];
    if (!handler) throw new Error(`Unexpected request to ${method} ${path}`);
    return handler(request);
  };
  return Object.assign(fetch, { calls });
}

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
