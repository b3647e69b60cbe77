import { createHash, randomBytes } from 'node:crypto';

/**
 * Etsy Open API v3 client (apis.md C, E7): OAuth 2 with PKCE and the listing calls a push makes. Every request
 * carries `x-api-key: keystring:shared_secret` (required by Etsy since early 2026) and, for a shop's data,
 * `Authorization: Bearer <user_id.token>`. Base URLs, fetch, clock and sleep are injectable so the same code talks to
 * Etsy and to the local fake (the sandbox).
 *
 * Rate limits: calls are paced to `perSecond` (Etsy's default limit per app, 10, unless told otherwise) over any
 * second (in the budget every instance shares, when given), so pushes one after another stay under the QPS limit
 * rather than meeting it; a 429 all the same waits for `retry-after` and tries again (a few times); a wait longer
 * than `maxWaitMs` means the day's budget is spent, and that is reported (status 429) instead of waited out (and
 * told to the shared budget, so no instance calls again before then).
 */

export class EtsyError extends Error {
  constructor(
    /** HTTP status Etsy answered, or 502 when it could not be reached or answered nonsense. */
    readonly status: number,
    message: string,
    /** Seconds Etsy asked us to wait (429 only). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'EtsyError';
  }
}

export type EtsyClientOptions = {
  keystring: string;
  sharedSecret: string;
  /** `https://openapi.etsy.com` */
  apiBase: string;
  /** Where the browser goes to approve: `https://www.etsy.com` (the sandbox relays it through the app). */
  connectBase: string;
  /** Token endpoint host: `https://api.etsy.com` */
  tokenBase: string;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** 429s waited out per call before giving up. */
  maxRateLimitRetries?: number;
  /** The longest single wait; a longer retry-after is the day's budget spent. */
  maxWaitMs?: number;
  /** Calls sent in any second at most (Etsy's per-app QPS limit; 10 by default, its documented default). */
  perSecond?: number;
  /**
   * The app's budget shared by every instance (Etsy counts calls per app, whichever process sends them): each call
   * takes its turn there instead of in this process's memory, and a spent day is told to it.
   */
  budget?: EtsyCallBudget;
};

/** Etsy's per-app budget shared by every instance of the server (`modules/stores/call-budget.repository.ts`). */
export type EtsyCallBudget = {
  /** The next call's turn among every instance's calls: the wait before sending it, or the day's budget spent. */
  reserve(perSecond: number, windowMs: number): Promise<{ waitMs: number } | { spentForSeconds: number }>;
  /** Etsy said the day's budget is spent for `seconds`. */
  spent(seconds: number): Promise<void>;
};

const DAY_SPENT = "Etsy's daily request budget is spent; try again later";

/**
 * A second and a fifth: Etsy counts calls as they arrive, and a call sent in its turn may travel slower than the next
 * one (a busy host, a slow link); a 50 ms margin still met Etsy's limit on a loaded machine.
 */
const PACE_WINDOW_MS = 1200;

export type EtsyTokens = { accessToken: string; refreshToken: string; expiresAt: Date };
export type EtsyListing = {
  listing_id: number;
  title: string;
  state: string;
  tags: string[];
  skus?: string[];
  url: string;
  created_timestamp: number;
  price?: { amount: number; divisor: number; currency_code: string };
};
export type EtsyImage = { listing_image_id: number; rank: number; url_fullxfull: string };
/**
 * One property value of an inventory product. `value_ids` is required by the Open API: Etsy's ids where known, an
 * empty array for a custom value (513/514) that Etsy numbers itself (etsy/open-api#375 shows such a body accepted).
 */
export type EtsyPropertyValue = { property_id: number; property_name: string; values: string[]; value_ids: number[] };
/** Etsy's ShopReturnPolicy. */
export type EtsyReturnPolicy = {
  return_policy_id: number;
  accepts_returns: boolean;
  accepts_exchanges: boolean;
  return_deadline: number | null;
};
export type EtsyInventoryInput = {
  products: {
    sku: string;
    property_values: EtsyPropertyValue[];
    offerings: { price: number; quantity: number; is_enabled: boolean; readiness_state_id?: number }[];
  }[];
  price_on_property: number[];
  quantity_on_property: number[];
  sku_on_property: number[];
};
export type EtsyInventory = {
  products: {
    /** Etsy's id of this product (what a receipt's transaction names); a new one after each inventory update. */
    product_id: number;
    sku: string;
    property_values: EtsyPropertyValue[];
    offerings: { price: { amount: number; divisor: number }; quantity: number; is_enabled: boolean }[];
  }[];
};
export type DraftListingInput = {
  title: string;
  description: string;
  price: number;
  quantity: number;
  who_made: 'i_did' | 'someone_else' | 'collective';
  when_made: string;
  taxonomy_id: number;
  shipping_profile_id: number;
  readiness_state_id: number;
  /** Required before a physical listing can be active (outside the EU). */
  return_policy_id: number;
  production_partner_ids?: number[];
  tags: string[];
  type: 'physical';
  is_supply: boolean;
};
export type TaxonomyNode = { id: number; name: string; children: TaxonomyNode[] };

/**
 * What the connect asks for: the listing calls a push makes, the shop, and the orders (`transactions_r` for
 * getShopReceipts, `transactions_w` for createReceiptShipment; Etsy's Open API v3 spec, security of each operation).
 */
export const ETSY_SCOPES = [
  'listings_r',
  'listings_w',
  'listings_d',
  'shops_r',
  // createShopReturnPolicy, for a shop without a return policy (an active physical listing needs one).
  'shops_w',
  'transactions_r',
  'transactions_w',
];

/** Etsy's Money: an integer amount over a divisor (e.g. 2599 / 100) in a currency. */
export type EtsyMoney = { amount: number; divisor: number; currency_code: string };

/**
 * A Money as a decimal string with two places, computed in integers (no float drift), half away from zero: 2599/100
 * is '25.99', 1/3 is '0.33'. A divisor that is not a positive integer is refused.
 */
export function moneyString(m: Pick<EtsyMoney, 'amount' | 'divisor'>): string {
  if (!Number.isSafeInteger(m.amount) || !Number.isSafeInteger(m.divisor) || m.divisor <= 0)
    throw new EtsyError(502, `Etsy sent a money value that is not an integer over a positive divisor`);
  const d = BigInt(m.divisor);
  const scaled = BigInt(Math.abs(m.amount)) * 100n;
  let cents = scaled / d;
  if ((scaled % d) * 2n >= d) cents += 1n;
  const sign = m.amount < 0 && cents > 0n ? '-' : '';
  return `${sign}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
}

/** A ShopReceiptTransaction: one line of a receipt (the fields Podforge reads). */
export type EtsyTransaction = {
  transaction_id: number;
  title: string | null;
  listing_id: number | null;
  product_id: number | null;
  sku: string | null;
  quantity: number;
  price: EtsyMoney;
};
/** A ShopReceiptShipment: one tracking submitted for a receipt. */
export type EtsyReceiptShipment = {
  receipt_shipping_id: number | null;
  shipment_notification_timestamp: number;
  carrier_name: string;
  tracking_code: string;
};
/** A ShopReceipt: an order (status one of paid, completed, open, payment processing, canceled, fully/partially refunded). */
export type EtsyReceipt = {
  receipt_id: number;
  buyer_user_id: number | null;
  name: string;
  first_line: string | null;
  second_line: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country_iso: string | null;
  status: string;
  is_paid: boolean;
  is_shipped: boolean;
  create_timestamp: number;
  update_timestamp: number;
  grandtotal: EtsyMoney;
  transactions: EtsyTransaction[];
  shipments: EtsyReceiptShipment[];
};
export type ReceiptQuery = {
  minLastModified?: number;
  sortOn?: 'created' | 'updated' | 'receipt_id';
  sortOrder?: 'asc' | 'desc';
  wasPaid?: boolean;
  wasShipped?: boolean;
  wasCanceled?: boolean;
  limit?: number;
  offset?: number;
};

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export class EtsyClient {
  private readonly fetchImpl: typeof fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  /** When the last `perSecond` calls were sent, oldest first, and the turn of the next call waiting to be sent. */
  private readonly sent: number[] = [];
  private turn: Promise<void> = Promise.resolve();

  constructor(readonly options: EtsyClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /**
   * Waits until a call may be sent without going over `perSecond` in any window (real time, in turn): in the shared
   * budget when there is one, else among this process's calls.
   */
  private async pace(): Promise<void> {
    const limit = this.options.perSecond ?? 10;
    const budget = this.options.budget;
    if (budget) {
      const turn = await budget.reserve(limit, PACE_WINDOW_MS);
      if ('spentForSeconds' in turn) throw new EtsyError(429, DAY_SPENT, turn.spentForSeconds);
      if (turn.waitMs > 0) await new Promise((r) => setTimeout(r, turn.waitMs));
      return;
    }
    const mine = this.turn.then(async () => {
      const oldest = this.sent.length >= limit ? (this.sent[this.sent.length - limit] ?? 0) : null;
      const wait = oldest === null ? 0 : oldest + PACE_WINDOW_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.sent.push(Date.now());
      if (this.sent.length > limit) this.sent.splice(0, this.sent.length - limit);
    });
    this.turn = mine;
    return mine;
  }

  authorizeUrl(input: { state: string; challenge: string; redirectUri: string }): string {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: this.options.keystring,
      redirect_uri: input.redirectUri,
      scope: ETSY_SCOPES.join(' '),
      state: input.state,
      code_challenge: input.challenge,
      code_challenge_method: 'S256',
    });
    return `${this.options.connectBase.replace(/\/$/, '')}/oauth/connect?${query.toString().replace(/\+/g, '%20')}`;
  }

  private async token(form: Record<string, string>): Promise<EtsyTokens> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.options.tokenBase.replace(/\/$/, '')}/v3/public/oauth/token`, {
        method: 'POST',
        // Etsy asks for the key on every request since 2026; whether the token endpoint checks it is not confirmed.
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'x-api-key': `${this.options.keystring}:${this.options.sharedSecret}`,
        },
        body: new URLSearchParams(form).toString(),
      });
    } catch {
      throw new EtsyError(502, 'Etsy could not be reached');
    }
    const json = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || typeof json?.access_token !== 'string' || typeof json.refresh_token !== 'string') {
      const reason = typeof json?.error_description === 'string' ? json.error_description : `HTTP ${response.status}`;
      throw new EtsyError(
        response.ok ? 502 : response.status === 400 ? 401 : response.status,
        `Etsy refused: ${reason}`,
      );
    }
    const expiresIn = typeof json.expires_in === 'number' ? json.expires_in : 3600;
    return {
      accessToken: json.access_token,
      refreshToken: json.refresh_token,
      expiresAt: new Date(this.now() + expiresIn * 1000),
    };
  }

  exchangeCode(input: { code: string; verifier: string; redirectUri: string }): Promise<EtsyTokens> {
    return this.token({
      grant_type: 'authorization_code',
      client_id: this.options.keystring,
      redirect_uri: input.redirectUri,
      code: input.code,
      code_verifier: input.verifier,
    });
  }

  refresh(refreshToken: string): Promise<EtsyTokens> {
    return this.token({ grant_type: 'refresh_token', client_id: this.options.keystring, refresh_token: refreshToken });
  }

  /** One API call; 429 waits for retry-after (bounded), any other error throws with Etsy's `error` text. */
  async request<T>(
    method: string,
    path: string,
    token: string | null,
    body?: { json?: unknown; form?: URLSearchParams; multipart?: FormData },
  ): Promise<T> {
    const url = `${this.options.apiBase.replace(/\/$/, '')}/v3/application${path}`;
    const maxRetries = this.options.maxRateLimitRetries ?? 5;
    const maxWait = this.options.maxWaitMs ?? 60_000;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        'x-api-key': `${this.options.keystring}:${this.options.sharedSecret}`,
        Accept: 'application/json',
      };
      if (token) headers.Authorization = `Bearer ${token}`;
      let payload: BodyInit | undefined;
      if (body?.json !== undefined) {
        headers['Content-Type'] = 'application/json';
        payload = JSON.stringify(body.json);
      } else if (body?.form) {
        headers['Content-Type'] = 'application/x-www-form-urlencoded';
        payload = body.form.toString();
      } else if (body?.multipart) {
        payload = body.multipart;
      }
      let response: Response;
      await this.pace();
      try {
        response = await this.fetchImpl(url, { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
      } catch {
        throw new EtsyError(502, 'Etsy could not be reached');
      }
      if (response.status === 429) {
        await response.body?.cancel();
        const seconds = Number(response.headers.get('retry-after'));
        const waitMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
        if (waitMs > maxWait) {
          await this.options.budget?.spent(waitMs / 1000);
          throw new EtsyError(429, DAY_SPENT, waitMs / 1000);
        }
        if (attempt >= maxRetries) throw new EtsyError(429, 'Etsy is limiting requests; try again shortly', seconds);
        await this.sleep(waitMs);
        continue;
      }
      if (response.status === 204) return undefined as T;
      const json = (await response.json().catch(() => null)) as (T & { error?: unknown }) | null;
      if (!response.ok) {
        const reason = typeof json?.error === 'string' ? json.error : `HTTP ${response.status}`;
        throw new EtsyError(response.status, `Etsy: ${reason}`.slice(0, 300));
      }
      if (json === null) throw new EtsyError(502, 'Etsy sent an unreadable answer');
      return json;
    }
  }

  me(token: string) {
    return this.request<{ user_id: number; shop_id: number }>('GET', '/users/me', token);
  }

  shop(token: string, shopId: string) {
    return this.request<{ shop_id: number; shop_name: string; url: string }>('GET', `/shops/${shopId}`, token);
  }

  async shippingProfiles(token: string, shopId: string) {
    const r = await this.request<{ results: { shipping_profile_id: number; title: string }[] }>(
      'GET',
      `/shops/${shopId}/shipping-profiles`,
      token,
    );
    return r.results;
  }

  async processingProfiles(token: string, shopId: string) {
    const r = await this.request<{
      results: {
        readiness_state_id: number;
        readiness_state: string;
        min_processing_days: number;
        max_processing_days: number;
      }[];
    }>('GET', `/shops/${shopId}/readiness-state-definitions`, token);
    return r.results;
  }

  async productionPartners(token: string, shopId: string) {
    const r = await this.request<{ results: { production_partner_id: number; partner_name: string }[] }>(
      'GET',
      `/shops/${shopId}/production-partners`,
      token,
    );
    return r.results;
  }

  /** getShopReturnPolicies. */
  async returnPolicies(token: string, shopId: string) {
    const r = await this.request<{ results: EtsyReturnPolicy[] }>('GET', `/shops/${shopId}/policies/return`, token);
    return r.results;
  }

  /** createShopReturnPolicy: `return_deadline` (days) only when returns or exchanges are accepted. */
  createReturnPolicy(
    token: string,
    shopId: string,
    input: { accepts_returns: boolean; accepts_exchanges: boolean; return_deadline?: number },
  ) {
    // Etsy's OAS documents this body as a form (application/x-www-form-urlencoded).
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(input)) if (value !== undefined) form.set(key, String(value));
    return this.request<EtsyReturnPolicy>('POST', `/shops/${shopId}/policies/return`, token, { form });
  }

  async taxonomy(token: string): Promise<TaxonomyNode[]> {
    const r = await this.request<{ results: TaxonomyNode[] }>('GET', '/seller-taxonomy/nodes', token);
    return r.results;
  }

  /**
   * createDraftListing as a form. Lists (tags, production partner ids) go as one comma-separated value: Etsy keeps
   * only the last of repeated fields (etsy/open-api#291).
   */
  createDraftListing(token: string, shopId: string, input: DraftListingInput) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(input))
      form.set(key, Array.isArray(value) ? value.join(',') : String(value));
    return this.request<EtsyListing>('POST', `/shops/${shopId}/listings`, token, { form });
  }

  /** The shop's listings in one state, every page. */
  async listingsByShop(token: string, shopId: string, state: 'draft' | 'active' | 'inactive'): Promise<EtsyListing[]> {
    const out: EtsyListing[] = [];
    for (let offset = 0; offset < 10_000; offset += 100) {
      const page = await this.request<{ count: number; results: EtsyListing[] }>(
        'GET',
        `/shops/${shopId}/listings?state=${state}&limit=100&offset=${offset}`,
        token,
      );
      out.push(...page.results);
      if (page.results.length < 100 || out.length >= page.count) break;
    }
    return out;
  }

  getListing(token: string, listingId: string) {
    return this.request<EtsyListing>('GET', `/listings/${listingId}`, token);
  }

  updateListing(token: string, shopId: string, listingId: string, fields: Record<string, string | string[]>) {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) form.set(key, Array.isArray(value) ? value.join(',') : value);
    return this.request<EtsyListing>('PATCH', `/shops/${shopId}/listings/${listingId}`, token, { form });
  }

  deleteListing(token: string, listingId: string) {
    return this.request<void>('DELETE', `/listings/${listingId}`, token);
  }

  async images(token: string, listingId: string): Promise<EtsyImage[]> {
    const r = await this.request<{ results: EtsyImage[] }>('GET', `/listings/${listingId}/images`, token);
    return r.results;
  }

  uploadImage(token: string, shopId: string, listingId: string, image: { bytes: Buffer; name: string; rank: number }) {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(image.bytes)], { type: 'image/png' }), image.name);
    form.append('rank', String(image.rank));
    return this.request<EtsyImage>('POST', `/shops/${shopId}/listings/${listingId}/images`, token, {
      multipart: form,
    });
  }

  deleteImage(token: string, shopId: string, listingId: string, imageId: number) {
    return this.request<void>('DELETE', `/shops/${shopId}/listings/${listingId}/images/${imageId}`, token);
  }

  inventory(token: string, listingId: string) {
    return this.request<EtsyInventory>('GET', `/listings/${listingId}/inventory`, token);
  }

  updateInventory(token: string, listingId: string, input: EtsyInventoryInput) {
    return this.request<EtsyInventory>('PUT', `/listings/${listingId}/inventory`, token, { json: input });
  }

  /**
   * getListingVariationImages: shop-scoped, unlike the other listing reads (the unscoped path answers 404 for every
   * listing); each link carries its value's name.
   */
  async variationImages(token: string, shopId: string, listingId: string) {
    const r = await this.request<{
      results: { property_id: number; value_id: number; value: string; image_id: number }[];
    }>('GET', `/shops/${shopId}/listings/${listingId}/variation-images`, token);
    return r.results;
  }

  /** getShopReceipts (scope transactions_r): one page of the shop's receipts, filtered and sorted as asked. */
  receipts(token: string, shopId: string, q: ReceiptQuery) {
    const query = new URLSearchParams();
    if (q.minLastModified !== undefined) query.set('min_last_modified', String(q.minLastModified));
    if (q.sortOn) query.set('sort_on', q.sortOn);
    if (q.sortOrder) query.set('sort_order', q.sortOrder);
    if (q.wasPaid !== undefined) query.set('was_paid', String(q.wasPaid));
    if (q.wasShipped !== undefined) query.set('was_shipped', String(q.wasShipped));
    if (q.wasCanceled !== undefined) query.set('was_canceled', String(q.wasCanceled));
    query.set('limit', String(q.limit ?? 100));
    query.set('offset', String(q.offset ?? 0));
    return this.request<{ count: number; results: EtsyReceipt[] }>(
      'GET',
      `/shops/${shopId}/receipts?${query.toString()}`,
      token,
    );
  }

  /** getShopReceipt (scope transactions_r). */
  receipt(token: string, shopId: string, receiptId: string) {
    return this.request<EtsyReceipt>('GET', `/shops/${shopId}/receipts/${receiptId}`, token);
  }

  /**
   * createReceiptShipment (scope transactions_w): a tracking code and carrier for a receipt; Etsy adds a shipment
   * record and emails the buyer each time it succeeds, so the caller must not send the same tracking twice.
   */
  createReceiptShipment(
    token: string,
    shopId: string,
    receiptId: string,
    input: { tracking_code: string; carrier_name: string; note_to_buyer?: string },
  ) {
    return this.request<EtsyReceipt>('POST', `/shops/${shopId}/receipts/${receiptId}/tracking`, token, {
      json: input,
    });
  }

  updateVariationImages(
    token: string,
    shopId: string,
    listingId: string,
    entries: { property_id: number; value_id: number; image_id: number }[],
  ) {
    return this.request<unknown>('POST', `/shops/${shopId}/listings/${listingId}/variation-images`, token, {
      json: { variation_images: entries },
    });
  }
}
