import { apiUrl, jsonCall } from '../json-call';

/**
 * Printful API client (apis.md section B). Base URLs, fetch, clock and sleep are injectable so the same code runs
 * against api.printful.com and the local fake, and rate-limit waits take no time in tests.
 */

export class PrintfulError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PrintfulError';
  }
}

export type PrintfulClientOptions = {
  apiBase: string;
  oauthBase: string;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Requests per window; Printful's general limit is 120 per 60 s. */
  rateLimit?: { requests: number; windowMs: number };
  /** How many times a 429 is waited out and retried before giving up. */
  maxRetries?: number;
};

export type PrintfulTokens = { accessToken: string; refreshToken: string | null; expiresAt: Date | null };

/**
 * A token bucket: bursts up to `capacity`, refilled evenly (120/60 s is one every 500 ms), so a page of calls
 * goes out at once but a long crawl is paced under Printful's limit.
 */
export class RateLimiter {
  private tokens: number;
  private updatedAt: number;
  /** Earliest time the server said we may call again (Retry-After, or an empty X-Ratelimit-Remaining). */
  private blockedUntil = 0;

  constructor(
    private readonly capacity: number,
    private readonly windowMs: number,
    private readonly now: () => number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {
    this.tokens = capacity;
    this.updatedAt = now();
  }

  private refill() {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.updatedAt) * this.capacity) / this.windowMs);
    this.updatedAt = t;
  }

  async take(): Promise<void> {
    for (;;) {
      const wait = this.blockedUntil - this.now();
      if (wait > 0) {
        await this.sleep(wait);
        continue;
      }
      this.refill();
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await this.sleep(Math.ceil(((1 - this.tokens) * this.windowMs) / this.capacity));
    }
  }

  blockFor(ms: number) {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }
}

/** apis.md B4 client rule: status from HTTP, message from error.message ?? result ?? data ?? detail ?? details ?? title. */
export function printfulErrorMessage(body: unknown, fallback: string): string {
  if (!body || typeof body !== 'object') return fallback;
  const b = body as Record<string, unknown>;
  const error = b.error as Record<string, unknown> | string | undefined;
  const candidates = [
    typeof error === 'object' && error ? error.message : undefined,
    typeof error === 'string' ? (b.error_description ?? error) : undefined,
    b.result,
    b.data,
    b.detail,
    b.details,
    b.title,
  ];
  const found = candidates.find((c) => typeof c === 'string' && c.length > 0);
  return typeof found === 'string' ? found.slice(0, 300) : fallback;
}

/**
 * How long the server asked us to wait: Retry-After (seconds, or an HTTP date; RFC 9110), else X-Ratelimit-Reset
 * (seconds), capped at two minutes; a minute when neither is readable. `Retry-After: 0` means "again now", not a
 * minute: it was read as a minute before, which kept a briefly throttled call waiting three minutes.
 */
export const retryAfterMs = (headers: Headers, now: number = Date.now()): number => {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const raw = headers.get(name)?.trim();
    if (!raw) continue;
    const seconds = Number(raw);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(Math.ceil(seconds * 1000), 120_000);
    const at = Date.parse(raw);
    if (name === 'retry-after' && Number.isFinite(at)) return Math.min(Math.max(0, at - now), 120_000);
  }
  return 60_000;
};

export class PrintfulClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  readonly limiter: RateLimiter;
  private readonly maxRetries: number;

  constructor(private readonly options: PrintfulClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const { requests, windowMs } = options.rateLimit ?? { requests: 120, windowMs: 60_000 };
    this.limiter = new RateLimiter(requests, windowMs, this.now, (ms) => this.sleep(ms));
    this.maxRetries = options.maxRetries ?? 3;
  }

  get oauthConfigured(): boolean {
    return Boolean(this.options.clientId && this.options.clientSecret);
  }

  authorizeUrl(state: string, redirectUrl: string): string {
    const url = new URL('/oauth/authorize', this.options.oauthBase);
    url.searchParams.set('client_id', this.options.clientId ?? '');
    url.searchParams.set('state', state);
    // Printful's parameter is redirect_url, not redirect_uri.
    url.searchParams.set('redirect_url', redirectUrl);
    return url.toString();
  }

  exchangeCode(code: string): Promise<PrintfulTokens> {
    return this.tokenRequest({ grant_type: 'authorization_code', code });
  }

  refresh(refreshToken: string): Promise<PrintfulTokens> {
    return this.tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  private async tokenRequest(params: Record<string, string>): Promise<PrintfulTokens> {
    if (!this.oauthConfigured) throw new PrintfulError(400, 'Printful OAuth is not configured');
    const body = new URLSearchParams({
      ...params,
      client_id: this.options.clientId ?? '',
      client_secret: this.options.clientSecret ?? '',
    });
    let response: Response;
    try {
      response = await this.fetchImpl(new URL('/oauth/token', this.options.oauthBase), {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body,
      });
    } catch {
      throw new PrintfulError(502, 'Printful could not be reached');
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !json || typeof json.access_token !== 'string') {
      throw new PrintfulError(
        response.ok ? 502 : response.status,
        printfulErrorMessage(json, `Printful refused the authorisation (${response.status})`),
      );
    }
    // expires_at is unix seconds sent as a string.
    const expires = Number(json.expires_at);
    return {
      accessToken: json.access_token,
      refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : null,
      expiresAt: Number.isFinite(expires) && expires > 0 ? new Date(expires * 1000) : null,
    };
  }

  /** GET an API path with a bearer token; waits out 429s (Retry-After) up to maxRetries, paces under the limit. */
  get<T>(path: string, token: string, query: Record<string, string | undefined> = {}): Promise<T> {
    return this.request<T>('GET', path, token, { query });
  }

  /** Any API call (orders, webhooks): JSON body, the same pacing and 429 handling as `get`; 204 answers null. */
  async request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    token: string,
    options: { query?: Record<string, string | undefined>; body?: unknown; storeId?: string | undefined } = {},
  ): Promise<T> {
    const url = apiUrl(this.options.apiBase, path, options.query);
    return jsonCall<T>({
      take: () => this.limiter.take(),
      send: () =>
        this.fetchImpl(url, {
          method,
          headers: {
            Authorization: `Bearer ${token}`,
            Accept: 'application/json',
            // Which of the account's stores the call is for (apis.md B: X-PF-Store-Id).
            ...(options.storeId ? { 'X-PF-Store-Id': options.storeId } : {}),
            ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        }),
      maxRetries: this.maxRetries,
      waitMs: (response) => retryAfterMs(response.headers, this.now()),
      block: (ms) => this.limiter.blockFor(ms),
      // The server's own count wins over ours: an empty bucket means wait for its reset.
      onAnswer: (response) => {
        if (response.headers.get('x-ratelimit-remaining') === '0')
          this.limiter.blockFor(retryAfterMs(response.headers, this.now()));
      },
      emptyIsNull: true,
      unreachable: () => new PrintfulError(502, 'Printful could not be reached'),
      limited: () => new PrintfulError(429, 'Printful is rate limiting requests; try again in a minute'),
      refused: (status, json) => new PrintfulError(status, printfulErrorMessage(json, `Printful answered ${status}`)),
      unreadable: () => new PrintfulError(502, 'Printful sent an unreadable answer'),
    });
  }
}
