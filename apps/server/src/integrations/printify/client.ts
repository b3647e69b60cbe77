import { apiUrl, jsonCall } from '../json-call';
import { RateLimiter } from '../printful/client';

/**
 * Printify API v1 client (apis-next.md F). Base URL, fetch, clock and sleep are injectable so the same code runs
 * against api.printify.com, the local fake and the built-in sandbox. Every call sends `Authorization: Bearer` and a
 * `User-Agent` (Printify may reject a request without one). Calls are paced under Printify's limits (600 a minute per
 * account, 100 a minute for the catalogue); a 429 (Printify sends no Retry-After) is waited out with exponential
 * backoff, then given up.
 */

export class PrintifyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Printify's numeric error code (8150: a field missing, 8251: variants not covered...), when it sent one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'PrintifyError';
  }
}

export type PrintifyClientOptions = {
  apiBase: string;
  /** Where merchants authorise an app (printify.com); with `appId`, the OAuth app flow is available. */
  oauthBase?: string;
  appId?: string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** How many times a 429 is waited out before giving up. */
  maxRetries?: number;
  /** First backoff after a 429, doubled each time (Printify sends no Retry-After). */
  backoffMs?: number;
};

export const PRINTIFY_USER_AGENT = 'Podforge/1.0 (+https://podforge.app)';

/** Printify's error bodies: `{code, errors:{reason}}` (validation), `{error, error_description}` (OAuth), `{message}`. */
export function printifyErrorMessage(body: unknown, fallback: string): { message: string; code?: number } {
  if (!body || typeof body !== 'object') return { message: fallback };
  const b = body as Record<string, unknown>;
  const errors = b.errors as Record<string, unknown> | undefined;
  const candidates = [
    errors && typeof errors === 'object' ? errors.reason : undefined,
    b.error_description,
    b.message,
    b.error,
  ];
  const found = candidates.find((c) => typeof c === 'string' && c.length > 0) as string | undefined;
  return { message: (found ?? fallback).slice(0, 300), ...(typeof b.code === 'number' ? { code: b.code } : {}) };
}

export type PrintifyTokens = { accessToken: string; refreshToken: string | null; expiresAt: Date | null };

const isCatalog = (path: string) => /^\/v\d\/catalog\//.test(path);

export class PrintifyClient {
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  readonly limiter: RateLimiter;
  readonly catalogLimiter: RateLimiter;
  private readonly maxRetries: number;
  private readonly backoffMs: number;

  constructor(private readonly options: PrintifyClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    const now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.limiter = new RateLimiter(600, 60_000, now, (ms) => this.sleep(ms));
    this.catalogLimiter = new RateLimiter(100, 60_000, now, (ms) => this.sleep(ms));
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 2_000;
  }

  get apiBase() {
    return this.options.apiBase;
  }

  get oauthConfigured(): boolean {
    return Boolean(this.options.appId);
  }

  /** Printify's consent page for the app; it answers at `acceptUrl?code=` or `declineUrl?error=` with our state. */
  authorizeUrl(state: string, acceptUrl: string, declineUrl: string): string {
    const url = new URL('/app/authorize', this.options.oauthBase ?? 'https://printify.com');
    url.searchParams.set('app_id', this.options.appId ?? '');
    url.searchParams.set('accept_url', acceptUrl);
    url.searchParams.set('decline_url', declineUrl);
    url.searchParams.set('state', state);
    return url.toString();
  }

  exchangeCode(code: string): Promise<PrintifyTokens> {
    return this.tokenRequest('/v1/app/oauth/tokens', { code });
  }

  refresh(refreshToken: string): Promise<PrintifyTokens> {
    return this.tokenRequest('/v1/app/oauth/tokens/refresh', { refresh_token: refreshToken });
  }

  private async tokenRequest(path: string, params: Record<string, string>): Promise<PrintifyTokens> {
    if (!this.oauthConfigured) throw new PrintifyError(400, 'Printify OAuth is not configured');
    let response: Response;
    try {
      response = await this.fetchImpl(new URL(path, this.options.apiBase), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json;charset=utf-8',
          Accept: 'application/json',
          'User-Agent': PRINTIFY_USER_AGENT,
        },
        body: JSON.stringify({ app_id: this.options.appId, ...params }),
      });
    } catch {
      throw new PrintifyError(502, 'Printify could not be reached');
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !json || typeof json.access_token !== 'string') {
      const { message } = printifyErrorMessage(json, `Printify refused the authorisation (${response.status})`);
      throw new PrintifyError(response.ok ? 502 : response.status, message);
    }
    // `expire_at` is Printify's datetime ("2017-04-18 13:24:28+00:00"); the access token lives 6 hours.
    const expires = typeof json.expire_at === 'string' ? Date.parse(json.expire_at.replace(' ', 'T')) : Number.NaN;
    return {
      accessToken: json.access_token,
      refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
      expiresAt: Number.isFinite(expires) ? new Date(expires) : null,
    };
  }

  get<T>(path: string, token: string, query: Record<string, string | undefined> = {}): Promise<T> {
    return this.request<T>('GET', path, token, { query });
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    token: string,
    options: { query?: Record<string, string | undefined>; body?: unknown } = {},
  ): Promise<T> {
    const url = apiUrl(this.options.apiBase, path, options.query);
    const limiter = isCatalog(path) ? this.catalogLimiter : this.limiter;
    return jsonCall<T>({
      take: async () => {
        await this.limiter.take();
        if (isCatalog(path)) await this.catalogLimiter.take();
      },
      send: () =>
        this.fetchImpl(url, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: 'application/json',
            'User-Agent': PRINTIFY_USER_AGENT,
            ...(options.body === undefined ? {} : { 'Content-Type': 'application/json;charset=utf-8' }),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        }),
      maxRetries: this.maxRetries,
      waitMs: (response, attempt) => {
        const retryAfter = Number(response.headers.get('retry-after') ?? '');
        return Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : this.backoffMs * 2 ** attempt;
      },
      block: (ms) => limiter.blockFor(ms),
      emptyIsNull: false,
      unreachable: () => new PrintifyError(502, 'Printify could not be reached'),
      limited: () => new PrintifyError(429, 'Printify is rate limiting requests; try again in a minute'),
      refused: (status, json) => {
        const { message, code } = printifyErrorMessage(json, `Printify answered ${status}`);
        return new PrintifyError(status, message, code);
      },
      unreadable: () => new PrintifyError(502, 'Printify sent an unreadable answer'),
    });
  }
}
