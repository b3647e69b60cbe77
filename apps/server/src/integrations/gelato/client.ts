/**
 * Gelato API client (apis-next.md G): one static account API key in `X-API-KEY`, four hosts (orders v4, product
 * v3, shipment v1; e-commerce v1 is not used). Bases, fetch and sleep are injectable so the same code runs against
 * Gelato and the local fake. Errors are `{code, message}`; a 429 is waited out (Retry-After) a few times.
 */

export class GelatoError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'GelatoError';
  }
}

export type GelatoHost = 'order' | 'product' | 'shipment';

export type GelatoClientOptions = {
  orderBase: string;
  productBase: string;
  shipmentBase: string;
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** How many times a 429 is waited out before giving up. */
  maxRetries?: number;
};

export const GELATO_BASES = {
  orderBase: 'https://order.gelatoapis.com',
  productBase: 'https://product.gelatoapis.com',
  shipmentBase: 'https://shipment.gelatoapis.com',
} as const;

export class GelatoClient {
  private readonly fetchFn: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(readonly options: GelatoClientOptions) {
    this.fetchFn = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private base(host: GelatoHost) {
    return host === 'order'
      ? this.options.orderBase
      : host === 'product'
        ? this.options.productBase
        : this.options.shipmentBase;
  }

  async request<T>(apiKey: string, host: GelatoHost, method: string, path: string, body?: unknown): Promise<T> {
    const retries = this.options.maxRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      const res = await this.fetchFn(`${this.base(host)}${path}`, {
        method,
        headers: {
          'X-API-KEY': apiKey,
          Accept: 'application/json',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (res.status === 429 && attempt < retries) {
        const after = Number(res.headers.get('retry-after'));
        await this.sleep(Number.isFinite(after) && after > 0 ? after * 1000 : 1000);
        continue;
      }
      if (!res.ok) {
        const e = (json ?? {}) as { code?: unknown; message?: unknown };
        throw new GelatoError(
          res.status,
          typeof e.code === 'string' ? e.code : null,
          typeof e.message === 'string' && e.message ? e.message : `Gelato answered ${res.status}`,
        );
      }
      return json as T;
    }
  }
}
