import { isValidShopDomain, verifyQueryHmac } from './hmac';

/**
 * Shopify client (apis.md A): OAuth authorization code grant and the Admin GraphQL API. Where a shop lives, fetch,
 * the clock and sleep are injectable, so the same code talks to a real shop and to the local fake (the sandbox).
 */

export class ShopifyError extends Error {
  constructor(
    /** HTTP status Shopify answered, or 502 when it could not be reached or answered nonsense. */
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ShopifyError';
  }
}

export type ShopifyClientOptions = {
  apiKey: string;
  apiSecret: string;
  scopes: string[];
  apiVersion: string;
  /** Base URL of a shop's admin host; `https://{shop}` for real shops. Only called with a validated domain. */
  shopBaseUrl: (shop: string) => string;
  /** Where the browser goes to approve; defaults to `shopBaseUrl` (the sandbox relays it through the app). */
  authorizeBaseUrl?: (shop: string) => string;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** THROTTLED answers waited out before giving up. */
  maxThrottleRetries?: number;
};

export type ShopifyUserError = { field?: string[] | null; message: string; code?: string };

type GraphqlEnvelope<T> = {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[] | string;
  extensions?: {
    cost?: {
      requestedQueryCost?: number;
      actualQueryCost?: number | null;
      throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
};

export type ProductSetInput = {
  title: string;
  handle: string;
  descriptionHtml: string;
  productType: string;
  tags: string[];
  status: 'ACTIVE' | 'DRAFT';
  productOptions: { name: string; position: number; values: { name: string }[] }[];
  variants: { optionValues: { optionName: string; name: string }[]; price: string; sku?: string }[];
  files?: { originalSource: string; contentType: 'IMAGE'; alt: string }[];
};

export type RemoteProduct = {
  id: string;
  title: string;
  handle: string;
  status: string;
  productType?: string;
  tags?: string[];
  updatedAt?: string;
  variants?: { nodes: { id: string; title: string; price: string; sku: string | null }[] };
  media?: { nodes: { id: string; status: string; preview?: { image: { url: string } | null } | null }[] };
};

export type RemoteOrder = {
  id: string;
  name: string;
  createdAt: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
};

const MAX_THROTTLE_WAIT_MS = 10_000;

/** `userErrors` as one sentence: "variants.0.price: Price must be positive; Title can't be blank". */
export const describeUserErrors = (errors: ShopifyUserError[]) =>
  errors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message)).join('; ');

export class ShopifyClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(readonly options: ShopifyClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  private base(shop: string, resolver = this.options.shopBaseUrl): string {
    if (!isValidShopDomain(shop)) throw new ShopifyError(400, `Not a Shopify store domain: ${shop}`);
    return resolver(shop).replace(/\/$/, '');
  }

  /** apis.md A1 (1): an offline token (grant_options[] empty), `+` written as %20. */
  authorizeUrl(shop: string, state: string, redirectUri: string): string {
    const query = new URLSearchParams({
      client_id: this.options.apiKey,
      scope: this.options.scopes.join(','),
      redirect_uri: redirectUri,
      state,
      'grant_options[]': '',
    });
    const base = this.base(shop, this.options.authorizeBaseUrl ?? this.options.shopBaseUrl);
    return `${base}/admin/oauth/authorize?${query.toString().replace(/\+/g, '%20')}`;
  }

  /** Whether a shop answers at its domain (a shop that does not exist answers 404). Throws when unreachable. */
  async shopExists(shop: string): Promise<boolean> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base(shop)}/admin/oauth/authorize?client_id=${this.options.apiKey}`, {
        method: 'GET',
        redirect: 'manual',
      });
    } catch {
      throw new ShopifyError(502, `${shop} could not be reached`);
    }
    await response.body?.cancel();
    return response.status !== 404;
  }

  /** The callback's hmac and timestamp (apis.md A1 (3)). */
  verifyCallback(query: Record<string, string>): boolean {
    return verifyQueryHmac(query, this.options.apiSecret, this.now());
  }

  /** apis.md A1 (4): the code (single use) for an offline, non-expiring token. */
  async exchangeCode(shop: string, code: string): Promise<{ accessToken: string; scope: string }> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base(shop)}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          client_id: this.options.apiKey,
          client_secret: this.options.apiSecret,
          code,
          expiring: '0',
        }),
      });
    } catch {
      throw new ShopifyError(502, `${shop} could not be reached`);
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !json || typeof json.access_token !== 'string') {
      const reason = typeof json?.error_description === 'string' ? json.error_description : `HTTP ${response.status}`;
      throw new ShopifyError(response.ok ? 502 : response.status, `Shopify refused the authorisation: ${reason}`);
    }
    return { accessToken: json.access_token, scope: typeof json.scope === 'string' ? json.scope : '' };
  }

  /**
   * One Admin GraphQL call. THROTTLED (in a 200 or a 429) waits for the bucket to refill by what the query asked
   * for, as `extensions.cost` says, and retries a bounded number of times; any other top-level error throws.
   */
  async graphql<T>(shop: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const url = `${this.base(shop)}/admin/api/${this.options.apiVersion}/graphql.json`;
    const maxRetries = this.options.maxThrottleRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'X-Shopify-Access-Token': token,
          },
          body: JSON.stringify({ query, variables }),
        });
      } catch {
        throw new ShopifyError(502, `${shop} could not be reached`);
      }
      const body = (await response.json().catch(() => null)) as GraphqlEnvelope<T> | null;
      const errors = Array.isArray(body?.errors) ? body.errors : [];
      const throttled = response.status === 429 || errors.some((e) => e.extensions?.code === 'THROTTLED');
      if (throttled) {
        if (attempt >= maxRetries) throw new ShopifyError(429, 'Shopify is throttling requests; try again shortly');
        await this.sleep(this.throttleWait(body, response));
        continue;
      }
      if (response.status === 401) {
        throw new ShopifyError(401, 'Shopify rejected the access token; reconnect the store');
      }
      if (!response.ok) {
        const detail = typeof body?.errors === 'string' ? `: ${body.errors}` : '';
        throw new ShopifyError(response.status, `Shopify answered ${response.status}${detail}`.slice(0, 300));
      }
      if (errors.length > 0) {
        const first = errors[0];
        throw new ShopifyError(
          502,
          `Shopify: ${errors.map((e) => e.message).join('; ')}`.slice(0, 300),
          first?.extensions?.code,
        );
      }
      if (!body?.data) throw new ShopifyError(502, 'Shopify sent an unreadable answer');
      return body.data;
    }
  }

  private throttleWait(body: GraphqlEnvelope<unknown> | null, response: Response): number {
    const retryAfter = Number(response.headers.get('retry-after'));
    if (Number.isFinite(retryAfter) && retryAfter > 0) return Math.min(retryAfter * 1000, MAX_THROTTLE_WAIT_MS);
    const cost = body?.extensions?.cost;
    const status = cost?.throttleStatus;
    if (!status || !(status.restoreRate > 0)) return 1000;
    const needed = (cost?.requestedQueryCost ?? 0) - status.currentlyAvailable;
    const ms = Math.ceil((Math.max(needed, 0) / status.restoreRate) * 1000) + 50;
    return Math.min(ms, MAX_THROTTLE_WAIT_MS);
  }

  async shop(shop: string, token: string): Promise<{ name: string; myshopifyDomain: string }> {
    const data = await this.graphql<{ shop: { name: string; myshopifyDomain: string } }>(
      shop,
      token,
      'query shop { shop { name myshopifyDomain } }',
    );
    return data.shop;
  }

  /**
   * Creates or updates the product whose handle is `input.handle` (productSet with that handle as its identifier):
   * the same call after a failure or a crash updates the product it created, never a second one.
   */
  async productSet(shop: string, token: string, input: ProductSetInput): Promise<RemoteProduct> {
    const data = await this.graphql<{
      productSet: { product: RemoteProduct | null; userErrors: ShopifyUserError[] };
    }>(
      shop,
      token,
      `mutation productSet($input: ProductSetInput!, $identifier: ProductSetIdentifiers, $synchronous: Boolean!) {
  productSet(input: $input, identifier: $identifier, synchronous: $synchronous) {
    product { id title handle status variants(first: 100) { nodes { id title price sku } } }
    userErrors { code field message }
  }
}`,
      { input, identifier: { handle: input.handle }, synchronous: true },
    );
    const result = data.productSet;
    if (result?.userErrors?.length) {
      throw new ShopifyError(422, `Shopify refused the product: ${describeUserErrors(result.userErrors)}`);
    }
    if (!result?.product) throw new ShopifyError(502, 'Shopify did not return the product');
    return result.product;
  }

  /** Staged upload target for one image (apis.md A2 'Images / media', option 2). */
  async stagedUpload(
    shop: string,
    token: string,
    file: { filename: string; mimeType: string; bytes: Buffer },
  ): Promise<string> {
    const data = await this.graphql<{
      stagedUploadsCreate: {
        stagedTargets: { url: string; resourceUrl: string; parameters: { name: string; value: string }[] }[];
        userErrors: ShopifyUserError[];
      };
    }>(
      shop,
      token,
      `mutation stagedUploadsCreate($input: [StagedUploadInput!]!) {
  stagedUploadsCreate(input: $input) { stagedTargets { url resourceUrl parameters { name value } } userErrors { field message } }
}`,
      {
        input: [
          {
            filename: file.filename,
            mimeType: file.mimeType,
            httpMethod: 'POST',
            resource: 'IMAGE',
            fileSize: String(file.bytes.length),
          },
        ],
      },
    );
    const result = data.stagedUploadsCreate;
    if (result.userErrors.length) {
      throw new ShopifyError(422, `Shopify refused the image: ${describeUserErrors(result.userErrors)}`);
    }
    const target = result.stagedTargets[0];
    if (!target) throw new ShopifyError(502, 'Shopify gave no upload target for the image');
    // Every parameter in the given order, the file last (apis.md).
    const form = new FormData();
    for (const p of target.parameters) form.append(p.name, p.value);
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.mimeType }), file.filename);
    let response: Response;
    try {
      response = await this.fetchImpl(target.url, { method: 'POST', body: form });
    } catch {
      throw new ShopifyError(502, 'The image upload target could not be reached');
    }
    await response.body?.cancel();
    if (!response.ok) throw new ShopifyError(502, `The image upload was refused (HTTP ${response.status})`);
    return target.resourceUrl;
  }

  async products(shop: string, token: string): Promise<RemoteProduct[]> {
    const data = await this.graphql<{ products: { nodes: RemoteProduct[] } }>(
      shop,
      token,
      `query products { products(first: 50, sortKey: UPDATED_AT, reverse: true) { nodes {
  id title handle status productType tags updatedAt
  variants(first: 100) { nodes { id title price sku } }
  media(first: 5) { nodes { id status preview { image { url } } } }
} } }`,
    );
    return data.products.nodes;
  }

  /** The shop's most recent orders, newest first. */
  async recentOrders(shop: string, token: string, first = 50): Promise<RemoteOrder[]> {
    const data = await this.graphql<{ orders: { nodes: RemoteOrder[] } }>(
      shop,
      token,
      `query orders($first: Int!) { orders(first: $first, sortKey: CREATED_AT, reverse: true) { nodes {
  id name createdAt totalPriceSet { shopMoney { amount currencyCode } }
} } }`,
      { first },
    );
    return data.orders.nodes;
  }
}
