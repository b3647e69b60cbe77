import type { ValidateFunction } from 'ajv';
import { type AmazonNotificationType, NOTIFICATIONS_SCOPE, OPERATION_LIMITS } from './limits';
import { compileProductType, productTypeAjv } from './product-type-schema';

/**
 * Podforge's Selling Partner API client (apis-next.md H): Login with Amazon (consent URL, code exchange, refresh),
 * and the calls the Amazon adapter makes. Each call waits for its operation's token bucket (Amazon's published rate
 * and burst, per seller) and backs off on a 429 before giving up; an error carries Amazon's code and details.
 */

export class AmazonError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export type AmazonClientOptions = {
  applicationId: string;
  clientId: string;
  clientSecret: string;
  /** Login with Amazon's token endpoint host (https://api.amazon.com). */
  lwaBase: string;
  /** The SP-API host of a region ('na', 'eu', 'fe'). */
  apiBase: (region: string) => string;
  /** Where the seller consents, for a marketplace's Seller Central (or the sandbox's relay). */
  consentBase: (sellerCentral: string) => string;
  /** Waits (tests replace it); the buckets refill on `now`. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Retries of a throttled call before its 429 is answered. */
  maxRetries?: number;
  /** A wait for the bucket longer than this is not waited: the call answers 429 at once. */
  maxWaitMs?: number;
};

export type LwaTokens = { accessToken: string; refreshToken: string; expiresAt: Date };

export type ListingIssue = {
  code: string;
  message: string;
  severity: 'ERROR' | 'WARNING' | 'INFO';
  attributeNames?: string[];
  categories?: string[];
};
export type SubmissionResponse = {
  sku: string;
  status: 'ACCEPTED' | 'INVALID' | 'VALID';
  submissionId: string;
  issues?: ListingIssue[];
};
export type ListingsItem = {
  sku: string;
  summaries?: { marketplaceId: string; asin?: string; productType: string; status: string[]; itemName?: string }[];
  attributes?: Record<string, unknown[]>;
  issues?: ListingIssue[];
  offers?: { marketplaceId: string; price: { amount: string; currencyCode: string } }[];
  fulfillmentAvailability?: { fulfillmentChannelCode: string; quantity?: number }[];
  relationships?: {
    marketplaceId: string;
    relationships: { type: string; childSkus?: string[]; parentSkus?: string[] }[];
  }[];
};
export type AmazonMoney = { amount: string; currencyCode: string };
export type AmazonOrder = {
  orderId: string;
  createdTime: string;
  lastUpdatedTime: string;
  salesChannel: { marketplaceId?: string };
  buyer?: { buyerName?: string };
  recipient?: {
    deliveryAddress?: {
      name?: string;
      addressLine1?: string;
      addressLine2?: string;
      city?: string;
      stateOrRegion?: string;
      postalCode?: string;
      countryCode?: string;
      phone?: string;
    };
  };
  proceeds?: { grandTotal?: AmazonMoney };
  fulfillment?: { fulfillmentStatus?: string };
  orderItems: {
    orderItemId: string;
    quantityOrdered: number;
    product: { asin?: string; title?: string; sellerSku?: string; price?: { unitPrice?: AmazonMoney } };
    fulfillment?: { quantityFulfilled?: number; quantityUnfulfilled?: number };
  }[];
  packages?: { packageReferenceId: string; carrier?: string; trackingNumber?: string }[];
};

export type AmazonDestination = { destinationId: string; name: string; resource: { sqs?: { arn: string } } };
export type AmazonSubscription = {
  subscriptionId: string;
  payloadVersion: string;
  destinationId: string;
  processingDirective?: unknown;
};

export type ProductTypeDefinition = {
  productType: string;
  version: string;
  checksum: string;
  propertyTitles: Record<string, string>;
  validate: ValidateFunction;
};

const sleepReal = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class AmazonClient {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly ajv = productTypeAjv();
  /** Product type schemas by version and checksum (their links live minutes; the schema changes with its version). */
  private readonly definitions = new Map<string, ProductTypeDefinition>();
  private metaSchemaAdded = false;
  /** The app's grantless access tokens (destinations), by scope: the app's, not a seller's. */
  private readonly grantless = new Map<string, LwaTokens>();

  constructor(readonly options: AmazonClientOptions) {}

  private get now() {
    return this.options.now ?? Date.now;
  }

  consentUrl(input: { state: string; redirectUri: string; sellerCentral: string; draft: boolean }): string {
    const url = new URL(`${this.options.consentBase(input.sellerCentral)}/apps/authorize/consent`, 'http://relay');
    url.searchParams.set('application_id', this.options.applicationId);
    url.searchParams.set('state', input.state);
    url.searchParams.set('redirect_uri', input.redirectUri);
    // An application still in draft is authorized with version=beta (MD1000 without it).
    if (input.draft) url.searchParams.set('version', 'beta');
    return url.origin === 'http://relay' ? `${url.pathname}${url.search}` : url.toString();
  }

  private async lwa(form: Record<string, string>): Promise<LwaTokens & { refreshToken: string }> {
    const body = new URLSearchParams({
      ...form,
      client_id: this.options.clientId,
      client_secret: this.options.clientSecret,
    });
    const res = await fetch(`${this.options.lwaBase}/auth/o2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body,
    });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) {
      const description = String(json.error_description ?? json.error ?? res.statusText);
      throw new AmazonError(res.status === 400 ? 401 : res.status, String(json.error ?? 'lwa_error'), description);
    }
    return {
      accessToken: String(json.access_token),
      refreshToken: String(json.refresh_token ?? form.refresh_token ?? ''),
      expiresAt: new Date(this.now() + Number(json.expires_in ?? 3600) * 1000),
    };
  }

  exchangeCode(code: string, redirectUri: string): Promise<LwaTokens> {
    return this.lwa({ grant_type: 'authorization_code', code, redirect_uri: redirectUri });
  }

  refresh(refreshToken: string): Promise<LwaTokens> {
    return this.lwa({ grant_type: 'refresh_token', refresh_token: refreshToken });
  }

  /** The application's own token for grantless operations (client_credentials with a scope), kept until near its end. */
  async grantlessToken(scope: string): Promise<string> {
    const known = this.grantless.get(scope);
    if (known && known.expiresAt.getTime() - 60_000 > this.now()) return known.accessToken;
    const tokens = await this.lwa({ grant_type: 'client_credentials', scope });
    this.grantless.set(scope, tokens);
    return tokens.accessToken;
  }

  /** Waits for a token of the operation's bucket (per seller), or answers 429 when the wait is too long. */
  private async takeToken(sellerId: string, operationId: string) {
    const limit = OPERATION_LIMITS[operationId];
    if (!limit) return;
    const key = `${sellerId}|${operationId}`;
    const sleep = this.options.sleep ?? sleepReal;
    for (;;) {
      const t = this.now();
      const b = this.buckets.get(key) ?? { tokens: limit.burst, at: t };
      // A clock set back (NTP) refills nothing rather than draining the bucket.
      b.tokens = Math.min(limit.burst, b.tokens + (Math.max(0, t - b.at) / 1000) * limit.rate);
      b.at = t;
      this.buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return;
      }
      // A little over the refill time: Amazon's bucket started at its own clock, a moment after ours.
      const wait = Math.ceil(((1 - b.tokens) / limit.rate) * 1000 * 1.1) + 25;
      if (wait > (this.options.maxWaitMs ?? 10_000))
        throw new AmazonError(
          429,
          'QuotaExceeded',
          `Amazon allows ${operationId} ${limit.rate < 1 ? `once every ${Math.round(1 / limit.rate)} seconds` : `${limit.rate} times a second`}; try again shortly`,
          undefined,
          Math.ceil(wait / 1000),
        );
      await sleep(wait);
    }
  }

  /**
   * Amazon's bucket runs on its clock from when a request arrives, ours from when it left: the time a call was in
   * flight is not counted as refill, so our estimate stays behind Amazon's rather than ahead of it.
   */
  private settleBucket(sellerId: string, operationId: string) {
    const b = this.buckets.get(`${sellerId}|${operationId}`);
    if (b) b.at = Math.max(b.at, this.now());
  }

  private emptyBucket(sellerId: string, operationId: string) {
    const b = this.buckets.get(`${sellerId}|${operationId}`);
    if (b) b.tokens = Math.min(b.tokens, 0);
  }

  /** One SP-API call: the bucket first, then the request; a 429 is retried with backoff (1 s, 2 s, 4 s...). */
  async call<T>(
    token: string,
    call: {
      region: string;
      sellerId: string;
      operationId: string;
      method: string;
      path: string;
      query?: Record<string, string | string[] | undefined>;
      body?: unknown;
    },
  ): Promise<T> {
    const url = new URL(call.path, this.options.apiBase(call.region));
    for (const [k, v] of Object.entries(call.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, Array.isArray(v) ? v.join(',') : v);
    const sleep = this.options.sleep ?? sleepReal;
    const retries = this.options.maxRetries ?? 3;
    for (let attempt = 0; ; attempt++) {
      await this.takeToken(call.sellerId, call.operationId);
      const res = await fetch(url, {
        method: call.method,
        headers: {
          'x-amz-access-token': token,
          'user-agent': 'Podforge/1.0 (Language=TypeScript)',
          ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
      });
      this.settleBucket(call.sellerId, call.operationId);
      const text = await res.text();
      const json = text ? (JSON.parse(text) as unknown) : undefined;
      if (res.ok) return json as T;
      const error = (json as { errors?: { code?: string; message?: string; details?: string }[] } | undefined)
        ?.errors?.[0];
      if (res.status === 429 && attempt < retries) {
        // Amazon's bucket is emptier than our estimate (another process of ours, or a clock apart): ours is emptied
        // too, so the retry also waits for the refill.
        this.emptyBucket(call.sellerId, call.operationId);
        await sleep(1000 * 2 ** attempt);
        continue;
      }
      throw new AmazonError(
        res.status,
        error?.code ?? 'Error',
        error?.message ?? `Amazon answered ${res.status}`,
        error?.details,
      );
    }
  }

  /**
   * A product type's definition for a marketplace, its schema downloaded from the short-lived link and compiled
   * (cached by version and checksum). `sellerId` lets Amazon fill seller-specific values (the brands it may use).
   */
  async productType(
    token: string,
    input: { region: string; sellerId: string; marketplaceId: string; productType: string; locale?: string },
  ): Promise<ProductTypeDefinition> {
    const def = await this.call<{
      productType: string;
      productTypeVersion: { version: string };
      schema: { link: { resource: string }; checksum: string };
      metaSchema?: { link: { resource: string }; checksum: string };
    }>(token, {
      region: input.region,
      sellerId: input.sellerId,
      operationId: 'getDefinitionsProductType',
      method: 'GET',
      path: `/definitions/2020-09-01/productTypes/${encodeURIComponent(input.productType)}`,
      query: {
        marketplaceIds: input.marketplaceId,
        sellerId: input.sellerId,
        requirements: 'LISTING',
        requirementsEnforced: 'ENFORCED',
        locale: input.locale ?? 'DEFAULT',
      },
    });
    const cacheKey = `${def.productType}|${input.marketplaceId}|${def.productTypeVersion.version}|${def.schema.checksum}`;
    const cached = this.definitions.get(cacheKey);
    if (cached) return cached;
    const download = async (link: string) => {
      const res = await fetch(link);
      if (!res.ok)
        throw new AmazonError(502, 'SchemaDownload', `Amazon's ${def.productType} schema could not be downloaded`);
      return (await res.json()) as Record<string, unknown>;
    };
    if (def.metaSchema && !this.metaSchemaAdded) {
      const meta = await download(def.metaSchema.link.resource);
      if (typeof meta.$id === 'string' && !this.ajv.getSchema(meta.$id)) this.ajv.addMetaSchema(meta, meta.$id, false);
      this.metaSchemaAdded = true;
    }
    const schema = await download(def.schema.link.resource);
    const properties = (schema.properties ?? {}) as Record<string, { title?: string }>;
    const definition: ProductTypeDefinition = {
      productType: def.productType,
      version: def.productTypeVersion.version,
      checksum: def.schema.checksum,
      propertyTitles: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, v.title ?? k])),
      validate: compileProductType(this.ajv, schema),
    };
    this.definitions.set(cacheKey, definition);
    return definition;
  }

  putListingsItem(
    token: string,
    at: { region: string; sellerId: string; marketplaceId: string },
    sku: string,
    body: { productType: string; requirements: 'LISTING'; attributes: Record<string, unknown[]> },
  ) {
    return this.call<SubmissionResponse>(token, {
      ...at,
      operationId: 'putListingsItem',
      method: 'PUT',
      path: `/listings/2021-08-01/items/${encodeURIComponent(at.sellerId)}/${encodeURIComponent(sku)}`,
      query: { marketplaceIds: at.marketplaceId, includedData: 'issues' },
      body,
    });
  }

  patchListingsItem(
    token: string,
    at: { region: string; sellerId: string; marketplaceId: string },
    sku: string,
    body: { productType: string; patches: { op: 'replace' | 'delete' | 'add'; path: string; value?: unknown[] }[] },
  ) {
    return this.call<SubmissionResponse>(token, {
      ...at,
      operationId: 'patchListingsItem',
      method: 'PATCH',
      path: `/listings/2021-08-01/items/${encodeURIComponent(at.sellerId)}/${encodeURIComponent(sku)}`,
      query: { marketplaceIds: at.marketplaceId, includedData: 'issues' },
      body,
    });
  }

  deleteListingsItem(token: string, at: { region: string; sellerId: string; marketplaceId: string }, sku: string) {
    return this.call<SubmissionResponse>(token, {
      ...at,
      operationId: 'deleteListingsItem',
      method: 'DELETE',
      path: `/listings/2021-08-01/items/${encodeURIComponent(at.sellerId)}/${encodeURIComponent(sku)}`,
      query: { marketplaceIds: at.marketplaceId },
    });
  }

  /** A SKU as Amazon holds it, or null when Amazon has none (404). */
  async getListingsItem(
    token: string,
    at: { region: string; sellerId: string; marketplaceId: string },
    sku: string,
    includedData: string[],
  ): Promise<ListingsItem | null> {
    try {
      return await this.call<ListingsItem>(token, {
        ...at,
        operationId: 'getListingsItem',
        method: 'GET',
        path: `/listings/2021-08-01/items/${encodeURIComponent(at.sellerId)}/${encodeURIComponent(sku)}`,
        query: { marketplaceIds: at.marketplaceId, includedData },
      });
    } catch (error) {
      if (error instanceof AmazonError && error.status === 404) return null;
      throw error;
    }
  }

  searchOrders(
    token: string,
    at: { region: string; sellerId: string },
    query: {
      lastUpdatedAfter: string;
      marketplaceIds: string[];
      includedData: string[];
      paginationToken?: string;
    },
  ) {
    return this.call<{ orders: AmazonOrder[]; pagination?: { nextToken?: string } }>(token, {
      ...at,
      operationId: 'searchOrders',
      method: 'GET',
      path: '/orders/2026-01-01/orders',
      query: {
        lastUpdatedAfter: query.lastUpdatedAfter,
        marketplaceIds: query.marketplaceIds,
        fulfilledBy: 'MERCHANT',
        includedData: query.includedData,
        maxResultsPerPage: '100',
        paginationToken: query.paginationToken,
      },
    });
  }

  async getOrder(token: string, at: { region: string; sellerId: string }, orderId: string, includedData: string[]) {
    const answer = await this.call<{ order: AmazonOrder }>(token, {
      ...at,
      operationId: 'getOrder',
      method: 'GET',
      path: `/orders/2026-01-01/orders/${encodeURIComponent(orderId)}`,
      query: { includedData },
    });
    return answer.order;
  }

  async confirmShipment(
    token: string,
    at: { region: string; sellerId: string },
    orderId: string,
    body: {
      marketplaceId: string;
      packageDetail: {
        packageReferenceId: string;
        carrierCode: string;
        carrierName?: string;
        trackingNumber: string;
        shipDate: string;
        orderItems: { orderItemId: string; quantity: number }[];
      };
    },
  ): Promise<void> {
    await this.call<void>(token, {
      ...at,
      operationId: 'confirmShipment',
      method: 'POST',
      path: `/orders/v0/orders/${encodeURIComponent(orderId)}/shipmentConfirmation`,
      body,
    });
  }

  // ----- Notifications v1 -----

  /** The app's destinations (grantless): one naming the queue's ARN is used again rather than made twice. */
  async getDestinations(region: string): Promise<AmazonDestination[]> {
    const token = await this.grantlessToken(NOTIFICATIONS_SCOPE);
    const answer = await this.call<{ payload?: AmazonDestination[] }>(token, {
      region,
      sellerId: 'app',
      operationId: 'getDestinations',
      method: 'GET',
      path: '/notifications/v1/destinations',
    });
    return answer.payload ?? [];
  }

  /** A destination for an SQS queue by its ARN (grantless: the application's, shared by its sellers). */
  async createDestination(region: string, name: string, arn: string): Promise<AmazonDestination> {
    const token = await this.grantlessToken(NOTIFICATIONS_SCOPE);
    const answer = await this.call<{ payload: AmazonDestination }>(token, {
      region,
      sellerId: 'app',
      operationId: 'createDestination',
      method: 'POST',
      path: '/notifications/v1/destinations',
      body: { name, resourceSpecification: { sqs: { arn } } },
    });
    return answer.payload;
  }

  /** The seller's subscription of a type and payload version, or null when it has none (404). */
  async getSubscription(
    token: string,
    at: { region: string; sellerId: string },
    type: AmazonNotificationType,
    payloadVersion: string,
  ): Promise<AmazonSubscription | null> {
    try {
      const answer = await this.call<{ payload?: AmazonSubscription }>(token, {
        ...at,
        operationId: 'getSubscription',
        method: 'GET',
        path: `/notifications/v1/subscriptions/${type}`,
        query: { payloadVersion },
      });
      return answer.payload ?? null;
    } catch (error) {
      if (error instanceof AmazonError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * A subscription deleted by its type and id (grantless: the application's token, so it works after the seller's
   * tokens are gone); one Amazon no longer has (404) is already what was wanted.
   */
  async deleteSubscription(region: string, type: AmazonNotificationType, subscriptionId: string): Promise<void> {
    const token = await this.grantlessToken(NOTIFICATIONS_SCOPE);
    try {
      await this.call(token, {
        region,
        sellerId: 'app',
        operationId: 'deleteSubscriptionById',
        method: 'DELETE',
        path: `/notifications/v1/subscriptions/${type}/${encodeURIComponent(subscriptionId)}`,
      });
    } catch (error) {
      if (error instanceof AmazonError && error.status === 404) return;
      throw error;
    }
  }

  /** The seller subscribed to a notification type, delivered to a destination (the seller's token). */
  async createSubscription(
    token: string,
    at: { region: string; sellerId: string },
    type: AmazonNotificationType,
    body: { payloadVersion: string; destinationId: string; processingDirective?: Record<string, unknown> },
  ): Promise<AmazonSubscription> {
    const answer = await this.call<{ payload: AmazonSubscription }>(token, {
      ...at,
      operationId: 'createSubscription',
      method: 'POST',
      path: `/notifications/v1/subscriptions/${type}`,
      body,
    });
    return answer.payload;
  }
}
