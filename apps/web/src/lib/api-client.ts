/**
 * The one way the web app calls the API (spec section 7, 'General rule'): credentials on every call, a JSON body
 * with a JSON content type only when there is a payload, and any non-2xx answer becomes an `ApiError` whose text
 * is `status: body text` (or the status text when the body is empty).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly bodyText: string,
    statusText: string,
  ) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
  }

  /** The parsed `{ error, code, ... }` body, when the server sent JSON. */
  get body(): Record<string, unknown> | null {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  /** The server's human message, when there is one. */
  get serverMessage(): string | null {
    const body = this.body;
    const message = body?.error ?? body?.message;
    return typeof message === 'string' ? message : null;
  }
}

type RequestOptions = {
  method?: string;
  /** A JSON payload, or FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra request headers (e.g. the upload id an upload's queue place is read by). */
  headers?: Record<string, string>;
};

export async function apiRequest<T>(url: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, headers } = options;
  const init: RequestInit = { method, credentials: 'include', signal: signal ?? null };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json' };
  }
  if (headers) init.headers = { ...(init.headers as Record<string, string> | undefined), ...headers };
  const response = await fetch(url, init);
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    throw new ApiError(response.status, text, response.statusText);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T>(url: string, signal?: AbortSignal) => apiRequest<T>(url, { signal }),
  post: <T>(url: string, body?: unknown) => apiRequest<T>(url, { method: 'POST', body }),
  put: <T>(url: string, body?: unknown) => apiRequest<T>(url, { method: 'PUT', body }),
  patch: <T>(url: string, body?: unknown) => apiRequest<T>(url, { method: 'PATCH', body }),
  delete: <T>(url: string) => apiRequest<T>(url, { method: 'DELETE' }),
};
