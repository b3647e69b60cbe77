import { isValidShopDomain, verifyQueryHmac } from './hmac';
import { queryCost } from './query-cost';

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
    /** Where in the answer each top-level error was (GraphQL paths), when Shopify said. */
    readonly paths: (string | number)[][] = [],
  ) {
    super(message);
    this.name = 'ShopifyError';
  }
}

/** Shopify's words when an app it has not approved for protected customer data asks for orders webhooks. */
export const isProtectedDataRefusal = (message: string) => /protected customer data/i.test(message);

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
  /** Where an operator learns of trouble they must act on (default: console.warn), e.g. a retired API version. */
  log?: (message: string) => void;
};

export type ShopifyUserError = { field?: string[] | null; message: string; code?: string };

type GraphqlEnvelope<T> = {
  data?: T | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: { code?: string } }[] | string;
  extensions?: {
    cost?: {
      requestedQueryCost?: number;
      actualQueryCost?: number | null;
      throttleStatus?: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
    };
  };
};

/** A picture given by URL (a staged upload's resourceUrl): apis.md E3 'Media'. */
export type FileSetInput = { originalSource: string; contentType: 'IMAGE'; alt: string };

export type ProductSetInput = {
  title: string;
  handle: string;
  descriptionHtml: string;
  productType: string;
  tags: string[];
  status: 'ACTIVE' | 'DRAFT' | 'ARCHIVED';
  productOptions: { name: string; position: number; values: { name: string }[] }[];
  variants: {
    optionValues: { optionName: string; name: string }[];
    price: string;
    /** Print-on-demand is never out of stock: untracked and CONTINUE (E3 'Inventory'). */
    inventoryPolicy: 'CONTINUE' | 'DENY';
    inventoryItem: { tracked: boolean; sku?: string };
    /** The variant's own picture; it must also be one of `files`. */
    file?: FileSetInput;
  }[];
  files?: FileSetInput[];
};

export type RemoteMedia = {
  id: string;
  alt: string;
  status: 'UPLOADED' | 'PROCESSING' | 'READY' | 'FAILED';
  mediaErrors?: { code: string; message: string }[];
};

export type RemoteProduct = {
  id: string;
  title: string;
  handle: string;
  status: string;
  productType?: string;
  tags?: string[];
  updatedAt?: string;
  variants?: { nodes: { id: string; title?: string; price?: string; sku: string | null }[] };
  media?: { nodes: { id: string; status: string; preview?: { image: { url: string } | null } | null }[] };
};

/** An access token as Shopify granted it; without `expiresIn` it does not expire (custom apps). */
export type TokenGrant = {
  accessToken: string;
  scope: string;
  expiresIn: number | undefined;
  refreshToken: string | undefined;
  refreshTokenExpiresIn: number | undefined;
};

/** What Sync compares with what was pushed; null when the product is gone from the store. */
export type RemoteListing = {
  id: string;
  title: string;
  status: string;
  variants: { nodes: { id: string; price: string; sku: string | null }[] };
};

export type RemoteOrder = {
  id: string;
  name: string;
  createdAt: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
};

const MAX_THROTTLE_WAIT_MS = 10_000;

/** A shop's cost bucket as this client estimates it; `inflight` is what calls sent and not yet answered reserved. */
type Bucket = { available: number; maximum: number; rate: number; at: number; inflight: number; seq: number };

/** `userErrors` as one sentence: "variants.0.price: Price must be positive; Title can't be blank". */
export const describeUserErrors = (errors: ShopifyUserError[]) =>
  errors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message)).join('; ');

export class ShopifyClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** What each shop's cost bucket held at its last answer (apis.md A3: read it, never hard-code it). */
  private readonly buckets = new Map<string, Bucket>();
  /** Per shop, the admission of the call before (see `admit`). */
  private readonly gates = new Map<string, Promise<void>>();
  private sent = 0;
  /** Versions Shopify served instead of the one asked for, already logged. */
  private readonly versionsNoticed = new Set<string>();
  /** Each shop's Online Store publication (it does not change; forgotten when publishing to it fails). */
  private readonly onlineStore = new Map<string, string>();

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

  /**
   * apis.md A1 (4) and E1: the code (single use) for an offline token, expiring (an hour, with a refresh token;
   * what public apps must use) unless `expiring` is false (a custom app's token that never expires).
   */
  async exchangeCode(
    shop: string,
    code: string,
    { expiring = true }: { expiring?: boolean } = {},
  ): Promise<TokenGrant> {
    return this.tokenRequest(shop, { code, expiring: expiring ? '1' : '0' }, 'Shopify refused the authorisation');
  }

  /**
   * apis.md E1: a new access token for a refresh token. Shopify rotates: the answer carries a new refresh token and
   * the one presented stops working, so the caller must store the new pair before anything else.
   */
  async refreshAccessToken(shop: string, refreshToken: string): Promise<TokenGrant> {
    return this.tokenRequest(
      shop,
      { grant_type: 'refresh_token', refresh_token: refreshToken },
      'Shopify refused to renew the access token; reconnect the store',
    );
  }

  /**
   * apis.md A1 'Other grants': a non-expiring offline token (from before expiring tokens) exchanged for an expiring
   * one with a refresh token. Shopify stops taking the old token.
   */
  async migrateToExpiring(shop: string, accessToken: string): Promise<TokenGrant> {
    const offline = 'urn:shopify:params:oauth:token-type:offline-access-token';
    return this.tokenRequest(
      shop,
      {
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        subject_token: accessToken,
        subject_token_type: offline,
        requested_token_type: offline,
        expiring: '1',
      },
      'Shopify refused to renew the access token',
    );
  }

  private async tokenRequest(shop: string, grant: Record<string, string>, refusal: string): Promise<TokenGrant> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.base(shop)}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ client_id: this.options.apiKey, client_secret: this.options.apiSecret, ...grant }),
      });
    } catch {
      throw new ShopifyError(502, `${shop} could not be reached`);
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || !json || typeof json.access_token !== 'string') {
      const reason = typeof json?.error_description === 'string' ? json.error_description : `HTTP ${response.status}`;
      const code = typeof json?.error === 'string' ? json.error : undefined;
      // A refused grant (400) means the seller must connect again: 401 is how the rest of the app reads that.
      const status = response.ok ? 502 : response.status === 400 ? 401 : response.status;
      throw new ShopifyError(status, `${refusal}: ${reason}`, code);
    }
    const seconds = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined);
    return {
      accessToken: json.access_token,
      scope: typeof json.scope === 'string' ? json.scope : '',
      expiresIn: seconds(json.expires_in),
      refreshToken: typeof json.refresh_token === 'string' ? json.refresh_token : undefined,
      refreshTokenExpiresIn: seconds(json.refresh_token_expires_in),
    };
  }

  /**
   * One Admin GraphQL call. THROTTLED (in a 200 or a 429) waits for the bucket to refill by what the query asked
   * for, as `extensions.cost` says, and retries a bounded number of times; any other top-level error throws.
   */
  async graphql<T>(shop: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const url = `${this.base(shop)}/admin/api/${this.options.apiVersion}/graphql.json`;
    const maxRetries = this.options.maxThrottleRetries ?? 10;
    const cost = queryCost(query, variables);
    for (let attempt = 0; ; attempt++) {
      const { reserved, seq } = await this.admit(shop, cost);
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
        this.observe(shop, reserved ? cost : 0, null, seq);
        throw new ShopifyError(502, `${shop} could not be reached`);
      }
      this.noticeVersion(response);
      this.noticeDeprecation(response, query);
      const body = (await response.json().catch(() => null)) as GraphqlEnvelope<T> | null;
      this.observe(shop, reserved ? cost : 0, body, seq);
      const errors = Array.isArray(body?.errors) ? body.errors : [];
      const throttled = response.status === 429 || errors.some((e) => e.extensions?.code === 'THROTTLED');
      if (throttled) {
        if (attempt >= maxRetries) throw new ShopifyError(429, 'Shopify is throttling requests; try again shortly');
        const wait = this.throttleWait(body, response);
        await this.sleep(wait);
        this.credit(shop, wait);
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
        const code = first?.extensions?.code;
        const text = `Shopify: ${errors.map((e) => e.message).join('; ')}`.slice(0, 300);
        const paths = errors.map((e) => e.path ?? []);
        if (code === 'ACCESS_DENIED') {
          throw new ShopifyError(403, `${text} Connect the store again to grant it.`, code, paths);
        }
        throw new ShopifyError(502, text, code);
      }
      if (!body?.data) throw new ShopifyError(502, 'Shopify sent an unreadable answer');
      return body.data;
    }
  }

  /**
   * Shopify serves a retired version as the oldest supported one and names the version it served in
   * X-Shopify-API-Version: when that is not the one asked for, the pin is retired; said once per served version.
   */
  private noticeVersion(response: Response): void {
    const served = response.headers.get('x-shopify-api-version');
    if (!served || served === this.options.apiVersion || this.versionsNoticed.has(served)) return;
    this.versionsNoticed.add(served);
    const log = this.options.log ?? ((message: string) => console.warn(message));
    log(
      `Podforge asked for Shopify API ${this.options.apiVersion} and was served ${served}: ` +
        'the pinned version is no longer supported; set SHOPIFY_API_VERSION to a supported version.',
    );
  }

  /** Shopify flags a document that uses deprecated fields: said once per operation, so it is fixed before removal. */
  private noticeDeprecation(response: Response, query: string): void {
    if (!response.headers.get('x-shopify-api-deprecated-reason')) return;
    const operation = /(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? query.slice(0, 40);
    if (this.versionsNoticed.has(`deprecated:${operation}`)) return;
    this.versionsNoticed.add(`deprecated:${operation}`);
    const log = this.options.log ?? ((message: string) => console.warn(message));
    log(`Shopify says the ${operation} call uses deprecated fields (X-Shopify-API-Deprecated-Reason); update it.`);
  }

  /**
   * Admission to the shop's cost bucket (apis.md A3, 'what a good client does'): one call at a time decides, from
   * the last `throttleStatus` refilled at its rate minus what calls in flight reserved, whether the bucket holds
   * this call's estimated cost; if not it waits until it should, then reserves the cost. So concurrent pushes to
   * one shop queue behind each other instead of being THROTTLED. Answers whether the cost was reserved, and the
   * call's place in the order calls were sent.
   */
  private async admit(shop: string, cost: number): Promise<{ reserved: boolean; seq: number }> {
    this.sent += 1;
    const seq = this.sent;
    const previous = this.gates.get(shop) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const gate = previous.then(() => mine);
    this.gates.set(shop, gate);
    await previous;
    try {
      const b = this.buckets.get(shop);
      if (!b || !(b.rate > 0)) return { reserved: false, seq };
      this.refill(b);
      const short = cost - b.available;
      if (short > 0) {
        const wait = Math.min(Math.ceil((short / b.rate) * 1000), MAX_THROTTLE_WAIT_MS);
        await this.sleep(wait);
        this.credit(shop, wait);
      }
      b.available -= cost;
      b.inflight += cost;
      return { reserved: true, seq };
    } finally {
      release();
      if (this.gates.get(shop) === gate) this.gates.delete(shop);
    }
  }

  private refill(b: Bucket) {
    const t = this.now();
    b.available = Math.min(b.maximum, b.available + ((t - b.at) / 1000) * b.rate);
    b.at = t;
  }

  /** A wait of `ms` was slept: the bucket refilled by that much (whatever the clock says). */
  private credit(shop: string, ms: number) {
    const b = this.buckets.get(shop);
    if (!b) return;
    b.available = Math.min(b.maximum, b.available + (ms / 1000) * b.rate);
    b.at = this.now();
  }

  /**
   * An answer: its reservation ends, and the bucket is what Shopify says minus what other calls still reserve,
   * unless a call sent later was answered first (its figure is newer).
   */
  private observe(shop: string, reservedCost: number, body: GraphqlEnvelope<unknown> | null, seq: number) {
    const b = this.buckets.get(shop);
    if (b) b.inflight = Math.max(0, b.inflight - reservedCost);
    const status = body?.extensions?.cost?.throttleStatus;
    if (!status) return;
    // Changed in place: a call waiting in `admit` holds this object.
    const bucket = b ?? { available: 0, maximum: 0, rate: 0, at: 0, inflight: 0, seq: 0 };
    if (seq < bucket.seq) return;
    bucket.seq = seq;
    bucket.available = status.currentlyAvailable - bucket.inflight;
    bucket.maximum = status.maximumAvailable;
    bucket.rate = status.restoreRate;
    bucket.at = this.now();
    this.buckets.set(shop, bucket);
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
   * the same call after a failure or a crash updates the product it created, never a second one. Variants and
   * files not listed are removed (E3 'Upsert').
   */
  async productSet(shop: string, token: string, input: ProductSetInput): Promise<RemoteProduct> {
    const data = await this.graphql<{
      productSet: { product: RemoteProduct | null; userErrors: ShopifyUserError[] };
    }>(
      shop,
      token,
      `mutation productSet($input: ProductSetInput!, $identifier: ProductSetIdentifiers, $synchronous: Boolean!) {
  productSet(input: $input, identifier: $identifier, synchronous: $synchronous) {
    product { id title handle status variants(first: 100) { nodes { id sku } } }
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

  /** The Online Store's publication (E3 'Publication'): the sales channel buyers see. */
  async onlineStorePublicationId(shop: string, token: string): Promise<string> {
    const known = this.onlineStore.get(shop);
    if (known) return known;
    const data = await this.graphql<{
      publications: { nodes: { id: string; catalog: { title: string } | null }[] };
    }>(shop, token, 'query publications { publications(first: 20) { nodes { id catalog { title } } } }');
    // Publication.name is deprecated: the channel's name is its catalog's title.
    const online = data.publications.nodes.find((p) => p.catalog?.title === 'Online Store');
    if (!online) throw new ShopifyError(409, `${shop} has no Online Store sales channel`);
    this.onlineStore.set(shop, online.id);
    return online.id;
  }

  /** Puts the product on a publication (sales channel): until then no buyer sees it, whatever its status. */
  async publish(shop: string, token: string, productId: string, publicationId: string): Promise<void> {
    const data = await this.graphql<{ publishablePublish: { userErrors: ShopifyUserError[] } }>(
      shop,
      token,
      `mutation publishablePublish($id: ID!, $input: [PublicationInput!]!) {
  publishablePublish(id: $id, input: $input) { userErrors { field message } }
}`,
      { id: productId, input: [{ publicationId }] },
    );
    const errors = data.publishablePublish?.userErrors ?? [];
    if (errors.length) this.onlineStore.delete(shop);
    if (errors.length)
      throw new ShopifyError(422, `Shopify did not publish the product: ${describeUserErrors(errors)}`);
  }

  /** The product's media and their processing status; null when the product no longer exists. */
  async productMedia(shop: string, token: string, productId: string, first = 20): Promise<RemoteMedia[] | null> {
    const data = await this.graphql<{ product: { media: { nodes: RemoteMedia[] } } | null }>(
      shop,
      token,
      `query productMedia($id: ID!, $first: Int!) { product(id: $id) {
  media(first: $first) { nodes { id alt status mediaErrors { code message } } }
} }`,
      { id: productId, first: Math.min(Math.max(first, 1), 250) },
    );
    return data.product ? data.product.media.nodes : null;
  }

  /**
   * Polls the product's media until none is UPLOADED or PROCESSING (Shopify fetches pictures asynchronously) and
   * answers them; gives up after `attempts` reads, `intervalMs` apart.
   */
  async waitForMedia(
    shop: string,
    token: string,
    productId: string,
    options: {
      attempts?: number;
      intervalMs?: number;
      /** How many pictures the product has (what to read each time). */
      count?: number;
      onPoll?: (media: RemoteMedia[]) => Promise<void>;
    } = {},
  ): Promise<RemoteMedia[]> {
    const attempts = options.attempts ?? 60;
    for (let i = 0; i < attempts; i++) {
      const media = await this.productMedia(shop, token, productId, options.count);
      if (!media) throw new ShopifyError(404, 'The product is no longer in the store');
      await options.onPoll?.(media);
      if (media.every((m) => m.status === 'READY' || m.status === 'FAILED')) return media;
      // Soon after the first look (small pictures are quick), then at the interval.
      const interval = options.intervalMs ?? 1000;
      await this.sleep(i === 0 ? Math.ceil(interval / 2) : interval);
    }
    throw new ShopifyError(504, 'Shopify is still processing the pictures; push again in a few minutes');
  }

  /** Archives the product: buyers no longer see it; the seller can bring it back in Shopify. */
  async archiveProduct(shop: string, token: string, productId: string): Promise<void> {
    const data = await this.graphql<{ productUpdate: { userErrors: ShopifyUserError[] } }>(
      shop,
      token,
      `mutation productUpdate($product: ProductUpdateInput!) {
  productUpdate(product: $product) { product { id status } userErrors { field message } }
}`,
      { product: { id: productId, status: 'ARCHIVED' } },
    );
    const errors = data.productUpdate?.userErrors ?? [];
    if (errors.length && !errors.some((e) => /does not exist/i.test(e.message))) {
      throw new ShopifyError(422, `Shopify did not archive the product: ${describeUserErrors(errors)}`);
    }
  }

  /** Deletes the product from the store; one already gone counts as deleted. */
  async deleteProduct(shop: string, token: string, productId: string): Promise<void> {
    const data = await this.graphql<{ productDelete: { userErrors: ShopifyUserError[] } }>(
      shop,
      token,
      `mutation productDelete($input: ProductDeleteInput!) {
  productDelete(input: $input) { deletedProductId userErrors { field message } }
}`,
      { input: { id: productId } },
    );
    const errors = data.productDelete?.userErrors ?? [];
    if (errors.length && !errors.some((e) => /does not exist/i.test(e.message))) {
      throw new ShopifyError(422, `Shopify did not delete the product: ${describeUserErrors(errors)}`);
    }
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
      `query products { products(first: 8, sortKey: UPDATED_AT, reverse: true) { nodes {
  id title handle status productType tags updatedAt
  variants(first: 100) { nodes { id title price sku } }
  media(first: 10) { nodes { id status preview { image { url } } } }
} } }`,
    );
    return data.products.nodes;
  }

  /**
   * apis.md E4: a per-shop subscription (topic as the GraphQL enum, e.g. APP_UNINSTALLED). One that exists already
   * for this address counts as made.
   */
  async webhookSubscriptionCreate(shop: string, token: string, topic: string, callbackUrl: string): Promise<void> {
    const data = await this.graphql<{
      webhookSubscriptionCreate: { webhookSubscription: { id: string } | null; userErrors: ShopifyUserError[] };
    }>(
      shop,
      token,
      `mutation webhookSubscriptionCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id }
    userErrors { field message }
  }
}`,
      { topic, webhookSubscription: { uri: callbackUrl, format: 'JSON' } },
    );
    const errors = (data.webhookSubscriptionCreate?.userErrors ?? []).filter(
      (e) => !/already been taken/i.test(e.message),
    );
    if (errors.some((e) => isProtectedDataRefusal(e.message))) {
      // Order topics need Shopify's approval of the app for protected customer data: nothing the seller can retry.
      throw new ShopifyError(
        403,
        `Shopify refused the ${topic} webhook: ${describeUserErrors(errors)}`,
        'PROTECTED_CUSTOMER_DATA',
      );
    }
    if (errors.length) {
      throw new ShopifyError(422, `Shopify refused the ${topic} webhook: ${describeUserErrors(errors)}`);
    }
  }

  /** Products by id, in order; null where the store has none (deleted). At most 250 ids a call. */
  async listings(shop: string, token: string, ids: string[]): Promise<(RemoteListing | null)[]> {
    const out: (RemoteListing | null)[] = [];
    for (let i = 0; i < ids.length; i += 250) {
      const data = await this.graphql<{ nodes: (RemoteListing | null)[] }>(
        shop,
        token,
        `query listings($ids: [ID!]!) { nodes(ids: $ids) { ... on Product {
  id title status variants(first: 100) { nodes { id price sku } }
} } }`,
        { ids: ids.slice(i, i + 250) },
      );
      out.push(...data.nodes.map((n) => (n && typeof n.id === 'string' ? n : null)));
    }
    return out;
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
